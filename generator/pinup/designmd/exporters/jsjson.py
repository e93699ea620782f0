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
from pinup.designmd.jsobject import js_items

_SURROGATE = re.compile("[\ud800-\udfff]")
#: `json.dumps(s, ensure_ascii=False)` without building an encoder per call (the C version when available)
_encode_string = json.encoder.encode_basestring
_MAX_SAFE = 2**53


def _string(value: str) -> str:
    text = _encode_string(value)
    if text.isascii():
        return text
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _number(value: float | int) -> str:
    if type(value) is int and -_MAX_SAFE < value < _MAX_SAFE:
        return str(value)
    if type(value) is float:
        magnitude = abs(value)
        if value.is_integer():
            if magnitude < _MAX_SAFE:
                return str(int(value))  # 16.0 -> "16", -0.0 -> "0"
        elif 1e-4 <= magnitude < 1e16:
            return repr(value)  # Python and JavaScript both print the shortest digits, unexponented here
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return "null"
    return js_number(value)


def _write(value: Any, indent: str, out: list[str]) -> None:
    # most frequent types first; bool before int (bool is an int)
    if isinstance(value, str):
        out.append(_string(value))
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = indent + "  "
        out.append("{\n")
        first = True
        for key, item in js_items(value):
            if first:
                first = False
            else:
                out.append(",\n")
            out.append(f"{inner}{_string(key if type(key) is str else str(key))}: ")
            _write(item, inner, out)
        out.append(f"\n{indent}}}")
    elif value is None:
        out.append("null")
    elif isinstance(value, bool):
        out.append("true" if value else "false")
    elif isinstance(value, (int, float)):
        out.append(_number(value))
    elif isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        inner = indent + "  "
        out.append("[\n")
        first = True
        for item in value:
            if first:
                first = False
            else:
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
