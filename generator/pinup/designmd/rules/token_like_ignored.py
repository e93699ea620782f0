"""token-like-ignored: an unknown top-level key whose value looks like a token map."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pinup.designmd.builder import Model, RawFinding
from pinup.designmd.dimensions import utf16_len

if TYPE_CHECKING:
    from typing import Any

_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})\Z")
_DIMENSION = re.compile(r"^-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)[a-zA-Z%]+\Z")
_TYPOGRAPHY = frozenset({"fontFamily", "fontSize", "fontWeight", "lineHeight", "letterSpacing"})


def token_like(value: Any, depth: int = 0) -> bool:
    """A typography property key, or a hex / dimension-looking string, anywhere in nested maps."""
    if not isinstance(value, dict) or depth > 200:
        return False
    for key, item in value.items():
        if key in _TYPOGRAPHY:
            return True
        if isinstance(item, str):
            if utf16_len(item) <= 64 and (_HEX.match(item) or _DIMENSION.match(item)):
                return True
        elif isinstance(item, dict) and token_like(item, depth + 1):
            return True
    return False


def check(model: Model) -> list[RawFinding]:
    """Warn for each unknown key whose value is a map with token-like content (ignored by exports)."""
    findings: list[RawFinding] = []
    for key in model.unknown_keys:
        if token_like(model.unknown_values.get(key)):
            findings.append(
                RawFinding(
                    "warning",
                    key,
                    f'"{key}" looks like a design-token map but is not a recognized schema key '
                    "(colors, typography, spacing, rounded, components). It will be silently ignored by export "
                    "commands. Rename it to a supported key or move its values under a recognized section.",
                )
            )
    return findings
