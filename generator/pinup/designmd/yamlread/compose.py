"""Compose CST documents into nodes, reporting the errors the `yaml` library's composer reports,
in the same order (YAML 1.2 core schema, default options: strict, unique keys)."""

from __future__ import annotations

import re

from pinup.designmd.yamlload import dup_identity, resolve_plain
from pinup.designmd.yamlread.cst import Token
from pinup.designmd.yamlread.errors import Errors, Problem, span
from pinup.designmd.yamlread.nodes import Document, Node
from pinup.designmd.yamlread.props import (
    Props,
    contains_newline,
    empty_scalar_position,
    resolve_end,
    resolve_props,
)
from pinup.designmd.yamlread.scalars import CodePointError, block_scalar_text, flow_scalar_text

_CORE = "tag:yaml.org,2002:"
#: the core schema's scalar tags that test the text: a tag applies when the text reads, by the core
#: schema's own rules, as a value of exactly its type (so `!!int true` stays a string)
_TESTED: dict[str, type] = {
    _CORE + "null": type(None),
    _CORE + "bool": bool,
    _CORE + "int": int,
    _CORE + "float": float,
}
#: what JavaScript's String.prototype.trim removes
_JS_SPACE = "\t\n\v\f\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_TAG_HANDLE = re.compile(r"(.*!)([^!]*)\Z", re.S)
_FLOW_BLOCK = "Block collections are not allowed within flow collections"
_START_COL = "All mapping items must start at the same column"


class Context:
    def __init__(self, tags: dict[str, str], errors: Errors) -> None:
        self.at_root = True
        self.tags = tags
        self.errors = errors

    def tag_name(self, source: str, token: Token) -> str | None:
        """Resolve a tag's handle (`!!int` -> tag:yaml.org,2002:int); None when it cannot be."""

        def fail(message: str) -> None:
            self.errors.add(token, "TAG_RESOLVE_FAILED", message)

        if source == "!":
            return "!"
        if source[:1] != "!":
            fail(f"Not a valid tag: {source}")
            return None
        if source[1:2] == "<":
            verbatim = source[2:-1]
            if verbatim in ("!", "!!"):
                fail(f"Verbatim tags aren't resolved, so {source} is invalid.")
                return None
            if source[-1] != ">":
                fail("Verbatim tags must end with a >")
            return verbatim
        match = _TAG_HANDLE.match(source)
        assert match is not None
        handle, suffix = match.group(1), match.group(2)
        if not suffix:
            fail(f"The {source} tag has no suffix")
        prefix = self.tags.get(handle)
        if prefix:
            from urllib.parse import unquote  # rare: only %TAG handles and `!!` tags get here

            try:
                return prefix + unquote(suffix, errors="strict")
            except UnicodeDecodeError:
                fail("URIError: URI malformed")
                return None
        if handle == "!":
            return source
        fail(f"Could not resolve tag: {source}")
        return None


def compose_node(ctx: Context, token: Token, props: Props) -> Node:
    errors = ctx.errors
    anchor, tag = props.anchor, props.tag
    node: Node | None = None
    kind = token.type
    if kind == "alias":
        node = _compose_alias(token, errors)
        if anchor is not None or tag is not None:
            errors.add(token, "ALIAS_PROPS", "An alias node must not specify any properties")
    elif kind in ("scalar", "single-quoted-scalar", "double-quoted-scalar", "block-scalar"):
        node = _compose_scalar(ctx, token, tag)
        if anchor is not None:
            node.anchor = anchor.source[1:]
    elif kind in ("block-map", "block-seq", "flow-collection"):
        try:
            node = _compose_collection(ctx, token, props)
            if anchor is not None:
                node.anchor = anchor.source[1:]
        except CodePointError as exc:
            errors.add(token, "RESOURCE_EXHAUSTION", str(exc))
    else:
        message = token.message if kind == "error" else f"Unsupported token (type: {kind})"
        errors.add(token, "UNEXPECTED_TOKEN", message)
    if node is None:
        node = compose_empty_node(ctx, token.offset, None, props)
    if anchor is not None and node.anchor == "":
        errors.add(anchor, "BAD_ALIAS", "Anchor cannot be an empty string")
    return node


def compose_empty_node(ctx: Context, offset: int, before: list[Token] | None, props: Props) -> Node:
    token = Token("scalar", empty_scalar_position(offset, before), -1, "")
    node = _compose_scalar(ctx, token, props.tag)
    if props.anchor is not None:
        node.anchor = props.anchor.source[1:]
        if node.anchor == "":
            ctx.errors.add(props.anchor, "BAD_ALIAS", "Anchor cannot be an empty string")
    if props.comment:
        node.end = props.end
    return node


def _compose_alias(token: Token, errors: Errors) -> Node:
    name = token.source[1:]
    if name == "":
        errors.add(token.offset, "BAD_ALIAS", "Alias cannot be an empty string")
    value_end = token.offset + len(token.source)
    end = resolve_end(token.end, value_end, True, errors)
    node = Node("alias", token.offset, value_end, end)
    node.name = name
    return node


def _compose_scalar(ctx: Context, token: Token, tag_token: Token | None) -> Node:
    errors = ctx.errors
    if token.type == "block-scalar":
        text, end = block_scalar_text(token, ctx.at_root, errors)
        node = Node("scalar", token.offset, end, end)
    else:
        text = flow_scalar_text(token, errors)
        value_end = token.offset + len(token.source)
        node = Node("scalar", token.offset, value_end, resolve_end(token.end, value_end, True, errors))
    tag_name = ctx.tag_name(tag_token.source, tag_token) if tag_token is not None else None
    if tag_name:
        node.value = _by_tag(text, tag_name)
    elif token.type == "scalar":
        node.value = resolve_plain(text)
    else:
        node.value = text
    return node


def _by_tag(text: str, tag_name: str) -> object:
    """A scalar with an explicit tag: a core tag applies when its test passes; any other tag
    leaves the text a string (the `yaml` library only warns)."""
    expected = _TESTED.get(tag_name)
    value = resolve_plain(text) if expected is not None else text
    return value if type(value) is expected else text


def _compose_collection(ctx: Context, token: Token, props: Props) -> Node:
    tag_token = props.tag
    if tag_token is not None:
        ctx.tag_name(tag_token.source, tag_token)  # only its errors matter: every tag reads as plain
    if token.type == "block-seq":
        anchor, nl = props.anchor, props.newline_after_prop
        last_prop = (
            (anchor if anchor.offset > tag_token.offset else tag_token)
            if anchor is not None and tag_token is not None
            else (anchor if anchor is not None else tag_token)
        )
        if last_prop is not None and (nl is None or nl.offset < last_prop.offset):
            ctx.errors.add(last_prop, "MISSING_CHAR", "Missing newline after block sequence props")
    if token.type == "block-map":
        return _block_map(ctx, token)
    if token.type == "block-seq":
        return _block_seq(ctx, token)
    return _flow_collection(ctx, token)


def _is_duplicate(seen: set[object], key: Node) -> bool:
    """The `yaml` library's uniqueness test: scalars with equal (===) values are the same key;
    any other key node is unique (only the very same node would equal it)."""
    if key.kind != "scalar":
        return False
    value = key.value
    if isinstance(value, float) and value != value:
        return False  # NaN equals nothing
    ident = dup_identity(value)
    if ident in seen:
        return True
    seen.add(ident)
    return False


def _block_map(ctx: Context, bm: Token) -> Node:
    errors = ctx.errors
    node = Node("map", bm.offset, 0, 0)
    seen: set[object] = set()
    ctx.at_root = False
    offset = bm.offset
    comment_end: int | None = None
    for item in bm.items:
        start, key, sep, value = item.start, item.key, item.sep, item.value
        key_props = resolve_props(
            start,
            indicator="explicit-key-ind",
            next_token=key if key is not None else (sep[0] if sep else None),
            offset=offset,
            errors=errors,
            parent_indent=bm.indent,
            start_on_newline=True,
        )
        implicit_key = key_props.found is None
        if implicit_key:
            if key is not None:
                if key.type == "block-seq":
                    errors.add(
                        offset, "BLOCK_AS_IMPLICIT_KEY", "A block sequence may not be used as an implicit map key"
                    )
                elif key.type != "document" and key.indent != bm.indent and _has_indent(key):
                    errors.add(offset, "BAD_INDENT", _START_COL)
            if key_props.anchor is None and key_props.tag is None and sep is None:
                comment_end = key_props.end
                continue
            if key_props.newline_after_prop is not None or contains_newline(key):
                target: Token | None = key if key is not None else (start[-1] if start else None)
                errors.add(
                    target if target is not None else offset,
                    "MULTILINE_IMPLICIT_KEY",
                    "Implicit keys need to be on a single line",
                )
        elif key_props.found is not None and key_props.found.indent != bm.indent:
            errors.add(offset, "BAD_INDENT", _START_COL)
        key_start = key_props.end
        key_node = (
            compose_node(ctx, key, key_props)
            if key is not None
            else compose_empty_node(ctx, key_start, start, key_props)
        )
        if _is_duplicate(seen, key_node):
            errors.add(key_start, "DUPLICATE_KEY", "Map keys must be unique")
        value_props = resolve_props(
            sep or [],
            indicator="map-value-ind",
            next_token=value,
            offset=key_node.end,
            errors=errors,
            parent_indent=bm.indent,
            start_on_newline=key is None or key.type == "block-scalar",
        )
        offset = value_props.end
        if value_props.found is not None:
            if implicit_key:
                if value is not None and value.type == "block-map" and not value_props.has_newline:
                    errors.add(offset, "BLOCK_AS_IMPLICIT_KEY", "Nested mappings are not allowed in compact mappings")
                if key_props.start < value_props.found.offset - 1024:
                    errors.add(
                        (key_node.start, key_node.value_end),
                        "KEY_OVER_1024_CHARS",
                        "The : indicator must be at most 1024 chars after the start of an implicit block mapping key",
                    )
            value_node = (
                compose_node(ctx, value, value_props)
                if value is not None
                else compose_empty_node(ctx, offset, sep, value_props)
            )
            offset = value_node.end
            node.pairs.append((key_node, value_node))
        else:
            if implicit_key:
                errors.add(
                    (key_node.start, key_node.value_end),
                    "MISSING_CHAR",
                    "Implicit map keys need to be followed by map values",
                )
            node.pairs.append((key_node, None))
    if comment_end is not None and comment_end and comment_end < offset:
        errors.add(comment_end, "IMPOSSIBLE", "Map comment with trailing content")
    node.value_end = offset
    node.end = comment_end if comment_end is not None else offset
    return node


def _has_indent(token: Token) -> bool:
    """Whether a CST node has an `indent` of its own (everything but an error token)."""
    return token.type != "error"


def _block_seq(ctx: Context, bs: Token) -> Node:
    errors = ctx.errors
    node = Node("seq", bs.offset, 0, 0)
    ctx.at_root = False
    offset = bs.offset
    comment_end: int | None = None
    for item in bs.items:
        start, value = item.start, item.value
        props = resolve_props(
            start,
            indicator="seq-item-ind",
            next_token=value,
            offset=offset,
            errors=errors,
            parent_indent=bs.indent,
            start_on_newline=True,
        )
        if props.found is None:
            if props.anchor is not None or props.tag is not None or value is not None:
                if value is not None and value.type == "block-seq":
                    errors.add(props.end, "BAD_INDENT", "All sequence items must start at the same column")
                else:
                    errors.add(offset, "MISSING_CHAR", "Sequence item without - indicator")
            else:
                comment_end = props.end
                continue
        child = (
            compose_node(ctx, value, props) if value is not None else compose_empty_node(ctx, props.end, start, props)
        )
        offset = child.end
        node.items.append(child)
    node.value_end = offset
    node.end = comment_end if comment_end is not None else offset
    return node


def _is_block(token: Token | None) -> bool:
    return token is not None and token.type in ("block-map", "block-seq")


def _flow_collection(ctx: Context, fc: Token) -> Node:
    errors = ctx.errors
    assert fc.open is not None and fc.end is not None
    is_map = fc.open.source == "{"
    name = "flow map" if is_map else "flow sequence"
    node = Node("map" if is_map else "seq", fc.offset, 0, 0)
    seen: set[object] = set()
    at_root = ctx.at_root
    ctx.at_root = False
    offset = fc.offset + len(fc.open.source)
    for i, item in enumerate(fc.items):
        start, key, sep, value = item.start, item.key, item.sep, item.value
        props = resolve_props(
            start,
            flow=name,
            indicator="explicit-key-ind",
            next_token=key if key is not None else (sep[0] if sep else None),
            offset=offset,
            errors=errors,
            parent_indent=fc.indent,
            start_on_newline=False,
        )
        if props.found is None:
            if props.anchor is None and props.tag is None and sep is None and value is None:
                if i == 0 and props.comma is not None:
                    errors.add(props.comma, "UNEXPECTED_TOKEN", f"Unexpected , in {name}")
                elif i < len(fc.items) - 1:
                    errors.add(props.start, "UNEXPECTED_TOKEN", f"Unexpected empty item in {name}")
                offset = props.end
                continue
            if not is_map and contains_newline(key):
                assert key is not None
                errors.add(
                    key, "MULTILINE_IMPLICIT_KEY", "Implicit keys of flow sequence pairs need to be on a single line"
                )
        if i == 0:
            if props.comma is not None:
                errors.add(props.comma, "UNEXPECTED_TOKEN", f"Unexpected , in {name}")
        elif props.comma is None:
            errors.add(props.start, "MISSING_CHAR", f"Missing , between {name} items")
        if not is_map and sep is None and props.found is None:
            child = (
                compose_node(ctx, value, props) if value is not None else compose_empty_node(ctx, props.end, sep, props)
            )
            node.items.append(child)
            offset = child.end
            if _is_block(value):
                errors.add((child.start, child.value_end), "BLOCK_IN_FLOW", _FLOW_BLOCK)
            continue
        key_start = props.end
        key_node = (
            compose_node(ctx, key, props) if key is not None else compose_empty_node(ctx, key_start, start, props)
        )
        if _is_block(key):
            errors.add((key_node.start, key_node.value_end), "BLOCK_IN_FLOW", _FLOW_BLOCK)
        value_props = resolve_props(
            sep or [],
            flow=name,
            indicator="map-value-ind",
            next_token=value,
            offset=key_node.end,
            errors=errors,
            parent_indent=fc.indent,
            start_on_newline=False,
        )
        if value_props.found is not None:
            if not is_map and props.found is None:
                for st in sep or []:
                    if st is value_props.found:
                        break
                    if st.type == "newline":
                        errors.add(
                            st,
                            "MULTILINE_IMPLICIT_KEY",
                            "Implicit keys of flow sequence pairs need to be on a single line",
                        )
                        break
                if props.start < value_props.found.offset - 1024:
                    errors.add(
                        value_props.found,
                        "KEY_OVER_1024_CHARS",
                        "The : indicator must be at most 1024 chars after the start of an implicit flow sequence key",
                    )
        elif value is not None:
            if value.type not in ("block-map", "block-seq", "flow-collection", "document") and value.source[:1] == ":":
                errors.add(value, "MISSING_CHAR", f"Missing space after : in {name}")
            else:
                errors.add(value_props.start, "MISSING_CHAR", f"Missing , or : between {name} items")
        value_node: Node | None
        if value is not None:
            value_node = compose_node(ctx, value, value_props)
        elif value_props.found is not None:
            value_node = compose_empty_node(ctx, value_props.end, sep, value_props)
        else:
            value_node = None
        if value_node is not None and _is_block(value):
            errors.add((value_node.start, value_node.value_end), "BLOCK_IN_FLOW", _FLOW_BLOCK)
        if is_map:
            if _is_duplicate(seen, key_node):
                errors.add(key_start, "DUPLICATE_KEY", "Map keys must be unique")
            node.pairs.append((key_node, value_node))
        else:
            last = value_node if value_node is not None else key_node
            pair_map = Node("map", key_node.start, last.value_end, last.end)
            pair_map.pairs.append((key_node, value_node))
            node.items.append(pair_map)
        offset = value_node.end if value_node is not None else value_props.end
    expected = "}" if is_map else "]"
    close = fc.end[0] if fc.end else None
    rest = fc.end[1:]
    close_end = offset
    if close is not None and close.source == expected:
        close_end = close.offset + len(close.source)
    else:
        title = name[0].upper() + name[1:]
        message = (
            f"{title} must end with a {expected}"
            if at_root
            else f"{title} in block collection must be sufficiently indented and end with a {expected}"
        )
        errors.add(offset, "MISSING_CHAR" if at_root else "BAD_INDENT", message)
        if close is not None and len(close.source) != 1:
            rest.insert(0, close)
    node.value_end = close_end
    node.end = resolve_end(rest, close_end, True, errors) if rest else close_end
    return node


def _compose_document(token: Token, tags: dict[str, str], errors: Errors) -> Document:
    ctx = Context(tags, errors)
    value = token.value
    props = resolve_props(
        token.start,
        indicator="doc-start",
        next_token=value if value is not None else (token.end[0] if token.end else None),
        offset=token.offset,
        errors=errors,
        parent_indent=0,
        start_on_newline=True,
    )
    doc_start = props.found is not None
    if doc_start and value is not None and value.type in ("block-map", "block-seq") and not props.has_newline:
        errors.add(props.end, "MISSING_CHAR", "Block collection cannot start on same line with directives-end marker")
    contents = (
        compose_node(ctx, value, props) if value is not None else compose_empty_node(ctx, props.end, token.start, props)
    )
    end = resolve_end(token.end, contents.end, False, errors)
    doc = Document(contents, token.offset, contents.end, end)
    doc.doc_start = doc_start
    return doc


class _Directives:
    def __init__(self) -> None:
        self.tags = {"!!": _CORE}

    def add(self, token: Token, errors: Errors) -> None:
        start, end = span(token)

        def fail(offset: int, message: str, warning: bool = False) -> None:
            errors.add((start + offset, end), "BAD_DIRECTIVE", message, warning)

        parts = re.split(r"[ \t]+", token.source.strip(_JS_SPACE))
        name, parts = parts[0], parts[1:]
        if name == "%TAG":
            if len(parts) != 2:
                fail(0, "%TAG directive should contain exactly two parts")
                if len(parts) < 2:
                    return
            self.tags[parts[0]] = parts[1]
        elif name == "%YAML":
            if len(parts) != 1:
                fail(0, "%YAML directive should contain exactly one part")
            elif parts[0] not in ("1.1", "1.2"):
                valid = re.fullmatch(r"\d+\.\d+", parts[0]) is not None
                fail(6, f"Unsupported YAML version {parts[0]}", valid)
        else:
            fail(0, f"Unknown directive {name}", True)


_MULTIPLE = "Source contains multiple documents; please use YAML.parseAllDocuments()"


class Composer:
    """Top-level CST tokens in, documents out, as the `yaml` library's Composer with `YAML.parse`'s
    rule on top: only the first document counts, and a second one is an error of the first.

    `YAML.parse` throws the first error of the first document, and errors are only ever appended,
    so once that first error exists (or a second document does) the outcome is `decided`: the
    caller may stop feeding tokens.
    """

    def __init__(self, source_length: int) -> None:
        self.source_length = source_length
        self.directives = _Directives()
        self.pending = Errors()  # errors for the next document (the library's `this.errors`)
        self.first: Document | None = None
        self.current: Document | None = None
        self.second: Document | None = None
        self.at_directives = False

    @property
    def decided(self) -> bool:
        if self.first is None:
            return bool(self.pending.items)  # they will lead the first document's errors, whatever follows
        return bool(self.first.errors) or self.second is not None

    def next(self, token: Token) -> None:
        kind = token.type
        pending = self.pending
        if kind == "directive":
            self.directives.add(token, pending)
            self.at_directives = True
        elif kind == "document":
            doc = _compose_document(token, self.directives.tags, pending)
            if self.at_directives and not doc.doc_start:
                pending.add(token, "MISSING_CHAR", "Missing directives-end/doc-start indicator line")
            doc.errors = pending.items
            self.pending = Errors()
            if self.first is None:
                self.first = doc
            elif self.second is None:
                self.second = doc
            self.current = doc
            self.at_directives = False
        elif kind in ("byte-order-mark", "space", "comment", "newline"):
            pass
        elif kind == "error":
            message = f"{token.message}: {_json_string(token.source)}" if token.source else token.message
            start, end = span(token)
            problem = Problem(start, end, "UNEXPECTED_TOKEN", message)
            if self.at_directives or self.current is None:
                pending.items.append(problem)
            else:
                self.current.errors.append(problem)
        elif kind == "doc-end":
            if self.current is None:
                start, end = span(token)
                message = "Unexpected doc-end without preceding document"
                pending.items.append(Problem(start, end, "UNEXPECTED_TOKEN", message))
                return
            resolve_end(token.end, token.offset + len(token.source), True, pending)
            self.current.errors.extend(pending.items)
            self.pending = Errors()
        else:
            start, end = span(token)
            pending.items.append(Problem(start, end, "UNEXPECTED_TOKEN", f"Unsupported token {kind}"))

    def outcome(self) -> tuple[Node | None, Problem | None]:
        """The first document's contents (None for an empty stream) and the error `YAML.parse` throws, if any."""
        first = self.first
        if first is None:
            if self.at_directives:
                self.pending.add(self.source_length, "MISSING_CHAR", "Missing directives-end indicator line")
            return None, self.pending.items[0] if self.pending.items else None
        if first.errors:
            return first.contents, first.errors[0]
        if self.second is None and self.pending.items:
            return first.contents, self.pending.items[0]  # left at the end: they join the last document
        if self.second is not None:
            return first.contents, Problem(self.second.start, self.second.value_end, "MULTIPLE_DOCS", _MULTIPLE)
        return first.contents, None


def _json_string(text: str) -> str:
    """JavaScript's JSON.stringify of a string (for the parser's error messages)."""
    import json  # rare: only a stray token gets here, and `pinup lint` starts without json

    return json.dumps(text, ensure_ascii=False)
