"""CSS dimensions (`16px`, `.875rem`) parsed the way the reference does."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pinup.designmd.jsnum import js_number

if TYPE_CHECKING:
    from typing import Any

#: every CSS unit the reference accepts in a dimension (case-sensitive).
CSS_UNITS = frozenset(
    "px cm mm in pt pc em rem ex ch cap ic lh rlh vh vw vmin vmax dvh dvw dvmin dvmax svh svw svmin svmax "
    "lvh lvw lvmin lvmax cqw cqh cqi cqb cqmin cqmax %".split()
)
#: units allowed in typography and rounded tokens.
STANDARD_UNITS = frozenset({"px", "rem", "em"})

# Digits, then an optional fraction: never `[0-9]*\.?[0-9]+`, whose two digit runs split a long
# number every possible way before failing (quadratic on `1000…0px` that is not a dimension).
_NUMBER = r"(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)"
_DIMENSION = re.compile(rf"^(-?{_NUMBER})([a-zA-Z%]+)\Z")
_UNITLESS = re.compile(rf"^{_NUMBER}\Z")
_REFERENCE = re.compile(r"^\{[a-zA-Z0-9._-]+\}\Z")


class Dim:
    """A number with a unit (unit '' for a unitless lineHeight)."""

    __slots__ = ("value", "unit", "raw")
    type = "dimension"

    def __init__(self, value: float, unit: str, raw: str | None = None) -> None:
        self.value = value
        self.unit = unit
        self.raw = raw

    def __repr__(self) -> str:
        return f"Dim({self.css()})"

    def css(self) -> str:
        """`String(value) + unit` with JavaScript number formatting."""
        return js_number(self.value) + self.unit

    def model_dict(self) -> dict[str, Any]:
        return {"type": "dimension", "value": self.value, "unit": self.unit}


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, as JavaScript counts it."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def parse_dimension(value: Any) -> Dim | None:
    """A parseable dimension: ≤ 64 UTF-16 units, ASCII number, a known CSS unit."""
    if not isinstance(value, str) or utf16_len(value) > 64:
        return None
    match = _DIMENSION.match(value)
    if not match or match.group(2) not in CSS_UNITS:
        return None
    number = float(match.group(1))
    return Dim(number, match.group(2), value)


def parse_unitless(value: str) -> Dim | None:
    """A bare number string (`1.5`) as a unitless dimension (lineHeight only)."""
    if _UNITLESS.match(value):
        return Dim(float(value), "", value)
    return None


def is_reference(value: Any) -> bool:
    """`{group.token}`: ASCII letters, digits, `.`, `_`, `-` between braces."""
    return isinstance(value, str) and value[:1] == "{" and bool(_REFERENCE.match(value))
