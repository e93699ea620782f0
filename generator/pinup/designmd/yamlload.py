"""The values and messages of YAML as the reference's `yaml` 2.x library makes them (YAML 1.2 core schema).

Shared by the two readers (`yamlread`, a port of that library's pipeline, and `yamlsimple`, a line
reader for the plainest front matter): scalars resolve by the YAML 1.2 core rules (`yes` and `on`
stay strings, `0777` is 777, `<<` is an ordinary key), keys become JavaScript property names,
mappings enumerate keys in JavaScript object order (integer-like keys first), every mapping and
sequence remembers the 1-based source line of each of its entries, and errors are worded with
the library's ` at line L, column C:` excerpt.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from pinup.designmd.jsnum import js_number, js_parse_int

if TYPE_CHECKING:
    from typing import Any


class YDict(dict["Any", "Any"]):  # quoted: no `typing` import at run time
    """A mapping that remembers the source line of each key (and its own)."""

    __slots__ = ("key_lines", "line")

    def __init__(self) -> None:
        super().__init__()
        self.key_lines: dict[str, int] = {}
        self.line = 0


class YList(list["Any"]):  # quoted, as YDict
    """A sequence that remembers the source line of each item."""

    __slots__ = ("item_lines", "line")

    def __init__(self) -> None:
        super().__init__()
        self.item_lines: list[int] = []
        self.line = 0


class YamlError(Exception):
    """A YAML error with the message formatted like the reference's (`… at line L, column C:` + excerpt)."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line  # 1-based, relative to the block


_NULL = {"", "~", "null", "Null", "NULL"}
_TRUE = {"true", "True", "TRUE"}
_FALSE = {"false", "False", "FALSE"}
_INT = re.compile(r"^[-+]?[0-9]+\Z")
_OCT = re.compile(r"^0o[0-7]+\Z")
_HEX = re.compile(r"^0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)\Z")
_EXP = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+\Z")
_INF = re.compile(r"^[-+]?\.(?:inf|Inf|INF)\Z")
_NAN = re.compile(r"^\.(?:nan|NaN|NAN)\Z")


def resolve_plain(text: str) -> Any:
    """A plain scalar by the YAML 1.2 core schema."""
    if text in _NULL:
        return None
    first = text[0]
    if first in "tTfF":
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        return text
    if first in "0123456789+-.":
        if _INT.match(text):
            return js_parse_int(text)
        if _OCT.match(text):
            return js_parse_int(text[2:], 8)
        if _HEX.match(text):
            return js_parse_int(text[2:], 16)
        if _FLOAT.match(text) or _EXP.match(text):
            return float(text)
        if _INF.match(text):
            return -math.inf if text.startswith("-") else math.inf
        if _NAN.match(text):
            return math.nan
    return text


def js_string(value: Any) -> str:
    """JavaScript `String(value)` for YAML values (used for keys and in messages)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return js_number(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ",".join("" if v is None else js_string(v) for v in value)
    if isinstance(value, dict):
        return "[object Object]"
    return str(value)


def key_string(value: Any) -> str:
    """A mapping key as the `yaml` library turns it into a JavaScript property name."""
    if value is None:
        return ""
    if isinstance(value, list):
        return "[ " + ", ".join(key_string(v) for v in value) + " ]" if value else "[]"
    if isinstance(value, dict):
        inner = ", ".join(f"{key_string(k)}: {key_string(v)}" for k, v in value.items())
        return "{ " + inner + " }" if value else "{}"
    return js_string(value)


def dup_identity(value: Any) -> tuple[str, Any]:
    """What makes two keys the same key for the `yaml` library's uniqueness check."""
    if value is None:
        return ("null", None)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (int, float)):
        return ("num", float(value))
    if isinstance(value, str):
        return ("str", value)
    return ("obj", id(value))


def prettify(source: str, message: str, line: int, col: int, count: int, starts: list[int]) -> str:
    """Append ` at line L, column C:` and a code excerpt with a caret, as the `yaml` library does.

    Lines start where `starts` says: the `yaml` library's line counter, which counts the line
    breaks the parser meets (never a lone \\r).
    """
    message += f" at line {line}, column {col}"
    if line < 1 or line - 1 >= len(starts):
        return message
    ci = col - 1

    def text_of(number: int) -> str:
        begin = starts[number - 1]
        return source[begin : starts[number]] if number < len(starts) else source[begin:]

    line_str = text_of(line).rstrip("\n\r")
    if ci >= 60 and len(line_str) > 80:
        trim = min(ci - 39, len(line_str) - 79)
        line_str = "…" + line_str[trim:]
        ci -= trim - 1
    if len(line_str) > 80:
        line_str = line_str[:79] + "…"
    if line > 1 and re.fullmatch(r" *", line_str[:ci]):
        prev = text_of(line - 1)
        if len(prev) > 80:
            prev = prev[:79] + "…\n"
        line_str = prev + line_str
    if re.search(r"[^ ]", line_str):
        pointer = " " * ci + "^" * max(1, min(count, 80 - ci))
        message += f":\n\n{line_str}\n{pointer}\n"
    return message


#: The `yaml` library's default `maxAliasCount`: past it, a document is refused as an alias bomb.
MAX_ALIAS_COUNT = 100
ALIAS_BOMB_MESSAGE = "Excessive alias count indicates a resource exhaustion attack"


#: Flow collections nested deeper than this are refused before parsing (no DESIGN.md needs 10).
MAX_FLOW_DEPTH = 200
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def flow_too_deep(text: str) -> bool:
    """A cheap, conservative bracket count: parsers recurse per level, so refuse absurd depth
    up front instead of spending seconds before the recursion limit says the same."""
    if text.count("[") + text.count("{") <= MAX_FLOW_DEPTH:
        return False
    depth = 0
    for char in _NOT_BRACKET.sub("", text):  # only the brackets: a char-by-char loop over 256 KB was slow
        if char in "[{":
            depth += 1
            if depth > MAX_FLOW_DEPTH:
                return True
        elif depth:
            depth -= 1
    return False
