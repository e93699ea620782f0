"""A line-by-line reader for the plain YAML most DESIGN.md front matter is, without the full reader.

The full reader (`yamlread`, a port of the reference's `yaml` library) costs start-up and, being a
general state machine in Python, several times this reader's CPU per line, yet real front
matter is nested `key: value` mappings with plain or quoted one-line scalars (and a folded or
literal description). `load_simple` reads exactly that subset and gives the value `load_block`
would; anything else (sequences, flow collections, anchors, tags, escapes, duplicate keys, odd
characters or indentation, any error) is "not simple", and the caller uses `load_block`. A
differential test checks both agree wherever this one answers.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pinup.designmd.jsobject import reorder
from pinup.designmd.yamlload import YDict, YList, dup_identity, flow_too_deep, key_string, resolve_plain

if TYPE_CHECKING:
    from typing import Any

#: a plain (or quoted, without escapes) key directly followed by `:` and then a space or the end of the line
_KEY = re.compile(r"""( *)(?:([A-Za-z0-9_][A-Za-z0-9_.-]{0,200})|"([^"\\]{0,200})"|'([^']{0,200})'):(?: +|\Z)""")
_DOUBLE = re.compile(r'"([^"\\]*)"(?: +#.*| *)\Z')
_SINGLE = re.compile(r"'([^']*)'(?: +#.*| *)\Z")
_BLOCK = re.compile(r"([>|])(-?) *\Z")
#: a one-line flow sequence of quoted strings and plain words: `["#fff", "#000"]`, `[light, dark]`
_ITEM = r"\"([^\"\\]*)\"|'([^']*)'|([A-Za-z0-9_.+-][A-Za-z0-9_.%+-]*)"
_FLOW = rf"\[((?: *(?:{_ITEM})(?: *, *(?:{_ITEM}))*)? *)\](?: +#.*| *)\Z"  # compiled on first use
#: characters a YAML reader may take as something other than plain text (or reject); their blocks go the long way
_ASCII_ODD = re.compile("[^\n\x20-\x7e]")
_ODD_PATTERN = "[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010fffd]"
_NO_PLAIN_START = frozenset(",[]{}#&*!|>'\"%@`")
#: deeper than this, leave it to the full loader (which also words "too deep")
MAX_DEPTH = 64
NOT_SIMPLE = object()


def _plain(text: str) -> str | None:
    """A one-line plain scalar as the `yaml` library reads it (comment cut, spaces trimmed), or None if in doubt."""
    first = text[0]
    if first in _NO_PLAIN_START or (first in "-?:" and (len(text) == 1 or text[1] == " ")):
        return None
    comment = text.find(" #")
    if comment >= 0:
        text = text[:comment]
    text = text.rstrip(" ")
    if ": " in text or text.endswith(":"):
        return None
    return text


def _continuation(text: str) -> str | None:
    """A further line of a multi-line plain scalar (stripped), or None if in doubt."""
    text = text.strip(" ")
    if not text or text[0] in _NO_PLAIN_START or text[0] in "-?:" or " #" in text:
        return None
    if ": " in text or text.endswith(":"):
        return None
    return text


def _flow_sequence(text: str, number: int) -> Any:
    """A one-line flow sequence of scalars (as a `YList`), or `NOT_SIMPLE`."""
    match = re.match(_FLOW, text)
    if match is None:
        return NOT_SIMPLE
    out = YList()
    out.line = number
    for item in re.finditer(_ITEM, match.group(1)):
        double, single, plain = item.groups()
        out.append(resolve_plain(plain) if plain is not None else double if double is not None else single)
        out.item_lines.append(number)
    return out


def _block_scalar(lines: list[str], start: int, indent: int, style: str, strip: bool) -> tuple[Any, int]:
    """A `>`/`|` scalar whose lines all sit at one indentation and that a less indented line ends."""
    body: list[str] = []
    index = start
    width = -1
    while index < len(lines):
        line = lines[index]
        stripped = line.lstrip(" ")
        if not stripped:
            return NOT_SIMPLE, index  # blank lines fold or chomp in ways not worth repeating here
        own = len(line) - len(stripped)
        if width < 0:
            if own <= indent:
                return NOT_SIMPLE, index
            width = own
        if own < width:
            break
        if own > width:
            return NOT_SIMPLE, index  # a more-indented line keeps its break
        body.append(stripped)
        index += 1
    if not body or index >= len(lines):
        return NOT_SIMPLE, index  # empty, or it runs to the end, where its final line break is absent
    text = (" " if style == ">" else "\n").join(body)
    return (text if strip else text + "\n"), index


#: what `_read_line` found in each line read before: a line recurs from one version of a file to the next
#: (a rebuild after a one-token edit reads one new line), so only new lines are parsed
_LINES: dict[str, tuple[int, tuple[str, Any], str, str, int, Any]] = {}
_LINES_KEPT = 20_000
_LINE_KEPT_CHARS = 240
#: what follows a key: nothing (a nested block or null), a one-line scalar, a plain scalar that may
#: go on over the next lines (value: its first line and what that line alone resolves to), a flow
#: sequence or a block scalar (read where they occur: they hold line numbers or the next lines)
_EMPTY, _SCALAR_KIND, _PLAIN_KIND, _FLOW_KIND, _BLOCK_KIND = range(5)


def _read_line(line: str) -> tuple[int, tuple[str, Any], str, str, int, Any] | None:
    """A `key: value` line: its indentation, key identity and name, the text after the key, and
    what kind of value that is (with the value itself when the line alone gives it); None when
    the line is not simple."""
    match = _KEY.match(line)
    if match is None:
        return None
    plain_key, double_key, single_key = match.group(2, 3, 4)
    key_value = (
        resolve_plain(plain_key) if plain_key is not None else double_key if double_key is not None else single_key
    )
    rest = line[match.end() :]
    known = (len(match.group(1)), dup_identity(key_value), key_string(key_value), rest)
    if not rest or rest[0] == "#":
        return (*known, _EMPTY, None)
    first = rest[0]
    if first == '"' or first == "'":
        quoted = (_DOUBLE if first == '"' else _SINGLE).match(rest)
        return None if quoted is None else (*known, _SCALAR_KIND, quoted.group(1))
    if first == "[":
        return (*known, _FLOW_KIND, None)
    if first in ">|":
        return (*known, _BLOCK_KIND, None)
    plain = _plain(rest)
    return None if plain is None else (*known, _PLAIN_KIND, (plain, resolve_plain(plain)))


def load_simple(text: str, line_offset: int = 0) -> Any:
    """The block's value as `load_block` gives it (lines included), or `NOT_SIMPLE`."""
    odd = _ASCII_ODD if text.isascii() else re.compile(_ODD_PATTERN)  # compiled (and cached) only when needed
    if odd.search(text) or flow_too_deep(text):
        return NOT_SIMPLE
    lines = text.split("\n")
    root: YDict | None = None
    stack: list[tuple[int, YDict, set[tuple[str, Any]]]] = []
    pending: tuple[int, YDict, str] | None = None  # a key whose value is an indented block (or null)
    index = 0
    while index < len(lines):
        line = lines[index]
        stripped = line.lstrip(" ")
        if not stripped or stripped[0] == "#":
            index += 1
            continue
        known = _LINES.get(line)
        if known is None:
            known = _read_line(line)
            if known is None:
                return NOT_SIMPLE
            if len(line) <= _LINE_KEPT_CHARS:
                if len(_LINES) >= _LINES_KEPT:
                    _LINES.clear()
                _LINES[line] = known
        indent, ident, key, rest, kind, value = known
        number = index + 1 + line_offset
        if pending is not None:
            parent_indent, parent, parent_key = pending
            pending = None
            if indent > parent_indent:
                if len(stack) >= MAX_DEPTH:
                    return NOT_SIMPLE
                child = YDict()
                child.line = number
                dict.__setitem__(parent, parent_key, child)
                stack.append((indent, child, set()))
        if root is None:
            root = YDict()
            root.line = number
            stack.append((indent, root, set()))
        while stack and stack[-1][0] > indent:
            reorder(stack.pop()[1])
        if not stack or stack[-1][0] != indent:
            return NOT_SIMPLE  # an indentation between two levels: a YAML error
        _, mapping, seen = stack[-1]
        if ident in seen or key in mapping:
            return NOT_SIMPLE  # a duplicate: the full loader words the error
        seen.add(ident)
        mapping.key_lines[key] = number
        index += 1
        if kind == _EMPTY:
            mapping[key] = None
            pending = (indent, mapping, key)
            continue
        if kind == _FLOW_KIND:
            value = _flow_sequence(rest, number)
            if value is NOT_SIMPLE:
                return NOT_SIMPLE
        elif kind == _BLOCK_KIND:
            block = _BLOCK.match(rest)
            if block is None:
                return NOT_SIMPLE
            value, index = _block_scalar(lines, index, indent, block.group(1), block.group(2) == "-")
            if value is NOT_SIMPLE:
                return NOT_SIMPLE
        elif kind == _PLAIN_KIND:
            parts = [value[0]]
            # further lines of the same plain scalar: indented past the key, not keys themselves
            # (after a comment there are none: a more indented line is then an error)
            while (
                " #" not in rest
                and index < len(lines)
                and lines[index][:1] == " "
                and len(lines[index]) - len(lines[index].lstrip(" ")) > indent
            ):
                more = _continuation(lines[index])
                if more is None:
                    return NOT_SIMPLE
                parts.append(more)
                index += 1
            if len(parts) > 1:
                value = resolve_plain(" ".join(parts))
                if not isinstance(value, str):
                    return NOT_SIMPLE
            else:
                value = value[1]
        mapping[key] = value
    if root is None:
        return NOT_SIMPLE
    while stack:
        reorder(stack.pop()[1])
    return root
