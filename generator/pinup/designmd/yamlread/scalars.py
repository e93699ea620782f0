"""The text of plain, quoted and block scalars, with the `yaml` library's errors about them."""

from __future__ import annotations

import re
from collections.abc import Callable

from pinup.designmd.yamlread.cst import Token
from pinup.designmd.yamlread.errors import Errors
from pinup.designmd.yamlread.props import COMMENT_SPACE

_FIRST = re.compile(r"(.*?)(?<![ \t])[ \t]*\r?\n", re.S)
_LINE = re.compile(r"[ \t]*+(.*?)(?:(?<![ \t])[ \t]*+)?\r?\n", re.S)
_LAST = re.compile(r"[ \t]*(.*)", re.S)
_HEX_DIGITS = re.compile(r"[0-9a-fA-F]+\Z")
_LINE_SPLIT = re.compile(r"\n( *)")

_ESCAPES = {
    "0": "\0",
    "a": "\x07",
    "b": "\b",
    "e": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "N": "\u0085",
    "_": "\u00a0",
    "L": "\u2028",
    "P": "\u2029",
    " ": " ",
    '"': '"',
    "/": "/",
    "\\": "\\",
    "\t": "\t",
}
_BAD_START = {
    "\t": "a tab character",
    ",": "flow indicator character ,",
    "%": "directive indicator character %",
    "|": "block scalar indicator |",
    ">": "block scalar indicator >",
    "@": "reserved character @",
    "`": "reserved character `",
}

Report = Callable[[int, str, str], None]


class CodePointError(Exception):
    """An escape past U+10FFFF: JavaScript's String.fromCodePoint throws a RangeError."""


def flow_scalar_text(token: Token, errors: Errors) -> str:
    """The value of a plain or quoted scalar token (errors point into it)."""
    offset, source = token.offset, token.source

    def report(rel: int, code: str, message: str) -> None:
        errors.add(offset + rel, code, message)

    if token.type == "scalar":
        bad = _BAD_START.get(source[:1])
        if bad:
            report(0, "BAD_SCALAR_START", f"Plain value cannot start with {bad}")
        return _fold_lines(source)
    if token.type == "single-quoted-scalar":
        if source[-1:] != "'" or len(source) == 1:
            report(len(source), "MISSING_CHAR", "Missing closing 'quote")
        return _fold_lines(source[1:-1]).replace("''", "'")
    return _double_quoted(source, report)


def _fold_lines(source: str) -> str:
    if "\n" not in source:
        return source  # one line: nothing to fold (the usual case)
    match = _FIRST.match(source)
    if match is None:
        return source
    parts = [match.group(1)]
    sep = " "
    pos = match.end()
    while (match := _LINE.match(source, pos)) is not None:
        text = match.group(1)
        if text == "":
            if sep == "\n":
                parts.append(sep)
            else:
                sep = "\n"
        else:
            parts.append(sep + text)
            sep = " "
        pos = match.end()
    last = _LAST.match(source, pos)
    return "".join(parts) + sep + (last.group(1) if last is not None else "")


def _double_quoted(source: str, report: Report) -> str:
    out: list[str] = []
    size = len(source)
    i = 1
    while i < size - 1:
        ch = source[i]
        if ch == "\r" and source[i + 1 : i + 2] == "\n":
            i += 1
            continue
        if ch == "\n":
            fold, i = _fold_newline(source, i)
            out.append(fold)
        elif ch == "\\":
            i += 1
            nxt = source[i] if i < size else ""
            code = _ESCAPES.get(nxt) if nxt else None
            if code:
                out.append(code)
            elif nxt == "\n":
                # an escaped line break is skipped, but the next line is still trimmed
                while source[i + 1 : i + 2] in (" ", "\t") and i + 1 < size:
                    i += 1
            elif nxt == "\r" and source[i + 1 : i + 2] == "\n":
                i += 1
                while source[i + 1 : i + 2] in (" ", "\t") and i + 1 < size:
                    i += 1
            elif nxt in ("x", "u", "U"):
                length = {"x": 2, "u": 4, "U": 8}[nxt]
                out.append(_char_code(source, i + 1, length, report))
                i += length
            else:
                raw = source[i - 1 : i + 1]
                report(i - 1, "BAD_DQ_ESCAPE", f"Invalid escape sequence {raw}")
                out.append(raw)
        elif ch in (" ", "\t"):
            # white space before a line break is dropped
            ws_start = i
            while source[i + 1 : i + 2] in (" ", "\t") and i + 1 < size:
                i += 1
            nxt = source[i + 1 : i + 2]
            if nxt != "\n" and not (nxt == "\r" and source[i + 2 : i + 3] == "\n"):
                out.append(source[ws_start : i + 1] if i > ws_start else ch)
        else:
            out.append(ch)
        i += 1
    if source[-1:] != '"' or size == 1:
        report(size, "MISSING_CHAR", 'Missing closing "quote')
    return "".join(out)


def _fold_newline(source: str, offset: int) -> tuple[str, int]:
    fold = ""
    ch = source[offset + 1 : offset + 2]
    while ch in (" ", "\t", "\n", "\r") and ch:
        if ch == "\r" and source[offset + 2 : offset + 3] != "\n":
            break
        if ch == "\n":
            fold += "\n"
        offset += 1
        ch = source[offset + 1 : offset + 2]
    return fold or " ", offset


def _char_code(source: str, offset: int, length: int, report: Report) -> str:
    digits = source[offset : offset + length]
    if len(digits) == length and _HEX_DIGITS.match(digits):
        code = int(digits, 16)
        if code <= 0x10FFFF:
            return chr(code)
        # String.fromCodePoint throws past U+10FFFF; the composer reports that as the tag's failure
        raise CodePointError(f"Invalid code point {code}")
    raw = source[offset - 2 : offset + length]
    report(offset - 2, "BAD_DQ_ESCAPE", f"Invalid escape sequence {raw}")
    return raw


class BlockHeader:
    __slots__ = ("chomp", "indent", "length", "mode")

    def __init__(self, mode: str, indent: int, chomp: str, length: int) -> None:
        self.mode = mode
        self.indent = indent
        self.chomp = chomp
        self.length = length


def _block_header(token: Token, errors: Errors) -> BlockHeader:
    source = token.props[0].source
    indent = 0
    chomp = ""
    error = -1
    for i in range(1, len(source)):
        ch = source[i]
        if not chomp and ch in ("-", "+"):
            chomp = ch
        else:
            n = _js_number(ch)
            if not indent and n:
                indent = n
            elif error == -1:
                error = token.offset + i
    if error != -1:
        errors.add(error, "UNEXPECTED_TOKEN", f"Block scalar header includes extra characters: {source}")
    has_space = False
    length = len(source)
    for prop in token.props[1:]:
        kind = prop.type
        if kind == "space":
            has_space = True
            length += len(prop.source)
        elif kind == "newline":
            length += len(prop.source)
        elif kind == "comment":
            if not has_space:
                errors.add(prop, "MISSING_CHAR", COMMENT_SPACE)
            length += len(prop.source)
        elif kind == "error":
            errors.add(prop, "UNEXPECTED_TOKEN", prop.message)
            length += len(prop.source)
        else:
            errors.add(prop, "UNEXPECTED_TOKEN", f"Unexpected token in block scalar header: {kind}")
            length += len(prop.source)
    return BlockHeader(source[0], indent, chomp, length)


def _js_number(ch: str) -> int:
    """JavaScript `Number(ch)` for one character, as a truthy int (0 for NaN and for zero)."""
    return int(ch) if ch in "123456789" and ch else 0


def block_scalar_text(token: Token, at_root: bool, errors: Errors) -> tuple[str, int]:
    """The value of a block scalar and the offset where it ends."""
    start = token.offset
    header = _block_header(token, errors)
    lines = _split_lines(token.source) if token.source else []
    chomp_start = len(lines)
    for i in range(len(lines) - 1, -1, -1):
        if lines[i][1] in ("", "\r"):
            chomp_start = i
        else:
            break
    if chomp_start == 0:
        value = "\n" * max(1, len(lines) - 1) if header.chomp == "+" and lines else ""
        return value, start + header.length + len(token.source)
    trim_indent = token.indent + header.indent
    offset = token.offset + header.length
    content_start = 0
    for i in range(chomp_start):
        indent, content = lines[i]
        if content in ("", "\r"):
            if header.indent == 0 and len(indent) > trim_indent:
                trim_indent = len(indent)
        else:
            if len(indent) < trim_indent:
                message = (
                    "Block scalars with more-indented leading empty lines must use an explicit indentation indicator"
                )
                errors.add(offset + len(indent), "MISSING_CHAR", message)
            if header.indent == 0:
                trim_indent = len(indent)
            content_start = i
            if trim_indent == 0 and not at_root:
                errors.add(offset, "BAD_INDENT", "Block scalar values in collections must be indented")
            break
        offset += len(indent) + len(content) + 1
    for i in range(len(lines) - 1, chomp_start - 1, -1):
        if len(lines[i][0]) > trim_indent:
            chomp_start = i + 1
    parts = [lines[i][0][trim_indent:] + "\n" for i in range(content_start)]
    sep = ""
    prev_more_indented = False
    folded = header.mode == ">"
    for i in range(content_start, chomp_start):
        indent, content = lines[i]
        offset += len(indent) + len(content) + 1
        crlf = content[-1:] == "\r"
        if crlf:
            content = content[:-1]
        if content and len(indent) < trim_indent:
            src = "explicit indentation indicator" if header.indent else "first line"
            message = f"Block scalar lines must not be less indented than their {src}"
            errors.add(offset - len(content) - (2 if crlf else 1), "BAD_INDENT", message)
            indent = ""
        if not folded:
            parts.append(sep + indent[trim_indent:] + content)
            sep = "\n"
        elif len(indent) > trim_indent or content[:1] == "\t":
            if sep == " ":
                sep = "\n"
            elif not prev_more_indented and sep == "\n":
                sep = "\n\n"
            parts.append(sep + indent[trim_indent:] + content)
            sep = "\n"
            prev_more_indented = True
        elif content == "":
            if sep == "\n":
                parts.append("\n")
            else:
                sep = "\n"
        else:
            parts.append(sep + content)
            sep = " "
            prev_more_indented = False
    value = "".join(parts)
    if header.chomp == "+":
        value += "".join("\n" + lines[i][0][trim_indent:] for i in range(chomp_start, len(lines)))
        if value[-1:] != "\n":
            value += "\n"
    elif header.chomp != "-":
        value += "\n"
    return value, start + header.length + len(token.source)


def _split_lines(source: str) -> list[tuple[str, str]]:
    split = _LINE_SPLIT.split(source)
    first = split[0]
    stripped = first.lstrip(" ")
    lines = [(first[: len(first) - len(stripped)], stripped)]
    lines.extend((split[i], split[i + 1]) for i in range(1, len(split), 2))
    return lines
