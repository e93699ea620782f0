"""What one `pinup verify` found: the verdict and what became of each pin (for the CLI, MCP and report)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pinup.verify.approved import Approved, Pin
from pinup.verify.compare import PixelDiff
from pinup.verify.render import Rect, Viewport
from pinup.verify.target import Target


@dataclass(slots=True)
class PinResult:
    """What became of one pin in the implementation."""

    pin: Pin
    #: "changed" (its pixels differ from the variant's), "untouched" (they do not) or "missing"
    status: str
    #: whether the pin's selector finds an element: in the variant, in the implementation (None: no selector)
    in_variant: bool | None
    in_implementation: bool | None
    #: where the pinned region is in the variant's and in the implementation's render
    variant_rect: Rect
    rect: Rect
    differing_share: float
    #: how far the element moved (x, y in px), when the selector finds it in both and it moved
    moved: tuple[int, int] | None = None
    variant_crop: Any = None
    crop: Any = None

    def as_json(self) -> dict[str, Any]:
        return {
            "n": self.pin.n,
            "note": self.pin.note,
            "severity": self.pin.severity,
            "selector": self.pin.selector,
            "status": self.status,
            "inVariant": self.in_variant,
            "inImplementation": self.in_implementation,
            "moved": list(self.moved) if self.moved else None,
            "differingShare": round(self.differing_share, 6),
            "variantRegion": _rect_json(self.variant_rect),
            "region": _rect_json(self.rect),
        }


@dataclass(slots=True)
class Verdict:
    """Everything one `pinup verify` found, for the CLI, the MCP tool and the report."""

    approved: Approved
    target: Target
    viewport: Viewport
    diff: PixelDiff
    threshold: float
    variant_image: Any
    image: Any
    pins: list[PinResult] = field(default_factory=list)
    cut: bool = False
    report: Path | None = None

    @property
    def matches(self) -> bool:
        return self.diff.share <= self.threshold

    @property
    def exit_code(self) -> int:
        return 0 if self.matches else 1

    def as_json(self) -> dict[str, Any]:
        a = self.approved
        return {
            "verdict": "matches" if self.matches else "differs",
            "board": a.board,
            "round": a.round,
            "variant": a.variant,
            "label": a.label,
            "pickedBy": a.record_id,
            "implementation": self.target.name,
            "device": self.viewport.device,
            "viewport": {"width": self.viewport.width, "height": self.viewport.height},
            "compared": {"width": self.diff.width, "height": self.diff.height, "cut": self.cut},
            "differingPixels": self.diff.differing,
            "differingShare": round(self.diff.share, 6),
            "threshold": self.threshold,
            "ssim": round(self.diff.ssim, 4),
            "pins": [p.as_json() for p in self.pins],
            "report": str(self.report) if self.report else None,
        }

    def text(self) -> str:
        a = self.approved
        label = f" ({a.label})" if a.label else ""
        lines = [
            f"verify {a.board} round {a.round}, variant {a.variant}{label} against {self.target.name}",
            f"{self.viewport.device} {self.viewport.width}x{self.viewport.height}; compared "
            f"{self.diff.width}x{self.diff.height} px" + (" (cut at the page's first 6000 px)" if self.cut else ""),
            f"differing pixels: {self.diff.share:.2%} ({self.diff.differing:,}) · threshold {self.threshold:.2%}"
            f" · SSIM {self.diff.ssim:.3f}",
        ]
        for result in self.pins:
            moved = f", moved {result.moved[0]:+d},{result.moved[1]:+d} px" if result.moved else ""
            where = f" {result.pin.selector}" if result.pin.selector else " (marked area)"
            lines.append(f"pin #{result.pin.n} {result.status}{moved}:{where}")
        if self.report:
            lines.append(f"report: {self.report}")
        lines.append(f"verdict: {'matches' if self.matches else 'differs'}")
        return "\n".join(lines)


def _rect_json(rect: Rect) -> dict[str, int]:
    return {"x": rect.x, "y": rect.y, "w": rect.w, "h": rect.h}
