"""Build the `yaml` library's concrete syntax tree from the lexer's tokens.

A stack machine: the top of the stack is the node being built, each token either extends it,
starts a child, or closes it (popping it into its parent). Top-level results (documents,
directives, stray comments, errors) come out in order.
"""

from __future__ import annotations

from collections.abc import Callable

from pinup.designmd.yamlload import YamlError
from pinup.designmd.yamlread.cst import TYPE_BY_FIRST, TYPE_BY_SOURCE, Item, Token

#: open nodes at once past which a block is refused: no front matter nests this deep, and the
#: composer recurses per level (the library itself would overflow its stack somewhat deeper)
MAX_OPEN_NODES = 300

_TYPE_BY_SOURCE_GET = TYPE_BY_SOURCE.get
_TYPE_BY_FIRST_GET = TYPE_BY_FIRST.get
_FLOW_SCALARS = frozenset(("alias", "scalar", "single-quoted-scalar", "double-quoted-scalar"))
_KEY_PROP_STOPS = frozenset(("doc-start", "explicit-key-ind", "map-value-ind", "seq-item-ind", "newline"))


def _includes(tokens: list[Token], type_: str) -> bool:
    for t in tokens:  # a loop, not any() over a generator: called for most flow sequence items
        if t.type == type_:
            return True
    return False


def _first_non_empty(tokens: list[Token]) -> int:
    for i, t in enumerate(tokens):
        if t.type not in ("space", "comment", "newline"):
            return i
    return -1


def _is_flow_token(token: Token | None) -> bool:
    return token is not None and (token.type in _FLOW_SCALARS or token.type == "flow-collection")


def _prev_props(parent: Token) -> list[Token]:
    if parent.type == "document":
        return parent.start
    if parent.type == "block-map":
        it = parent.items[-1]
        return it.sep if it.sep is not None else it.start
    if parent.type == "block-seq":
        return parent.items[-1].start
    return []


def _first_key_start_props(prev: list[Token]) -> list[Token]:
    """Cut off (and return) the props at the end of `prev` that belong to a key starting now."""
    if not prev:
        return []
    i = len(prev) - 1
    while i >= 0 and prev[i].type not in _KEY_PROP_STOPS:
        i -= 1
    i += 1
    while i < len(prev) and prev[i].type == "space":
        i += 1
    cut = prev[i:]
    del prev[i:]
    return cut


def _fix_flow_seq_items(fc: Token) -> None:
    if fc.open is None or fc.open.type != "flow-seq-start":
        return
    for it in fc.items:
        if (
            it.sep is not None
            and it.value is None
            and not _includes(it.start, "explicit-key-ind")
            and not _includes(it.sep, "map-value-ind")
        ):
            if it.key is not None:
                it.value = it.key
            it.key = None
            if _is_flow_token(it.value):
                value = it.value
                assert value is not None
                if value.end is not None:
                    value.end.extend(it.sep)
                else:
                    value.end = it.sep
            else:
                it.start.extend(it.sep)
            it.sep = None


class Parser:
    """Feed it every lexical token with `next`, then `end`; read the results from `out`."""

    def __init__(self) -> None:
        self.at_new_line = True
        self.at_scalar = False
        self.indent = 0
        self.offset = 0
        self.on_key_line = False
        self.stack: list[Token] = []
        self.source = ""
        self.type = ""
        self.out: list[Token] = []
        self.line_starts = [0]  # where each line starts, as the `yaml` library's LineCounter sees them
        self.handlers: dict[str, Callable[[Token], None]] = {
            "block-map": self._block_map,
            "block-seq": self._block_sequence,
            "document": self._document,
            "flow-collection": self._flow_collection,
            "block-scalar": self._block_scalar,
            "doc-end": self._document_end,
            **dict.fromkeys(_FLOW_SCALARS, self._scalar),
        }

    def finish(self) -> None:
        """End of input: close every node still open."""
        while self.stack:
            self._pop()

    def next(self, source: str) -> None:
        self.source = source
        stack = self.stack
        if len(stack) > MAX_OPEN_NODES:
            raise YamlError("YAML nesting is too deep", None)
        if self.at_scalar:
            self.at_scalar = False
            handler = self.handlers.get(stack[-1].type) if stack else None
            if handler is not None:
                handler(stack[-1])
            else:
                self._step()
            self.offset += len(source)
            return
        type_ = _TYPE_BY_SOURCE_GET(source) or _TYPE_BY_FIRST_GET(source[:1])
        if type_ is None:
            error = Token("error", self.offset, source=source)
            error.message = f"Not a YAML token: {source}"
            self._pop(error)
            self.offset += len(source)
        elif type_ == "scalar":
            self.at_new_line = False
            self.at_scalar = True
            self.type = "scalar"
        else:
            self.type = type_
            # `_step`'s common case inline: the open node's handler takes the token
            handler = self.handlers.get(stack[-1].type) if stack and type_ != "doc-end" else None
            if handler is not None:
                handler(stack[-1])
            else:
                self._step()
            if type_ == "newline":
                self.at_new_line = True
                self.indent = 0
                self.line_starts.append(self.offset + len(source))
            elif type_ == "space":
                if self.at_new_line and source[0] == " ":
                    self.indent += len(source)
            elif type_ in ("explicit-key-ind", "map-value-ind", "seq-item-ind"):
                if self.at_new_line:
                    self.indent += len(source)
            elif type_ in ("doc-mode", "flow-error-end"):
                return
            else:
                self.at_new_line = False
            self.offset += len(source)

    # -- machinery ----------------------------------------------------------------------------

    def _error(self, message: str) -> Token:
        error = Token("error", self.offset, source=self.source)
        error.message = message
        return error

    def _step(self) -> None:
        stack = self.stack
        top = stack[-1] if stack else None
        if self.type == "doc-end" and (top is None or top.type != "doc-end"):
            while self.stack:
                self._pop()
            self.stack.append(Token("doc-end", self.offset, source=self.source))
            return
        if top is None:
            self._stream()
            return
        handler = self.handlers.get(top.type)
        if handler is not None:
            handler(top)
        else:
            self._pop()

    def _pop(self, error: Token | None = None) -> None:
        token = error if error is not None else (self.stack.pop() if self.stack else None)
        if token is None:
            self.out.append(self._error("Tried to pop an empty stack"))
            return
        if not self.stack:
            self.out.append(token)
            return
        top = self.stack[-1]
        if token.type == "block-scalar":
            token.indent = top.indent  # block scalars use their parent's indentation
        elif token.type == "flow-collection" and top.type == "document":
            token.indent = 0  # top-level flow collections ignore indentation
        if token.type == "flow-collection":
            _fix_flow_seq_items(token)
        kind = top.type
        if kind == "document":
            top.value = token
        elif kind == "block-scalar":
            top.props.append(token)  # an error
        elif kind == "block-map":
            it = top.items[-1]
            if it.value is not None:
                top.items.append(Item([], token, []))
                self.on_key_line = True
                return
            if it.sep is not None:
                it.value = token
            else:
                it.key, it.sep = token, []
                self.on_key_line = not it.explicit_key
                return
        elif kind == "block-seq":
            it = top.items[-1]
            if it.value is not None:
                top.items.append(Item([], value=token))
            else:
                it.value = token
        elif kind == "flow-collection":
            last = top.items[-1] if top.items else None
            if last is None or last.value is not None:
                top.items.append(Item([], token, []))
            elif last.sep is not None:
                last.value = token
            else:
                last.key, last.sep = token, []
            return
        else:
            self._pop()
            self._pop(token)
        if kind in ("document", "block-map", "block-seq") and token.type in ("block-map", "block-seq"):
            last_item = token.items[-1] if token.items else None
            if (
                last_item is not None
                and last_item.sep is None
                and last_item.value is None
                and last_item.start
                and _first_non_empty(last_item.start) == -1
                and (
                    token.indent == 0 or all(st.type != "comment" or st.indent < token.indent for st in last_item.start)
                )
            ):
                if kind == "document":
                    top.end = last_item.start
                else:
                    top.items.append(Item(last_item.start))
                token.items.pop()

    def _stream(self) -> None:
        kind = self.type
        if kind == "directive-line":
            self.out.append(Token("directive", self.offset, source=self.source))
        elif kind in ("byte-order-mark", "space", "comment", "newline"):
            self.out.append(Token(self.type, self.offset, self.indent, self.source))
        elif kind in ("doc-mode", "doc-start"):
            doc = Token("document", self.offset)
            doc.start = []
            if kind == "doc-start":
                doc.start.append(Token(self.type, self.offset, self.indent, self.source))
            self.stack.append(doc)
        else:
            self.out.append(self._error(f"Unexpected {kind} token in YAML stream"))

    def _document(self, doc: Token) -> None:
        if doc.value is not None:
            self._line_end(doc)
            return
        kind = self.type
        if kind == "doc-start":
            if _first_non_empty(doc.start) != -1:
                self._pop()
                self._step()
            else:
                doc.start.append(Token(self.type, self.offset, self.indent, self.source))
            return
        if kind in ("anchor", "tag", "space", "comment", "newline"):
            doc.start.append(Token(self.type, self.offset, self.indent, self.source))
            return
        bv = self._start_block_value(doc)
        if bv is not None:
            self.stack.append(bv)
        else:
            self.out.append(self._error(f"Unexpected {kind} token in YAML document"))

    def _scalar(self, scalar: Token) -> None:
        if self.type != "map-value-ind":
            self._line_end(scalar)
            return
        start = _first_key_start_props(_prev_props(self.stack[-2]))
        if scalar.end is not None:
            sep = scalar.end
            sep.append(Token(self.type, self.offset, self.indent, self.source))
            scalar.end = None
        else:
            sep = [Token(self.type, self.offset, self.indent, self.source)]
        block_map = Token("block-map", scalar.offset, scalar.indent)
        block_map.items = [Item(start, scalar, sep)]
        self.on_key_line = True
        self.stack[-1] = block_map

    def _block_scalar(self, scalar: Token) -> None:
        kind = self.type
        if kind in ("space", "comment", "newline"):
            scalar.props.append(Token(self.type, self.offset, self.indent, self.source))
        elif kind == "scalar":
            scalar.source = self.source
            self.at_new_line = True  # the content ends with its line break
            self.indent = 0
            self._count_lines()
            self._pop()
        else:
            self._pop()
            self._step()

    def _block_map(self, block_map: Token) -> None:
        it = block_map.items[-1]
        kind = self.type
        if kind == "newline":
            self.on_key_line = False
            if it.value is not None:
                end = it.value.end
                if end and end[-1].type == "comment":
                    end.append(Token(self.type, self.offset, self.indent, self.source))
                else:
                    block_map.items.append(Item([Token(self.type, self.offset, self.indent, self.source)]))
            elif it.sep is not None:
                it.sep.append(Token(self.type, self.offset, self.indent, self.source))
            else:
                it.start.append(Token(self.type, self.offset, self.indent, self.source))
            return
        if kind in ("space", "comment"):
            if it.value is not None:
                block_map.items.append(Item([Token(self.type, self.offset, self.indent, self.source)]))
            elif it.sep is not None:
                it.sep.append(Token(self.type, self.offset, self.indent, self.source))
            else:
                if self._at_indented_comment(it.start, block_map.indent):
                    prev = block_map.items[-2] if len(block_map.items) > 1 else None
                    end = prev.value.end if prev is not None and prev.value is not None else None
                    if end is not None:
                        end.extend(it.start)
                        end.append(Token(self.type, self.offset, self.indent, self.source))
                        block_map.items.pop()
                        return
                it.start.append(Token(self.type, self.offset, self.indent, self.source))
            return
        if self.indent >= block_map.indent:
            at_map_indent = not self.on_key_line and self.indent == block_map.indent
            at_next_item = at_map_indent and (it.sep is not None or it.explicit_key) and kind != "seq-item-ind"
            # for empty nodes, newline-separated tokens that are not indented go to the next node
            start: list[Token] = []
            if at_next_item and it.sep is not None and it.value is None:
                nl: list[int] = []
                for i, st in enumerate(it.sep):
                    if st.type == "newline":
                        nl.append(i)
                    elif st.type == "space":
                        pass
                    elif st.type == "comment":
                        if st.indent > block_map.indent:
                            nl.clear()
                    else:
                        nl.clear()
                if len(nl) >= 2:
                    start = it.sep[nl[1] :]
                    del it.sep[nl[1] :]
            if kind in ("anchor", "tag"):
                if at_next_item or it.value is not None:
                    start.append(Token(self.type, self.offset, self.indent, self.source))
                    block_map.items.append(Item(start))
                    self.on_key_line = True
                elif it.sep is not None:
                    it.sep.append(Token(self.type, self.offset, self.indent, self.source))
                else:
                    it.start.append(Token(self.type, self.offset, self.indent, self.source))
                return
            if kind == "explicit-key-ind":
                if it.sep is None and not it.explicit_key:
                    it.start.append(Token(self.type, self.offset, self.indent, self.source))
                    it.explicit_key = True
                elif at_next_item or it.value is not None:
                    start.append(Token(self.type, self.offset, self.indent, self.source))
                    block_map.items.append(Item(start, explicit_key=True))
                else:
                    self._push_map([Item([Token(self.type, self.offset, self.indent, self.source)], explicit_key=True)])
                self.on_key_line = True
                return
            if kind == "map-value-ind":
                self._map_value(block_map, it, start, at_next_item)
                self.on_key_line = True
                return
            if kind in _FLOW_SCALARS:
                fs = self._flow_scalar()
                if at_next_item or it.value is not None:
                    block_map.items.append(Item(start, fs, []))
                    self.on_key_line = True
                elif it.sep is not None:
                    self.stack.append(fs)
                else:
                    it.key, it.sep = fs, []
                    self.on_key_line = True
                return
            bv = self._start_block_value(block_map)
            if bv is not None:
                if bv.type == "block-seq":
                    if not it.explicit_key and it.sep is not None and not _includes(it.sep, "newline"):
                        self._pop(self._error("Unexpected block-seq-ind on same line with key"))
                        return
                elif at_map_indent:
                    block_map.items.append(Item(start))
                self.stack.append(bv)
                return
        self._pop()
        self._step()

    def _push_map(self, items: list[Item]) -> None:
        block_map = Token("block-map", self.offset, self.indent)
        block_map.items = items
        self.stack.append(block_map)

    def _map_value(self, block_map: Token, it: Item, start: list[Token], at_next_item: bool) -> None:
        here = Token(self.type, self.offset, self.indent, self.source)
        if it.explicit_key:
            if it.sep is None:
                if _includes(it.start, "newline"):
                    it.key, it.sep = None, [here]
                else:
                    self._push_map([Item(_first_key_start_props(it.start), None, [here])])
            elif it.value is not None:
                block_map.items.append(Item([], None, [here]))
            elif _includes(it.sep, "map-value-ind"):
                self._push_map([Item(start, None, [here])])
            elif _is_flow_token(it.key) and not _includes(it.sep, "newline"):
                key_start = _first_key_start_props(it.start)
                key, sep = it.key, it.sep
                sep.append(here)
                it.key, it.sep = None, None
                self._push_map([Item(key_start, key, sep)])
            elif start:
                it.sep = [*it.sep, *start, here]  # not actually at the next item
            else:
                it.sep.append(here)
        elif it.sep is None:
            it.key, it.sep = None, [here]
        elif it.value is not None or at_next_item:
            block_map.items.append(Item(start, None, [here]))
        elif _includes(it.sep, "map-value-ind"):
            self._push_map([Item([], None, [here])])
        else:
            it.sep.append(here)

    def _block_sequence(self, seq: Token) -> None:
        it = seq.items[-1]
        kind = self.type
        if kind == "newline":
            if it.value is not None:
                end = it.value.end
                if end and end[-1].type == "comment":
                    end.append(Token(self.type, self.offset, self.indent, self.source))
                else:
                    seq.items.append(Item([Token(self.type, self.offset, self.indent, self.source)]))
            else:
                it.start.append(Token(self.type, self.offset, self.indent, self.source))
            return
        if kind in ("space", "comment"):
            if it.value is not None:
                seq.items.append(Item([Token(self.type, self.offset, self.indent, self.source)]))
            else:
                if self._at_indented_comment(it.start, seq.indent):
                    prev = seq.items[-2] if len(seq.items) > 1 else None
                    end = prev.value.end if prev is not None and prev.value is not None else None
                    if end is not None:
                        end.extend(it.start)
                        end.append(Token(self.type, self.offset, self.indent, self.source))
                        seq.items.pop()
                        return
                it.start.append(Token(self.type, self.offset, self.indent, self.source))
            return
        if kind in ("anchor", "tag"):
            if not (it.value is not None or self.indent <= seq.indent):
                it.start.append(Token(self.type, self.offset, self.indent, self.source))
                return
        elif kind == "seq-item-ind":
            if self.indent == seq.indent:
                if it.value is not None or _includes(it.start, "seq-item-ind"):
                    seq.items.append(Item([Token(self.type, self.offset, self.indent, self.source)]))
                else:
                    it.start.append(Token(self.type, self.offset, self.indent, self.source))
                return
        if self.indent > seq.indent:
            bv = self._start_block_value(seq)
            if bv is not None:
                self.stack.append(bv)
                return
        self._pop()
        self._step()

    def _flow_collection(self, fc: Token) -> None:
        it = fc.items[-1] if fc.items else None
        kind = self.type
        assert fc.end is not None
        if kind == "flow-error-end":
            while True:
                self._pop()
                if not (self.stack and self.stack[-1].type == "flow-collection"):
                    break
            return
        if not fc.end:
            if kind in ("comma", "explicit-key-ind"):
                if it is None or it.sep is not None:
                    fc.items.append(Item([Token(self.type, self.offset, self.indent, self.source)]))
                else:
                    it.start.append(Token(self.type, self.offset, self.indent, self.source))
                return
            if kind == "map-value-ind":
                if it is None or it.value is not None:
                    fc.items.append(Item([], None, [Token(self.type, self.offset, self.indent, self.source)]))
                elif it.sep is not None:
                    it.sep.append(Token(self.type, self.offset, self.indent, self.source))
                else:
                    it.key, it.sep = None, [Token(self.type, self.offset, self.indent, self.source)]
                return
            if kind in ("space", "comment", "newline", "anchor", "tag"):
                if it is None or it.value is not None:
                    fc.items.append(Item([Token(self.type, self.offset, self.indent, self.source)]))
                elif it.sep is not None:
                    it.sep.append(Token(self.type, self.offset, self.indent, self.source))
                else:
                    it.start.append(Token(self.type, self.offset, self.indent, self.source))
                return
            if kind in _FLOW_SCALARS:
                fs = self._flow_scalar()
                if it is None or it.value is not None:
                    fc.items.append(Item([], fs, []))
                elif it.sep is not None:
                    self.stack.append(fs)
                else:
                    it.key, it.sep = fs, []
                return
            if kind in ("flow-map-end", "flow-seq-end"):
                fc.end.append(Token(self.type, self.offset, self.indent, self.source))
                return
            bv = self._start_block_value(fc)
            if bv is not None:
                self.stack.append(bv)
            else:
                self._pop()
                self._step()
            return
        parent = self.stack[-2]
        if parent.type == "block-map" and (
            (kind == "map-value-ind" and parent.indent == fc.indent)
            or (kind == "newline" and parent.items[-1].sep is None)
        ):
            self._pop()
            self._step()
        elif kind == "map-value-ind" and parent.type != "flow-collection":
            start = _first_key_start_props(_prev_props(parent))
            _fix_flow_seq_items(fc)
            sep = fc.end[1:]
            del fc.end[1:]
            sep.append(Token(self.type, self.offset, self.indent, self.source))
            block_map = Token("block-map", fc.offset, fc.indent)
            block_map.items = [Item(start, fc, sep)]
            self.on_key_line = True
            self.stack[-1] = block_map
        else:
            self._line_end(fc)

    def _flow_scalar(self) -> Token:
        self._count_lines()
        return Token(self.type, self.offset, self.indent, self.source)

    def _count_lines(self) -> None:
        """The line breaks inside the current token (only scalars that become nodes are counted)."""
        nl = self.source.find("\n")
        while nl != -1:
            self.line_starts.append(self.offset + nl + 1)
            nl = self.source.find("\n", nl + 1)

    def _start_block_value(self, parent: Token) -> Token | None:
        kind = self.type
        if kind in _FLOW_SCALARS:
            return self._flow_scalar()
        if kind == "block-scalar-header":
            token = Token("block-scalar", self.offset, self.indent)
            token.props = [Token(self.type, self.offset, self.indent, self.source)]
            return token
        if kind in ("flow-map-start", "flow-seq-start"):
            token = Token("flow-collection", self.offset, self.indent)
            token.open = Token(self.type, self.offset, self.indent, self.source)
            token.items = []
            token.end = []
            return token
        if kind == "seq-item-ind":
            token = Token("block-seq", self.offset, self.indent)
            token.items = [Item([Token(self.type, self.offset, self.indent, self.source)])]
            return token
        if kind == "explicit-key-ind":
            self.on_key_line = True
            start = _first_key_start_props(_prev_props(parent))
            start.append(Token(self.type, self.offset, self.indent, self.source))
            token = Token("block-map", self.offset, self.indent)
            token.items = [Item(start, explicit_key=True)]
            return token
        if kind == "map-value-ind":
            self.on_key_line = True
            start = _first_key_start_props(_prev_props(parent))
            token = Token("block-map", self.offset, self.indent)
            token.items = [Item(start, None, [Token(self.type, self.offset, self.indent, self.source)])]
            return token
        return None

    def _at_indented_comment(self, start: list[Token], indent: int) -> bool:
        if self.type != "comment" or self.indent <= indent:
            return False
        return all(st.type in ("newline", "space") for st in start)

    def _document_end(self, doc_end: Token) -> None:
        if self.type == "doc-mode":
            return
        if doc_end.end is not None:
            doc_end.end.append(Token(self.type, self.offset, self.indent, self.source))
        else:
            doc_end.end = [Token(self.type, self.offset, self.indent, self.source)]
        if self.type == "newline":
            self._pop()

    def _line_end(self, token: Token) -> None:
        kind = self.type
        if kind in ("comma", "doc-start", "doc-end", "flow-seq-end", "flow-map-end", "map-value-ind"):
            self._pop()
            self._step()
            return
        if kind == "newline":
            self.on_key_line = False
        if token.end is not None:
            token.end.append(Token(self.type, self.offset, self.indent, self.source))
        else:
            token.end = [Token(self.type, self.offset, self.indent, self.source)]
        if kind == "newline":
            self._pop()
