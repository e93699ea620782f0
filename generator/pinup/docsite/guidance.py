"""The Do's and Don'ts page: list items sorted into do and don't cards."""

from __future__ import annotations

import re
from typing import Any

from pinup.docsite.markdown import markdown_parser, parser_for
from pinup.docsite.models import GuidancePage
from pinup.docsite.sources import Sources
from pinup.prosememo import keep, recall

_DONT = re.compile(r"^\s*(don['’]?t|do not|never|avoid)\b", re.I)
_DO = re.compile(r"^\s*(do|always|prefer|use)\b", re.I)


def _mode_of(text: str) -> str | None:
    if _DONT.match(text):
        return "dont"
    if _DO.match(text):
        return "do"
    return None


def split_guidance(
    markdown: str, *, allow_html: bool = False, tokens: list[Any] | None = None
) -> tuple[list[str], list[str], list[str]]:
    """(dos, donts, other) as inline HTML.

    Handles the usual shapes: "Do:"/"Don't:" paragraphs or `###` headings before
    lists, and list items that start with "Do" / "Don't" / "Avoid" / "Never".
    `tokens` are the already parsed `markdown`, when the caller has them.
    """
    md = markdown_parser(allow_html)
    if tokens is None:
        tokens = parser_for(markdown, allow_html).parse(markdown)
    dos: list[str] = []
    donts: list[str] = []
    other: list[str] = []
    context: str | None = None
    depth = 0
    in_item = False
    for i, tok in enumerate(tokens):
        if tok.type == "list_item_open":
            depth += 1
            in_item = depth == 1
        elif tok.type == "list_item_close":
            depth -= 1
            in_item = False
        elif tok.type == "inline":
            parent = tokens[i - 1].type if i else ""
            if in_item and depth == 1 and parent == "paragraph_open":
                html = md.renderer.render(tok.children or [], md.options, {})
                mode = _mode_of(tok.content) or context
                (dos if mode == "do" else donts if mode == "dont" else other).append(html)
            elif depth == 0 and parent in ("paragraph_open", "heading_open"):
                head = tok.content.strip().rstrip(":").strip()
                mode = _mode_of(head)
                if mode and len(head) <= 40:
                    context = mode
                else:
                    other.append(md.renderer.render(tok.children or [], md.options, {}))
    return dos, donts, other


def build_guidance(src: Sources) -> GuidancePage:
    markdown = src.section_markdown("Do's and Don'ts")
    key = (src.allow_html, markdown)
    found = recall("guidance", key)
    if found is None:
        split = split_guidance(markdown, allow_html=src.allow_html, tokens=src.cache.tokens(markdown))
        found = keep("guidance", key, split)
    dos, donts, other = (list(part) for part in found)
    notes_html = "".join(f"<p>{h}</p>" for h in other)
    return GuidancePage(
        slug="guidelines",
        title="Do's and Don'ts",
        template="guidelines.html",
        prose_html="" if (dos or donts) else src.markdown(markdown),
        dos=dos,
        donts=donts,
        notes_html=notes_html if (dos or donts) else "",
    )


__all__ = ["build_guidance", "split_guidance"]
