"""The verify report: one static page beside the board, with its images, readable offline.

Side by side, an overlay with a slider, the diff picture, and a row per pin with both crops.
Every text that came from a person or a page (notes, selectors, the URL) is escaped by the
template engine; the page loads nothing but its own images.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pinup_feedback.atomicfile import replace_file

if TYPE_CHECKING:
    from pinup.verify.verdict import PinResult, Verdict

#: crops wider or taller than this are shown scaled down (the full page images stay full size)
CROP_MAX = (720, 540)
PAGE = "index.html"


@dataclass(slots=True, frozen=True)
class PinRow:
    """One pin as the report shows it."""

    n: int
    note: str
    severity: str
    selector: str
    status: str
    found: str
    moved: str
    share: str
    before: str
    after: str


def png(image: Any) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


def _found(result: PinResult) -> str:
    if result.in_implementation is None:
        return "marked area (no selector)"
    if not result.in_implementation:
        return "not found in the implementation"
    return "found" if result.in_variant else "found (not in the variant: placed by its box there)"


def _row(result: PinResult, before: str, after: str) -> PinRow:
    moved = f"{result.moved[0]:+d} px across, {result.moved[1]:+d} px down" if result.moved else ""
    return PinRow(
        n=result.pin.n,
        note=result.pin.note,
        severity=result.pin.severity or "",
        selector=result.pin.selector or "",
        status=result.status,
        found=_found(result),
        moved=moved,
        share=f"{result.differing_share:.1%}",
        before=before,
        after=after,
    )


def _crop(image: Any) -> bytes:
    small = image.copy()
    small.thumbnail(CROP_MAX)
    return png(small)


def write_report(verdict: Verdict, folder: Path) -> Path:
    """Write the report page and its images into `folder`; returns the page's path."""
    from pinup.templating import PACKAGE_TEMPLATES, environment

    folder.mkdir(parents=True, exist_ok=True)
    files: dict[str, bytes] = {
        "variant.png": png(verdict.variant_image),
        "implementation.png": png(verdict.image),
        "diff.png": png(verdict.diff.image),
    }
    rows = []
    for result in verdict.pins:
        before, after = f"pin-{result.pin.n}-variant.png", f"pin-{result.pin.n}-implementation.png"
        files[before], files[after] = _crop(result.variant_crop), _crop(result.crop)
        rows.append(_row(result, before, after))
    for stale in folder.glob("pin-*.png"):
        if stale.name not in files:
            stale.unlink()
    data = verdict.as_json()
    html = (
        environment("verify", str(PACKAGE_TEMPLATES / "verify"))
        .get_template("report.html.j2")
        .render(
            v=data,
            rows=rows,
            share=f"{verdict.diff.share:.2%}",
            threshold=f"{verdict.threshold:.2%}",
            ssim=f"{verdict.diff.ssim:.3f}",
            width=verdict.diff.width,
            height=verdict.diff.height,
        )
    )
    for name, content in files.items():
        replace_file(folder / name, content)
    page = folder / PAGE
    replace_file(page, html)
    return page
