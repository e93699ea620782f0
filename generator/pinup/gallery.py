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


def build_gallery(out: Path, *, clean: bool = False, fonts: str = "system", root: Path | None = None,
                  progress: Callable[[str, int, int], None] | None = None) -> GalleryResult:
    from pinup.build import lint_design, write_site
    from pinup.designmd.model import DesignSystem
    from pinup.output import OutputWriter
    from pinup.site.render import STATIC_ASSETS, render_template, static_asset
    from pinup.theme import theme_css

    started = time.perf_counter()
    result = GalleryResult(brands=list_brands(root))
    cards = []
    with OutputWriter(out, clean=clean) as writer:
        for i, brand in enumerate(result.brands, start=1):
            report = lint_design(brand.path)
            write_site(report, writer.sub(brand.slug), fonts=fonts)
            result.errors[brand.slug] = report.summary.errors
            design = report.design
            swatches = [c.hex[:7] for n, c in design.colors.items() if not n.endswith("-dark")][:8]
            cards.append({"slug": brand.slug, "name": design.name or brand.name, "category": brand.category,
                          "description": design.description or "", "swatches": swatches,
                          "errors": report.summary.errors, "warnings": report.summary.warnings})
            if progress:
                progress(brand.slug, i, len(result.brands))
        writer.write_text("assets/theme.css", theme_css(DesignSystem(), fonts="system"))
        for name in STATIC_ASSETS:
            writer.write_bytes(f"assets/{name}", static_asset(name))
        writer.write_text("index.html", render_template("gallery.html", {"brands": cards}))
    result.written, result.skipped = writer.written, writer.skipped
    result.seconds = time.perf_counter() - started
    return result
