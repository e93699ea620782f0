"""Where the composer collects the `yaml` library's errors, with the span each one points at."""

from __future__ import annotations

from pinup.designmd.yamlread.cst import Token

#: CST nodes that carry no source text of their own: an error at one of them spans one character
_NO_SOURCE = frozenset(("document", "block-map", "block-seq", "flow-collection"))

ErrorSource = int | tuple[int, int] | Token


class Problem:
    """One error: its code, message and [start, end) offsets in the source."""

    __slots__ = ("code", "end", "message", "start")

    def __init__(self, start: int, end: int, code: str, message: str) -> None:
        self.start = start
        self.end = end
        self.code = code
        self.message = message


def span(source: ErrorSource) -> tuple[int, int]:
    """The [start, end) an error source stands for, as the `yaml` library measures it."""
    if isinstance(source, int):
        return source, source + 1
    if isinstance(source, tuple):
        return source
    length = 1 if source.type in _NO_SOURCE else len(source.source)
    return source.offset, source.offset + length


class Errors:
    """The errors of the document being composed, in the order they were found (warnings dropped:
    `YAML.parse` only prints them)."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, source: ErrorSource, code: str, message: str, warning: bool = False) -> None:
        if not warning:
            start, end = span(source)
            self.items.append(Problem(start, end, code, message))
