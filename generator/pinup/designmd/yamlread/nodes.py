"""The composed document: scalars (already resolved to Python values), maps, sequences and aliases,
each with the `yaml` library's [start, value end, end] source range."""

from __future__ import annotations

from typing import Any


class Node:
    __slots__ = ("anchor", "end", "items", "kind", "name", "pairs", "start", "value", "value_end")

    def __init__(self, kind: str, start: int, value_end: int, end: int) -> None:
        self.kind = kind  # "scalar" | "map" | "seq" | "alias"
        self.start = start
        self.value_end = value_end
        self.end = end
        self.anchor: str | None = None
        self.value: Any = None  # a scalar's value
        self.name = ""  # an alias's anchor name
        self.items: list[Node] = []  # a sequence's items
        self.pairs: list[tuple[Node, Node | None]] = []  # a map's entries


class Document:
    __slots__ = ("contents", "doc_start", "end", "errors", "start", "value_end")

    def __init__(self, contents: Node, start: int, value_end: int, end: int) -> None:
        self.contents = contents
        self.start = start
        self.value_end = value_end
        self.end = end
        self.doc_start = False
        self.errors: list[Any] = []
