"""The concrete syntax tree the parser builds: source tokens, and the nodes made of them.

One `Token` class stands for every kind (the original uses loosely typed objects); `type` says
which fields matter: a `document` has `start`/`value`/`end`, a `block-map` or `block-seq` has
`items`, a `flow-collection` has `open`/`items`/`end`, a `block-scalar` has `props`, a scalar
or alias has `source` and maybe `end`, an `error` has `message`.
"""

from __future__ import annotations

from pinup.designmd.yamlread.lexer import BOM, DOCUMENT, FLOW_END, SCALAR

#: the lists a token of another kind never has; node kinds are always given lists of their own
_NONE: list[Token] = []
_NO_ITEMS: list[Item] = []


class Token:
    __slots__ = ("end", "indent", "items", "message", "offset", "open", "props", "source", "start", "type", "value")

    def __init__(self, type_: str, offset: int, indent: int = 0, source: str = "") -> None:
        self.type = type_
        self.offset = offset
        self.indent = indent
        self.source = source
        self.start = _NONE  # a document's properties
        self.value: Token | None = None
        self.end: list[Token] | None = None
        self.items = _NO_ITEMS  # a collection's entries
        self.props = _NONE  # a block scalar's header and what follows it
        self.open: Token | None = None
        self.message = ""


class Item:
    """One entry of a collection: what precedes its key, the key, the separator, the value."""

    __slots__ = ("explicit_key", "key", "sep", "start", "value")

    def __init__(
        self,
        start: list[Token],
        key: Token | None = None,
        sep: list[Token] | None = None,
        value: Token | None = None,
        explicit_key: bool = False,
    ) -> None:
        self.start = start
        self.key = key
        self.sep = sep
        self.value = value
        self.explicit_key = explicit_key


#: a lexical token's kind: by its whole text, else by its first character (no kind: not a token)
TYPE_BY_SOURCE = {
    BOM: "byte-order-mark",
    DOCUMENT: "doc-mode",
    FLOW_END: "flow-error-end",
    SCALAR: "scalar",
    "---": "doc-start",
    "...": "doc-end",
    "": "newline",
    "\n": "newline",
    "\r\n": "newline",
    "-": "seq-item-ind",
    "?": "explicit-key-ind",
    ":": "map-value-ind",
    "{": "flow-map-start",
    "}": "flow-map-end",
    "[": "flow-seq-start",
    "]": "flow-seq-end",
    ",": "comma",
}
TYPE_BY_FIRST = {
    " ": "space",
    "\t": "space",
    "#": "comment",
    "%": "directive-line",
    "*": "alias",
    "&": "anchor",
    "!": "tag",
    "'": "single-quoted-scalar",
    '"': "double-quoted-scalar",
    "|": "block-scalar-header",
    ">": "block-scalar-header",
}
