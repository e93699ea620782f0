"""A structural check of a DTCG 2025.10 document, for the types pinup writes.

Why our own: no maintained Python validator for the 2025.10 format exists, and
the rules that matter to Style Dictionary and Terrazzo are few: every token
typed, legal names, colour objects, px/rem dimensions, complete typography,
aliases that resolve to a token of the same type.
"""

from __future__ import annotations

import math
import re
from typing import Any

TYPES = {
    "color",
    "dimension",
    "fontFamily",
    "fontWeight",
    "duration",
    "cubicBezier",
    "number",
    "strokeStyle",
    "border",
    "transition",
    "shadow",
    "gradient",
    "typography",
}
GROUP_KEYS = {"$type", "$description", "$extensions", "$deprecated", "$extends", "$schema"}
TOKEN_KEYS = {"$value", "$type", "$description", "$extensions", "$deprecated"}
COLOR_SPACES = {
    "srgb",
    "srgb-linear",
    "hsl",
    "hwb",
    "lab",
    "lch",
    "oklab",
    "oklch",
    "display-p3",
    "a98-rgb",
    "prophoto-rgb",
    "rec2020",
    "xyz-d65",
    "xyz-d50",
}
FONT_WEIGHT_NAMES = {
    "thin",
    "hairline",
    "extra-light",
    "ultra-light",
    "light",
    "normal",
    "regular",
    "book",
    "medium",
    "semi-bold",
    "demi-bold",
    "bold",
    "extra-bold",
    "ultra-bold",
    "black",
    "heavy",
    "extra-black",
    "ultra-black",
}
TYPOGRAPHY_KEYS = ("fontFamily", "fontSize", "fontWeight", "letterSpacing", "lineHeight")
_ALIAS = re.compile(r"\{([^{}]+)\}")


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


class _Validator:
    def __init__(self, doc: Any) -> None:
        self.doc = doc
        self.errors: list[str] = []
        self.tokens: dict[str, tuple[str | None, Any]] = {}  # dotted path -> (type, $value)

    def err(self, path: str, message: str) -> None:
        self.errors.append(f"{path or '<root>'}: {message}")

    def walk(self, node: Any, path: list[str], inherited: str | None) -> None:
        where = ".".join(path)
        if not isinstance(node, dict):
            self.err(where, "groups and tokens must be JSON objects")
            return
        if "$value" in node:
            self.token(node, path, inherited)
            return
        for key in node:
            if key.startswith("$") and key not in GROUP_KEYS:
                self.err(where, f"unknown group property {key!r}")
        if "$schema" in node and path:
            self.err(where, "$schema belongs at the root only")
        group_type = node.get("$type", inherited)
        if "$type" in node and node["$type"] not in TYPES:
            self.err(where, f"unknown $type {node['$type']!r}")
        for key, child in node.items():
            if key.startswith("$"):
                continue
            self.name(key, where)
            self.walk(child, [*path, key], group_type)

    def name(self, key: str, where: str) -> None:
        if not key or any(ch in key for ch in ".{}"):
            self.err(where, f"invalid name {key!r} (no '.', '{{', '}}' and not empty)")

    def token(self, node: dict[str, Any], path: list[str], inherited: str | None) -> None:
        where = ".".join(path)
        for key in node:
            if key not in TOKEN_KEYS:
                self.err(where, f"token has a child or unknown property {key!r}")
        kind = node.get("$type", inherited)
        if kind is None:
            self.err(where, "token has no $type (on itself or a parent group)")
        elif kind not in TYPES:
            self.err(where, f"unknown $type {kind!r}")
        self.tokens[where] = (kind, node["$value"])

    # -- values -----------------------------------------------------------------------------
    def value(self, where: str, kind: str | None, value: Any) -> None:
        if isinstance(value, str) and _ALIAS.fullmatch(value):
            self.alias(where, kind, value)
        elif kind == "color":
            self.color(where, value)
        elif kind == "dimension":
            self.dimension(where, value)
        elif kind == "typography":
            self.typography(where, value)
        elif kind == "fontFamily":
            self.font_family(where, value)
        elif kind == "fontWeight":
            self.font_weight(where, value)
        elif kind == "number" and not _is_number(value):
            self.err(where, "number token needs a finite number")

    def alias(self, where: str, kind: str | None, value: str) -> None:
        match = _ALIAS.fullmatch(value)
        assert match is not None  # every caller checked that `value` is an alias
        target = match.group(1)
        if target not in self.tokens:
            self.err(where, f"alias {value} points at no token")
        elif kind is not None and self.tokens[target][0] != kind:
            self.err(where, f"alias {value} is a {self.tokens[target][0]}, not a {kind}")

    def color(self, where: str, value: Any) -> None:
        if not isinstance(value, dict):
            self.err(where, "colour value must be an object {colorSpace, components, alpha?, hex?}")
            return
        extra = set(value) - {"colorSpace", "components", "alpha", "hex"}
        if extra:
            self.err(where, f"unknown colour members {sorted(extra)}")
        space = value.get("colorSpace")
        if space not in COLOR_SPACES:
            self.err(where, f"unknown colorSpace {space!r}")
        comps = value.get("components")
        if not isinstance(comps, list) or len(comps) != 3 or not all(_is_number(c) or c == "none" for c in comps):
            self.err(where, "components must be 3 numbers (or 'none')")
            comps = None
        elif space == "srgb" and not all(c == "none" or 0 <= c <= 1 for c in comps):
            self.err(where, "srgb components must lie in [0, 1]")
        alpha = value.get("alpha", 1)
        if not _is_number(alpha) or not 0 <= alpha <= 1:
            self.err(where, "alpha must be a number in [0, 1]")
        hexv = value.get("hex")
        if hexv is not None:
            if not isinstance(hexv, str) or not re.fullmatch(r"#[0-9a-fA-F]{6}", hexv):
                self.err(where, f"hex {hexv!r} must be 6-digit #rrggbb (alpha goes in 'alpha')")
            elif space == "srgb" and comps and all(c != "none" for c in comps):
                expect = "#" + "".join(f"{math.floor(c * 255 + 0.5):02x}" for c in comps)
                if expect != hexv.lower():
                    self.err(where, f"hex {hexv} does not match components ({expect})")

    def dimension(self, where: str, value: Any) -> None:
        if isinstance(value, str) and _ALIAS.fullmatch(value):
            self.alias(where, "dimension", value)
            return
        if not isinstance(value, dict) or set(value) != {"value", "unit"}:
            self.err(where, "dimension must be exactly {value, unit}")
            return
        if not _is_number(value["value"]):
            self.err(where, "dimension value must be a finite number")
        if value["unit"] not in ("px", "rem"):
            self.err(where, f"dimension unit {value['unit']!r} is not px or rem")

    def font_family(self, where: str, value: Any) -> None:
        if isinstance(value, str) and _ALIAS.fullmatch(value):
            self.alias(where, "fontFamily", value)
        elif isinstance(value, str):
            if not value.strip():
                self.err(where, "fontFamily is empty")
        elif not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
            self.err(where, "fontFamily must be a string or a non-empty array of strings")

    def font_weight(self, where: str, value: Any) -> None:
        if isinstance(value, str) and _ALIAS.fullmatch(value):
            self.alias(where, "fontWeight", value)
        elif isinstance(value, str):
            if value not in FONT_WEIGHT_NAMES:
                self.err(where, f"unknown fontWeight keyword {value!r}")
        elif not _is_number(value) or not 1 <= value <= 1000:
            self.err(where, "fontWeight must be a number in [1, 1000]")

    def typography(self, where: str, value: Any) -> None:
        if not isinstance(value, dict):
            self.err(where, "typography value must be an object")
            return
        for key in TYPOGRAPHY_KEYS:
            if key not in value:
                self.err(where, f"typography is missing {key}")
        extra = set(value) - set(TYPOGRAPHY_KEYS)
        if extra:
            self.err(where, f"unknown typography members {sorted(extra)}")
        if "fontFamily" in value:
            self.font_family(f"{where}.fontFamily", value["fontFamily"])
        if "fontWeight" in value:
            self.font_weight(f"{where}.fontWeight", value["fontWeight"])
        for key in ("fontSize", "letterSpacing"):
            if key in value:
                self.dimension(f"{where}.{key}", value[key])
        line = value.get("lineHeight", 1)
        if isinstance(line, str) and _ALIAS.fullmatch(line):
            self.alias(f"{where}.lineHeight", "number", line)
        elif not _is_number(line):
            self.err(f"{where}.lineHeight", "lineHeight must be a number (a ratio of the font size)")


def validate(doc: Any) -> list[str]:
    """Problems that make `doc` invalid DTCG 2025.10 (empty when it is valid)."""
    checker = _Validator(doc)
    checker.walk(doc, [], None)
    for where, (kind, value) in checker.tokens.items():
        checker.value(where, kind, value)
    return checker.errors
