"""`JSON.stringify(value, null, 2)` and `JSON.stringify(value)` in Python, as the reference prints them.

The indented form is what JSON exports write, the compact one is what `diff` compares tokens by.

Python's json module prints `16.0` and `1e-07` where JavaScript prints `16` and
`1e-7`, and cannot encode lone surrogates as UTF-8; this writer fixes both.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

from pinup.designmd.jsnum import js_number
from pinup.designmd.jsobject import js_items
from pinup.designmd.memo import remember

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


def _write(value: Any, indent: str, step: str, out: list[str], default: Callable[[Any], Any] | None) -> None:
    """Append `value`; `step` is the indent per level ("" for the compact form, which has no newlines)."""
    # most frequent types first; bool before int (bool is an int)
    if isinstance(value, str):
        out.append(_string(value))
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner, newline = (indent + step, "\n") if step else ("", "")
        colon = ": " if step else ":"
        out.append("{" + newline)
        first = True
        for key, item in js_items(value):
            if first:
                first = False
            else:
                out.append("," + newline)
            out.append(f"{inner}{_string(key if type(key) is str else str(key))}{colon}")
            _write(item, inner, step, out, default)
        out.append(f"{newline}{indent}}}")
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
        inner, newline = (indent + step, "\n") if step else ("", "")
        out.append("[" + newline)
        first = True
        for item in value:
            if first:
                first = False
            else:
                out.append("," + newline)
            out.append(inner)
            _write(item, inner, step, out, default)
        out.append(f"{newline}{indent}]")
    elif default is not None:
        _write(default(value), indent, step, out, None)
    else:
        raise TypeError(f"cannot serialise {type(value).__name__}")


def stringify(value: Any, *, remember: bool = False) -> str:
    """Two-space indented JSON with JavaScript number formatting (no trailing newline).

    `remember`: objects and arrays are written once per distinct value in this process (see
    `_MEMBERS`), and a large object that changed is put together from its members' texts, so an
    export after a token edit writes only the tokens that changed.
    """
    if not remember or type(value) is not dict or not value:
        out: list[str] = []
        _write(value, "", "  ", out, None)
        return "".join(out)
    return _object(value, "")


#: the text of an object or array by its indent and `repr`, for the life of the process: `repr` is
#: exact for JSON data (it tells 1 from 1.0 and True, "1" from 1, and keeps the key order).
#: Bounded: the last `_MEMBERS_KEPT` values, each up to `_MEMBER_KEPT_CHARS` of repr.
_MEMBERS: dict[tuple[int, str], str] = {}
_MEMBERS_KEPT = 2048
_MEMBER_KEPT_CHARS = 8 * 1024
#: an object with more members than this (a group of tokens) is put together from its members'
#: texts every time, never looked up whole: its `repr` would cost as much as its members' again
_SPLIT_MEMBERS = 8


def _object(value: dict[Any, Any], indent: str) -> str:
    """A non-empty object at `indent`, each member's value through `_member`.

    An object with more members than `_MEMBERS` keeps is written without it: each pass over it
    would drop its own first members before the next pass reached them, so every lookup would
    miss and the memo would only add a `repr` of each member."""
    inner = indent + "  "
    if len(value) > _MEMBERS_KEPT:
        out: list[str] = []
        _write(value, indent, "  ", out, None)
        return "".join(out)
    parts = [
        f"{inner}{_string(key if type(key) is str else str(key))}: {_member(item, inner)}"
        for key, item in js_items(value)
    ]
    return "{\n" + ",\n".join(parts) + f"\n{indent}}}"


def _member(item: Any, indent: str) -> str:
    """`item` written as a member's value at `indent`, from `_MEMBERS` when it was written before."""
    kind = type(item)
    if (kind is not dict and kind is not list) or not item:
        out: list[str] = []
        _write(item, indent, "  ", out, None)
        return "".join(out)
    if kind is dict and len(item) > _SPLIT_MEMBERS:
        return _object(item, indent)
    key = (len(indent), repr(item))
    text = _MEMBERS.get(key)
    if text is None:
        out = []
        _write(item, indent, "  ", out, None)
        text = "".join(out)
        if len(key[1]) <= _MEMBER_KEPT_CHARS:
            remember(_MEMBERS, key, text, _MEMBERS_KEPT)
    return text


def compact(value: Any, default: Callable[[Any], Any] | None = None) -> str:
    """`JSON.stringify(value)`: no spaces or newlines; `default` turns other objects into JSON values."""
    out: list[str] = []
    _write(value, "", "", out, default)
    return "".join(out)
