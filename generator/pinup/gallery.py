"""`pinup gallery`: one design-system site per bundled brand, plus an index page linking them all.

Uses the same site writer as `pinup build` (one OutputWriter for the whole
gallery, so a rebuild after one brand changes rewrites only that brand's files).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent


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


def brands_dir() -> Path:
    """brand_refs/ of a source checkout, or the copy packaged into the wheel."""
    for candidate in (ROOT.parent.parent / "brand_refs", ROOT / "_data" / "brand_refs"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("brand_refs not found")


def list_brands(root: Path | None = None) -> list[Brand]:
    """Every brand with a DESIGN.md, named and categorised by manifest.json when it has them."""
    root = root or brands_dir()
    meta: dict[str, dict[str, Any]] = {}
    manifest = root / "manifest.json"
    if manifest.is_file():
        data = json.loads(manifest.read_text("utf-8"))
        entries = data.get("brands", data) if isinstance(data, dict) else data
        if isinstance(entries, list):
            meta = {str(e.get("slug")): e for e in entries if isinstance(e, dict)}
    brands = []
    for folder in sorted(p for p in root.iterdir() if (p / "DESIGN.md").is_file()):
        info = meta.get(folder.name, {})
        brands.append(Brand(folder.name, str(info.get("name") or folder.name), str(info.get("category") or ""),
                            folder / "DESIGN.md"))
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
