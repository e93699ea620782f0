"""CSS `color()` in the sRGB, linear-sRGB and Display P3 spaces, which the DESIGN.md colour parser leaves out.

Why here: the reference (and so `designmd.colors`) does not accept `color()` in tokens, but code does
use it; drift only needs the 8-bit sRGB value to compare with the tokens.
"""

from __future__ import annotations

from pinup.designmd import colors
from pinup.designmd.colors import CssColor

#: linear Display P3 to linear sRGB (CSS Color 4, both D65).
_P3_TO_SRGB = (
    (1.2249401762805598, -0.22494017628055996, 0.0),
    (-0.04205695470968816, 1.0420569547096881, 0.0),
    (-0.019637554590334432, -0.07863604555063188, 1.0982736001409663),
)


def _linear(value: float) -> float:
    sign = -1.0 if value < 0 else 1.0
    value = abs(value)
    return sign * (value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4)


def parse_color_function(text: str) -> CssColor | None:
    """`color(srgb 0.04 0.34 0.82)`, `color(display-p3 … / 50%)` and so on; None for other spaces."""
    parsed = colors._tokenize(text.lower())
    if parsed is None or parsed[0] != "color":
        return None
    args = parsed[1]
    if len(args) not in (4, 5):
        return None
    space, channels = args[0], [colors._pct(x, 1) for x in args[1:4]]
    alpha = colors._alpha(args[4]) if len(args) == 5 else 1.0
    if any(c != c for c in (*channels, alpha)):  # NaN: not a number
        return None
    if space == "srgb":
        rgb = [colors._clamp255(colors.js_round(c * 255)) for c in channels]
    elif space == "srgb-linear":
        rgb = [colors._to8(c) for c in channels]
    elif space == "display-p3":
        lin = [_linear(c) for c in channels]
        rgb = [colors._to8(sum(m * v for m, v in zip(row, lin, strict=True))) for row in _P3_TO_SRGB]
    else:
        return None
    return CssColor(rgb[0], rgb[1], rgb[2], max(0.0, min(1.0, alpha)))
