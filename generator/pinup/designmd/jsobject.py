"""The order in which JavaScript enumerates a plain object's keys, for byte-for-byte reference output.

Integer-like keys (canonical array indices below 2**32 - 1) come first, ascending; the rest keep
insertion order. The YAML loader, the parser and the JSON writer all need it, so it lives here once.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

_INDEX = re.compile(r"(?:0|[1-9][0-9]*)")
_DIGITS = frozenset("0123456789")


def is_int_like(key: str) -> bool:
    """True for keys JavaScript enumerates first (canonical array indices)."""
    return key[:1] in _DIGITS and len(key) <= 10 and bool(_INDEX.fullmatch(key)) and int(key) <= 4294967294


def js_order(keys: list[str]) -> list[str]:
    """Keys in JavaScript object enumeration order."""
    ints = [k for k in keys if is_int_like(k)]
    if not ints:
        return keys
    ints.sort(key=int)
    return ints + [k for k in keys if not is_int_like(k)]


def reorder(mapping: dict[str, Any]) -> None:
    """Put a freshly loaded mapping's keys in JavaScript order, in place (dict's own methods, so a
    subclass that records lines or duplicates sees no second insertion)."""
    order = js_order(list(mapping))
    if order != list(mapping):
        items = [(k, dict.__getitem__(mapping, k)) for k in order]
        dict.clear(mapping)
        for k, v in items:
            dict.__setitem__(mapping, k, v)


def js_items(mapping: dict[str, Any]) -> list[tuple[str, Any]]:
    """A plain JS object's (key, value) pairs in enumeration order."""
    for key in mapping:  # fast path: no key starts with a digit, so none is an index
        text = key if type(key) is str else str(key)
        if text[:1] in _DIGITS:
            break
    else:
        return list(mapping.items())
    index = sorted(((k, v) for k, v in mapping.items() if is_int_like(str(k))), key=lambda kv: int(kv[0]))
    return index + [(k, v) for k, v in mapping.items() if not is_int_like(str(k))]
