"""`YAML.parse(text)` of the `yaml` library (2.8.3, default options) for one YAML block:
lexer -> parser -> composer -> values, throwing the first error as the library words it."""

from __future__ import annotations

import gc
import re
from bisect import bisect_left
from typing import Any

from pinup.designmd.yamlload import YamlError, flow_too_deep, prettify
from pinup.designmd.yamlread.compose import Composer
from pinup.designmd.yamlread.errors import Problem
from pinup.designmd.yamlread.lexer import Lexer
from pinup.designmd.yamlread.parser import Parser
from pinup.designmd.yamlread.scalars import CodePointError
from pinup.designmd.yamlread.values import Values

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")


def _to_utf16(text: str) -> str:
    """Astral characters as surrogate pairs, so that offsets count UTF-16 units like JavaScript's."""

    def pair(match: re.Match[str]) -> str:
        code = ord(match.group()) - 0x10000
        return chr(0xD800 + (code >> 10)) + chr(0xDC00 + (code & 0x3FF))

    return _ASTRAL.sub(pair, text)


def _from_utf16(text: str) -> str:
    def join(match: re.Match[str]) -> str:
        pair = match.group()
        high, low = pair[0], pair[1]
        return chr(0x10000 + ((ord(high) - 0xD800) << 10) + (ord(low) - 0xDC00))

    return _PAIR.sub(join, text)


class _Lines:
    """The `yaml` library's LineCounter: offset -> (line, column), both 1-based."""

    def __init__(self, starts: list[int]) -> None:
        self.starts = starts

    def pos(self, offset: int) -> tuple[int, int]:
        starts = self.starts
        low = bisect_left(starts, offset)
        if low < len(starts) and starts[low] == offset:
            return low + 1, 1
        if low == 0:
            return 0, offset
        return low, offset - starts[low - 1] + 1


def _error(source: str, problem: Problem, lines: _Lines) -> YamlError:
    line, col = lines.pos(problem.start)
    end_line, end_col = lines.pos(problem.end)
    count = end_col - col if end_line == line and end_col > col else 1
    return YamlError(prettify(source, problem.message, line, col, count, lines.starts), line)


def load_block(text: str, line_offset: int = 0) -> Any:
    """The value of one YAML block; lines in it are `line_offset` + the block's own 1-based line.

    Raises `YamlError` with the first error the `yaml` library would throw for the block.
    """
    if flow_too_deep(text):
        raise YamlError("YAML nesting is too deep", None)
    try:
        return _read(text, line_offset)
    except RecursionError:  # block nesting deep enough to reach Python's recursion limit
        raise YamlError("YAML nesting is too deep", None) from None


def _read(text: str, line_offset: int) -> Any:
    astral = _ASTRAL.search(text) is not None
    source = _to_utf16(text) if astral else text
    gc_was_enabled = gc.isenabled()
    gc.disable()  # many small objects, no cycles among them: the collector would only slow this down
    try:
        return _compose(source, astral, line_offset)
    finally:
        if gc_was_enabled:
            gc.enable()


def _compose(source: str, astral: bool, line_offset: int) -> Any:
    parser = Parser()
    composer = Composer(len(source))
    out = parser.out
    try:
        lexemes = Lexer(source).tokens()
        for lexeme in lexemes:
            parser.next(lexeme)
            if out:
                for token in out:
                    composer.next(token)
                out.clear()
                if composer.decided:
                    break
        else:
            parser.finish()
            for token in out:
                composer.next(token)
        contents, problem = composer.outcome()
        if problem is not None:
            # the excerpt needs where the error's line ends, as the library's line counter has it
            line = _Lines(parser.line_starts).pos(problem.start)[0]
            for lexeme in lexemes:
                if len(parser.line_starts) > line:
                    break
                parser.next(lexeme)
                out.clear()
    except CodePointError as exc:  # at the top level the library lets the RangeError escape
        raise YamlError(str(exc), None) from None
    lines = _Lines(parser.line_starts)
    if problem is not None:
        error = _error(source, problem, lines)
        if astral:
            error = YamlError(_from_utf16(error.message), error.line)
        raise error
    if contents is None:
        return None
    try:
        value = Values(contents, lambda offset: lines.pos(offset)[0], line_offset).build(contents)
    except YamlError as exc:  # an alias's error names the alias
        raise YamlError(_from_utf16(exc.message), exc.line) if astral else exc from None
    return _restore_astral(value, set()) if astral else value


def _restore_astral(value: Any, seen: set[int]) -> Any:
    """Strings back to Python's code points (keys and line maps included); a collection reached
    again through an alias is restored once."""
    if isinstance(value, str):
        return _from_utf16(value)
    if not isinstance(value, (list, dict)) or id(value) in seen:
        return value
    seen.add(id(value))
    if isinstance(value, list):
        for i, item in enumerate(value):
            value[i] = _restore_astral(item, seen)
        return value
    if isinstance(value, dict):
        items = [(_from_utf16(k), _restore_astral(v, seen)) for k, v in value.items()]
        lines = getattr(value, "key_lines", None)
        value.clear()
        value.update(items)
        if isinstance(lines, dict):
            restored = {_from_utf16(k): v for k, v in lines.items()}
            lines.clear()
            lines.update(restored)
        return value
    return value
