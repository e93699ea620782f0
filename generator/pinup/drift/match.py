"""Pair each hard-coded value with the token it equals or nearly equals, or with none.

Closeness, chosen so "nearly" means a person would not tell them apart:

- colours: the Euclidean distance in OKLab (ΔE_OK) of the 8-bit sRGB values, with the same alpha
  (within 0.01). Equal when the 8-bit values are the same; nearly equal up to `COLOR_NEAR` = 0.02,
  about one just-noticeable difference in OKLab.
- sizes (spacing, radii, font sizes): compared in CSS pixels, rem and em at 16px. Equal when the
  pixel values are the same; nearly equal within `PX_NEAR` = 1px.
- font families: the first family of the value against the first family of each typography token,
  case-insensitive; only equal or not.
"""

from __future__ import annotations

import math
import re

from pinup.designmd.colordiff import to_oklab
from pinup.designmd.colors import parse_css_color
from pinup.drift import scan
from pinup.drift.colorfn import parse_color_function
from pinup.drift.scan import Literal
from pinup.drift.tokens import Match, Token, TokenIndex, to_px

COLOR_NEAR = 0.02
PX_NEAR = 1.0
_ALPHA_SAME = 0.01
_NUMBER = re.compile(r"(-?[0-9.]+)([a-z]*)")

#: drift rule id -> (what it checks, for `--format sarif` and the docs)
RULES: dict[str, str] = {
    "drift-color": "Hard-coded colour — a colour literal in code (hex, rgb(), hsl(), hwb(), lab(), lch(), oklab(), "
    "oklch(), color(), color-mix() or a named colour) where a DESIGN.md colour token should be used.",
    "drift-spacing": "Hard-coded spacing — a px/rem/em margin, padding, gap or inset where a spacing token should be used.",
    "drift-radius": "Hard-coded radius — a px/rem/em border radius where a rounded token should be used.",
    "drift-font-size": "Hard-coded font size — a px/rem/em font size where a typography token should be used.",
    "drift-font-family": "Hard-coded font family — a font family named in code where a typography token should be used.",
}


def rule_of(literal: Literal) -> str:
    return f"drift-{literal.kind}"


def _nearest(key: float, tokens: list[Token]) -> Match:
    best: Token | None = None
    best_distance = math.inf
    for token in tokens:
        distance = abs(key - token.px)
        if distance < best_distance:
            best, best_distance = token, distance
    if best is None or best_distance > PX_NEAR:
        return Match("none")
    return Match("equal" if best_distance < 1e-9 else "near", best, best_distance)


def _color_match(literal: Literal, index: TokenIndex) -> Match | None:
    text = literal.text
    parsed = parse_color_function(text) if text[:6].lower() == "color(" else parse_css_color(text)
    if parsed is None:
        return None  # not a colour after all (`rgb(var(--x))`, `#0g`)
    lab, alpha = to_oklab(parsed), 1.0 if parsed.a is None else parsed.a
    best: Token | None = None
    best_distance = math.inf
    for token in index.colors:
        if abs(token.alpha - alpha) > _ALPHA_SAME:
            continue
        if token.value.lower() == parsed.hex:
            return Match("equal", token)
        distance = math.dist(lab, token.lab)
        if distance < best_distance:
            best, best_distance = token, distance
    if best is None or best_distance > COLOR_NEAR:
        return Match("none")
    return Match("near", best, best_distance)


def match(literal: Literal, index: TokenIndex) -> Match | None:
    """The literal's match, or None when it is no value after all (then it is not drift).

    Remembered per index: a codebase repeats the same few values thousands of times."""
    key = (literal.kind, literal.text)
    memo = index.matches
    if key in memo:
        return memo[key]
    found = memo[key] = _match(literal, index)
    return found


def _match(literal: Literal, index: TokenIndex) -> Match | None:
    if literal.kind == scan.COLOR:
        return _color_match(literal, index)
    if literal.kind == scan.FONT_FAMILY:
        name = literal.text.lower()
        for token in index.families:
            if token.family == name:
                return Match("equal", token)
        return Match("none")
    number = _NUMBER.fullmatch(literal.text)
    if number is None:
        return None
    try:
        px = to_px(float(number.group(1)), number.group(2))
    except ValueError:
        return None
    tokens = {scan.SPACING: index.spacing, scan.RADIUS: index.radii, scan.FONT_SIZE: index.font_sizes}[literal.kind]
    return _nearest(px, tokens)
