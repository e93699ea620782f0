"""`pinup gallery`: one design-system site per bundled brand, plus an index page linking them all.

Uses the same site writer as `pinup build` (one OutputWriter for the whole
gallery, so a rebuild after one brand changes rewrites only that brand's files).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Brand:
    slug: str
    name: str
    category: str
    path: Path


@dataclass
class GalleryResult:
    brands: list[Brand] = field(default_factory=list)
    written: int = 0
    skipped: int = 0
    seconds: float = 0.0
    errors: dict[str, int] = field(default_factory=dict)


def list_brands(root: Path | None = None) -> list[Brand]:
    """Every brand of `pinup.brands`' manifest (in its order) that has a DESIGN.md."""
    from pinup.brands import brand_refs_dir, load_manifest

    root = root or brand_refs_dir()
    brands = []
    for entry in load_manifest(root):
        path = root / entry.slug / "DESIGN.md"
        if path.is_file():
            brands.append(Brand(entry.slug, entry.name, entry.category or "", path))
    return brands


def write_gallery(writer, brands: list[Brand], *, fonts: str = "system",  # type: ignore[no-untyped-def]
                  progress: Callable[[str, int, int], None] | None = None) -> list[dict[str, object]]:
    """Write every brand's site under `<slug>/` and the index page; returns the index cards."""
    from pinup.build import lint_design, site_fingerprint, write_site
    from pinup.designmd.model import DesignSystem
    from pinup.site.render import STATIC_ASSETS, render_template, static_asset
    from pinup.theme import theme_css

    cards: list[dict[str, object]] = []
    for i, brand in enumerate(brands, start=1):
        sub = writer.sub(brand.slug)
        fingerprint = site_fingerprint(brand.path.read_bytes(), allow_html=False, fonts=fonts, templates=None)
        card = sub.reuse("site", fingerprint)
        if card is None:  # changed (or new): lint and render this brand
            report = lint_design(brand.path)
            with sub.group("site", fingerprint) as card:
                write_site(report, sub, fonts=fonts)
                design = report.design
                card.update({
                    "name": design.name or brand.name,
                    "description": design.description or "",
                    "swatches": [c.hex[:7] for n, c in design.colors.items() if not n.endswith("-dark")][:8],
                    "errors": report.summary.errors,
                    "warnings": report.summary.warnings,
                })
        cards.append({**card, "slug": brand.slug, "category": brand.category})
        if progress:
            progress(brand.slug, i, len(brands))
    writer.write_text("assets/theme.css", theme_css(DesignSystem(), fonts="system"))
    for name in STATIC_ASSETS:
        writer.write_bytes(f"assets/{name}", static_asset(name))
    writer.write_text("index.html", render_template("gallery.html", {"brands": cards}))
    return cards


def build_gallery(out: Path, *, clean: bool = False, fonts: str = "system", root: Path | None = None,
                  progress: Callable[[str, int, int], None] | None = None) -> GalleryResult:
    """`pinup gallery`: write the gallery to `out` (incremental: unchanged brands are not re-rendered)."""
    from pinup.output import OutputWriter

    started = time.perf_counter()
    result = GalleryResult(brands=list_brands(root))
    with OutputWriter(out, clean=clean) as writer:
        cards = write_gallery(writer, result.brands, fonts=fonts, progress=progress)
    result.errors = {str(c["slug"]): int(c.get("errors", 0)) for c in cards}  # type: ignore[call-overload]
    result.written, result.skipped = writer.written, writer.skipped
    result.seconds = time.perf_counter() - started
    return result
