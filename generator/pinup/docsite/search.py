"""The offline search index: tokens, components and prose, as a small JS file pages load locally.

A `<script src>` (not `fetch`) so search also works from `file://`.
"""

from __future__ import annotations

import json
import re

from pinup.docsite.anchors import SECTION_PAGES, slugify
from pinup.docsite.models import (
    ColorsPage,
    ComponentsPage,
    ExtrasPage,
    Page,
    ScalePage,
    SearchEntry,
    TypographyPage,
)
from pinup.docsite.sources import Sources
from pinup.prosememo import keep, recall

_WS = re.compile(r"\s+")


def _prose_entries(src: Sources) -> list[SearchEntry]:
    """One entry per paragraph/list item of the prose, under its page and nearest heading anchor."""
    entries: list[SearchEntry] = []
    for section in src.design.sections:
        key = (src.allow_html, section.heading, section.canonical, section.body)
        found = recall("search", key)
        if found is None:
            found = _section_entries(src, section.heading, section.canonical, section.body)
            keep("search", key, found)
        entries.extend(SearchEntry(*fields) for fields in found)
    return entries


def _section_entries(
    src: Sources, heading: str, canonical: str | None, body: str
) -> list[tuple[str, str, str, str, str]]:
    """The fields of one section's entries: the section itself, then its paragraphs and list items."""
    page = SECTION_PAGES.get(canonical or "", "extras")
    anchor = "" if canonical else "section-" + slugify(heading)
    entries = [(heading, page, anchor, "section", "")]
    heading_anchor = anchor
    tokens = src.cache.tokens(body)
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and i + 1 < len(tokens):
            heading_anchor = "h-" + slugify(tokens[i + 1].content or "section")
        if tok.type != "inline" or not tok.content.strip():
            continue
        text = _WS.sub(" ", "".join(c.content for c in tok.children or [] if c.type in ("text", "code_inline")))
        if len(text) > 20:
            entries.append((heading, page, heading_anchor, "prose", text[:300]))
    return entries


def build_search(src: Sources, pages: list[Page]) -> list[SearchEntry]:
    entries: list[SearchEntry] = [SearchEntry(p.title, p.slug, "", "page", "") for p in pages]
    for page in pages:
        if isinstance(page, ColorsPage):
            for mode in page.modes:
                for sw in mode.swatches:
                    entries.append(
                        SearchEntry(
                            sw.name, "colors", sw.anchor, "color", " ".join(x for x in (sw.raw, sw.hex, sw.role) if x)
                        )
                    )
        elif isinstance(page, TypographyPage):
            for level in page.levels:
                entries.append(
                    SearchEntry(
                        level.name, "typography", level.anchor, "typography", " ".join(v for _, v in level.props)
                    )
                )
        elif isinstance(page, ScalePage):
            for step in page.steps:
                entries.append(SearchEntry(step.name, page.slug, step.anchor, page.kind, step.css))
        elif isinstance(page, ComponentsPage):
            for group in page.groups:
                for v in group.variants:
                    entries.append(
                        SearchEntry(
                            v.name, "components", v.anchor, "component", " ".join(f"{r.name} {r.raw}" for r in v.props)
                        )
                    )
        elif isinstance(page, ExtrasPage):
            for g in page.groups:
                entries.append(SearchEntry(g.name, "extras", g.anchor, "group", " ".join(r.key for r in g.rows)))
    entries.extend(_prose_entries(src))
    return entries


def search_index_js(entries: list[SearchEntry], hrefs: dict[str, str]) -> str:
    """`window.PINUP_SEARCH = [...]` with relative URLs; `<` escaped so it is inert in HTML."""
    data = [
        {
            "t": e.title,
            "u": hrefs.get(e.page, e.page + ".html") + (f"#{e.anchor}" if e.anchor else ""),
            "k": e.kind,
            "x": e.text,
        }
        for e in entries
    ]
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return f"window.PINUP_SEARCH={body};\n"
