"""Turning token values into inline CSS without letting a DESIGN.md inject CSS or fetch URLs."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from pinup.theme import font_stack

_SAFE_VALUE = re.compile(r"^[A-Za-z0-9 #%.,()+\-/*\"']*$")
_BANNED = re.compile(r"url|expression|image|attr|var\(", re.I)


def safe_value(value: Any) -> str | None:
    """A CSS value that can only paint (no `url()`, `;`, braces, escapes); None if unsafe."""
    text = css_text(value)
    if text is None:
        return None
    return _safe_text(text)


@lru_cache(maxsize=4096)
def _safe_text(text: str) -> str | None:
    text = text.strip()
    if not text or len(text) > 200 or not _SAFE_VALUE.match(text) or _BANNED.search(text):
        return None
    return text


@lru_cache(maxsize=4096)
def _dimension(value: float, unit: str) -> str:
    from pinup.designmd.jsnum import js_number

    return f"{js_number(value)}{unit}"


def css_text(value: Any) -> str | None:
    """A token value (Color, Dimension, number, string) as CSS text, or None."""
    if value is None:
        return None
    kind = getattr(value, "type", None)
    if kind == "color":
        return str(value.hex)
    if kind == "dimension":
        return _dimension(value.value, value.unit)
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        from pinup.designmd.jsnum import js_number

        return js_number(value)
    if isinstance(value, str):
        return value
    return None


def typography_declarations(level: Any) -> list[tuple[str, str]]:
    """CSS declarations for a Typography object (font stack with fallbacks)."""
    if level is None or getattr(level, "type", None) != "typography":
        return []

    def dim(d: Any) -> tuple[float, str] | None:
        return None if d is None else (d.value, d.unit)

    return list(
        _typography(
            level.fontFamily,
            dim(level.fontSize),
            level.fontWeight,
            dim(level.lineHeight),
            dim(level.letterSpacing),
            level.fontFeature,
            level.fontVariation,
        )
    )


@lru_cache(maxsize=1024)
def _typography(
    family: str | None,
    size: tuple[float, str] | None,
    weight: float | None,
    line_height: tuple[float, str] | None,
    spacing: tuple[float, str] | None,
    feature: str | None,
    variation: str | None,
) -> tuple[tuple[str, str], ...]:
    decl: list[tuple[str, str]] = []
    if family:
        decl.append(("font-family", font_stack(family)))
    if size is not None:
        decl.append(("font-size", _dimension(*size)))
    if weight is not None:
        from pinup.designmd.jsnum import js_number

        decl.append(("font-weight", js_number(weight)))
    if line_height is not None:
        decl.append(("line-height", _dimension(*line_height)))
    if spacing is not None:
        decl.append(("letter-spacing", _dimension(*spacing)))
    for prop, value in (("font-feature-settings", feature), ("font-variation-settings", variation)):
        safe = safe_value(value)
        if safe:
            decl.append((prop, safe))
    return tuple((k, v) for k, v in decl if k == "font-family" or _safe_text(v) is not None)


def style_attr(decl: list[tuple[str, str]]) -> str:
    return ";".join(f"{k}:{v}" for k, v in decl)
