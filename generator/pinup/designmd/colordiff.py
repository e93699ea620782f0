"""How far apart two colours look: OKLab coordinates and their Euclidean distance (ΔE_OK).

Shared by `pinup drift` (is a hard-coded colour nearly a token?) and the colour-vision check
(are two intended colours still apart once simulated?). OKLab is perceptually uniform enough that
a distance of about 0.02 is one just-noticeable difference.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


def to_oklab(color: Any) -> tuple[float, float, float]:
    """OKLab (L, a, b) of an object's 8-bit sRGB channels `r`, `g`, `b` (from `colors.to_oklch`)."""
    from pinup.designmd.colors import to_oklch

    lightness, chroma, hue = to_oklch(color)
    return lightness, chroma * math.cos(math.radians(hue)), chroma * math.sin(math.radians(hue))


def delta_e_ok(a: Any, b: Any) -> float:
    """ΔE_OK between two colours with 8-bit `r`, `g`, `b` channels (alpha ignored)."""
    return math.dist(to_oklab(a), to_oklab(b))
