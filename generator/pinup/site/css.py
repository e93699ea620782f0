"""Turning token values into inline CSS without letting a DESIGN.md inject CSS or fetch URLs."""

from __future__ import annotations

import re
from typing import Any

from pinup.theme import font_stack

_SAFE_VALUE = re.compile(r"^[A-Za-z0-9 #%.,()+\-/*\"']*$")
_BANNED = ("url", "expression", "image", "attr", "var(")


def safe_value(value: Any) -> str | None:
    """A CSS value that can only paint (no `url()`, `;`, braces, escapes); None if unsafe."""
    text = css_text(value)
    if text is None:
        return None
    text = text.strip()
    if not text or len(text) > 200 or not _SAFE_VALUE.match(text) or any(b in text.lower() for b in _BANNED):
        return None
    return text


def css_text(value: Any) -> str | None:
    """A token value (Color, Dimension, number, string) as CSS text, or None."""
    if value is None:
        return None
    kind = getattr(value, "type", None)
    if kind == "color":
        return str(value.hex)
    if kind == "dimension":
        return str(value.css())
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
    decl: list[tuple[str, str]] = []
    if level.fontFamily:
        decl.append(("font-family", font_stack(level.fontFamily)))
    if level.fontSize is not None:
        decl.append(("font-size", level.fontSize.css()))
    if level.fontWeight is not None:
        from pinup.designmd.jsnum import js_number

        decl.append(("font-weight", js_number(level.fontWeight)))
    if level.lineHeight is not None:
        decl.append(("line-height", level.lineHeight.css()))
    if level.letterSpacing is not None:
        decl.append(("letter-spacing", level.letterSpacing.css()))
    for prop, value in (("font-feature-settings", level.fontFeature), ("font-variation-settings", level.fontVariation)):
        safe = safe_value(value)
        if safe:
            decl.append((prop, safe))
    return [(k, v) for k, v in decl if safe_value(v) is not None or k == "font-family"]


def style_attr(decl: list[tuple[str, str]]) -> str:
    return ";".join(f"{k}:{v}" for k, v in decl)
