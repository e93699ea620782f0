"""Colour-vision deficiency simulation: what a colour looks like with protanopia, deuteranopia or tritanopia.

The matrices are Machado, Oliveira and Fernandes (2009), "A Physiologically-based Model for
Simulation of Color Vision Deficiency" (IEEE TVCG 15(6)), severity 1.0, applied to linear sRGB.
"""

from __future__ import annotations

from pinup.designmd.colors import CssColor, _to8

#: deficiency -> 3x3 matrix on linear RGB
MACHADO_2009: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def _linear(channel: int) -> float:
    value = channel / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def simulate(color: CssColor, deficiency: str) -> CssColor:
    """The colour as seen with `deficiency` (a key of MACHADO_2009), as 8-bit sRGB."""
    linear = (_linear(color.r), _linear(color.g), _linear(color.b))
    r, g, b = (_to8(sum(m * v for m, v in zip(row, linear, strict=True))) for row in MACHADO_2009[deficiency])
    return CssColor(r, g, b, color.a)
