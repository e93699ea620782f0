"""The properties before a node (anchor, tag, indicator, comments) and the tokens after one,
checked the way the `yaml` library's composer checks them."""

from __future__ import annotations

from pinup.designmd.yamlread.cst import Token
from pinup.designmd.yamlread.errors import Errors

COMMENT_SPACE = "Comments must be separated from other tokens by white space characters"
_PROP_SPACE = "Tags and anchors must be separated from the next token by white space"


class Props:
    __slots__ = (
        "anchor",
        "comma",
        "comment",
        "end",
        "found",
        "has_newline",
        "newline_after_prop",
        "start",
        "tag",
    )

    def __init__(self) -> None:
        self.comma: Token | None = None
        self.found: Token | None = None
        self.comment = ""
        self.has_newline = False
        self.anchor: Token | None = None
        self.tag: Token | None = None
        self.newline_after_prop: Token | None = None
        self.end = 0
        self.start = 0


def resolve_props(
    tokens: list[Token],
    *,
    indicator: str,
    next_token: Token | None,
    offset: int,
    errors: Errors,
    parent_indent: int,
    start_on_newline: bool,
    flow: str | None = None,
) -> Props:
    props = Props()
    if not tokens:  # nothing before the node: no check applies
        props.end = props.start = offset
        return props
    at_newline = start_on_newline
    has_space = start_on_newline
    comment_sep = ""
    req_space = False
    tab: Token | None = None
    start: int | None = None
    for token in tokens:
        kind = token.type
        if req_space:
            if kind not in ("space", "newline", "comma"):
                errors.add(token.offset, "MISSING_CHAR", _PROP_SPACE)
            req_space = False
        if tab is not None:
            if at_newline and kind not in ("comment", "newline"):
                errors.add(tab, "TAB_AS_INDENT", "Tabs are not allowed as indentation")
            tab = None
        if kind == "space":
            # at the document level a tab at line start may be leading white space, not indentation;
            # in a flow collection only the parser handles indentation
            if (
                not flow
                and (indicator != "doc-start" or next_token is None or next_token.type != "flow-collection")
                and "\t" in token.source
            ):
                tab = token
            has_space = True
        elif kind == "comment":
            if not has_space:
                errors.add(token, "MISSING_CHAR", COMMENT_SPACE)
            text = token.source[1:] or " "
            props.comment = text if not props.comment else props.comment + comment_sep + text
            comment_sep = ""
            at_newline = False
        elif kind == "newline":
            if at_newline:
                if props.comment:
                    props.comment += token.source
            else:
                comment_sep += token.source
            at_newline = True
            props.has_newline = True
            if props.anchor is not None or props.tag is not None:
                props.newline_after_prop = token
            has_space = True
        elif kind == "anchor":
            if props.anchor is not None:
                errors.add(token, "MULTIPLE_ANCHORS", "A node can have at most one anchor")
            props.anchor = token
            if start is None:
                start = token.offset
            at_newline = False
            has_space = False
            req_space = True
        elif kind == "tag":
            if props.tag is not None:
                errors.add(token, "MULTIPLE_TAGS", "A node can have at most one tag")
            props.tag = token
            if start is None:
                start = token.offset
            at_newline = False
            has_space = False
            req_space = True
        elif kind == indicator:
            if props.anchor is not None or props.tag is not None:
                errors.add(token, "BAD_PROP_ORDER", f"Anchors and tags must be after the {token.source} indicator")
            if props.found is not None:
                errors.add(token, "UNEXPECTED_TOKEN", f"Unexpected {token.source} in {flow or 'collection'}")
            props.found = token
            at_newline = indicator in ("seq-item-ind", "explicit-key-ind")
            has_space = False
        elif kind == "comma" and flow:
            if props.comma is not None:
                errors.add(token, "UNEXPECTED_TOKEN", f"Unexpected , in {flow}")
            props.comma = token
            at_newline = False
            has_space = False
        else:
            errors.add(token, "UNEXPECTED_TOKEN", f"Unexpected {kind} token")
            at_newline = False
            has_space = False
    last = tokens[-1] if tokens else None
    props.end = last.offset + len(last.source) if last is not None else offset
    if (
        req_space
        and next_token is not None
        and next_token.type not in ("space", "newline", "comma")
        and (next_token.type != "scalar" or next_token.source != "")
    ):
        errors.add(next_token.offset, "MISSING_CHAR", _PROP_SPACE)
    if tab is not None and (
        (at_newline and tab.indent <= parent_indent)
        or (next_token is not None and next_token.type in ("block-map", "block-seq"))
    ):
        errors.add(tab, "TAB_AS_INDENT", "Tabs are not allowed as indentation")
    props.start = start if start is not None else props.end
    return props


def resolve_end(end: list[Token] | None, offset: int, req_space: bool, errors: Errors) -> int:
    """Check the tokens after a node; the offset past them."""
    if end:
        has_space = False
        for token in end:
            kind = token.type
            if kind == "space":
                has_space = True
            elif kind == "comment":
                if req_space and not has_space:
                    errors.add(token, "MISSING_CHAR", COMMENT_SPACE)
            elif kind == "newline":
                has_space = True
            else:
                errors.add(token, "UNEXPECTED_TOKEN", f"Unexpected {kind} at node end")
            offset += len(token.source)
    return offset


def contains_newline(key: Token | None) -> bool:
    if key is None:
        return False
    if key.type in ("alias", "scalar", "double-quoted-scalar", "single-quoted-scalar"):
        if "\n" in key.source:
            return True
        return any(st.type == "newline" for st in key.end or ())
    if key.type == "flow-collection":
        for it in key.items:
            if any(st.type == "newline" for st in it.start):
                return True
            if it.sep is not None and any(st.type == "newline" for st in it.sep):
                return True
            if contains_newline(it.key) or contains_newline(it.value):
                return True
        return False
    return True


def empty_scalar_position(offset: int, before: list[Token] | None) -> int:
    """Where an empty node sits: after the last real token before it, and the spaces after that."""
    if before:
        i = len(before) - 1
        while i >= 0:
            st = before[i]
            if st.type in ("space", "comment", "newline"):
                offset -= len(st.source)
                i -= 1
                continue
            i += 1
            while i < len(before) and before[i].type == "space":
                offset += len(before[i].source)
                i += 1
            break
    return offset
