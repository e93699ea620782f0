"""`JSON.stringify(value, null, 2)` in Python, so JSON exports match the reference byte for byte.

Python's json module prints `16.0` and `1e-07` where JavaScript prints `16` and
`1e-7`, and cannot encode lone surrogates as UTF-8; this writer fixes both.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from pinup.designmd.jsnum import js_number

_SURROGATE = re.compile("[\ud800-\udfff]")
_INDEX = re.compile(r"(0|[1-9][0-9]*)")


def _is_index(key: str) -> bool:
    """A JS array index (canonical decimal below 2**32 - 1): such keys print first."""
    return bool(_INDEX.fullmatch(key)) and int(key) < 2**32 - 1


def js_items(mapping: dict[str, Any]) -> list[tuple[str, Any]]:
    """A plain JS object's key order: integer-like keys ascending, then the rest in insertion order."""
    index = sorted(((k, v) for k, v in mapping.items() if _is_index(str(k))), key=lambda kv: int(kv[0]))
    return index + [(k, v) for k, v in mapping.items() if not _is_index(str(k))]


def _string(value: str) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _number(value: float | int) -> str:
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return "null"
    return js_number(value)


def _write(value: Any, indent: str, out: list[str]) -> None:
    if value is None:
        out.append("null")
    elif isinstance(value, bool):
        out.append("true" if value else "false")
    elif isinstance(value, (int, float)):
        out.append(_number(value))
    elif isinstance(value, str):
        out.append(_string(value))
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = indent + "  "
        out.append("{\n")
        for i, (key, item) in enumerate(js_items(value)):
            if i:
                out.append(",\n")
            out.append(f"{inner}{_string(str(key))}: ")
            _write(item, inner, out)
        out.append(f"\n{indent}}}")
    elif isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        inner = indent + "  "
        out.append("[\n")
        for i, item in enumerate(value):
            if i:
                out.append(",\n")
            out.append(inner)
            _write(item, inner, out)
        out.append(f"\n{indent}]")
    else:
        raise TypeError(f"cannot serialise {type(value).__name__}")


def stringify(value: Any) -> str:
    """Two-space indented JSON with JavaScript number formatting (no trailing newline)."""
    out: list[str] = []
    _write(value, "", out)
    return "".join(out)
