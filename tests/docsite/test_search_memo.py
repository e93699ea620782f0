"""The search index's prose entries, remembered per section within a process, follow every edit.

`pinup serve` builds the page models again after each edit; the entries of a section whose heading,
canonical name and body did not change are reused (`search._SECTION_ENTRIES`). Each test builds one
version, then another, and compares with a build from an empty memo: a memo that answered for a
changed section, or for the other `--allow-html` setting, fails here.
"""

from __future__ import annotations

from pinup.designmd.lint import lint_text
from pinup.docsite import search
from pinup.docsite.models import SearchEntry
from pinup.docsite.pages import build_site_model

DOC = """---
name: Search memo
colors:
  primary: "{primary}"
---

## Overview

{overview}

## {heading}

A paragraph long enough to be indexed, with <b>inline markup</b> in it.
"""


def _doc(
    primary: str = "#112233", overview: str = "The overview paragraph, long enough to index.", heading: str = "Layout"
) -> str:
    return DOC.format(primary=primary, overview=overview, heading=heading)


def _prose(text: str, allow_html: bool = False) -> list[SearchEntry]:
    site = build_site_model(lint_text(text, extended=True), allow_html=allow_html)
    return [e for e in site.search if e.kind in ("section", "prose")]


def _fresh(text: str, allow_html: bool = False) -> list[SearchEntry]:
    search._SECTION_ENTRIES.clear()
    return _prose(text, allow_html)


def test_a_token_edit_keeps_the_same_prose_entries() -> None:
    first = _fresh(_doc())
    assert [e.text for e in first if e.kind == "prose"] == [
        "The overview paragraph, long enough to index.",
        "A paragraph long enough to be indexed, with <b>inline markup</b> in it.",
    ]
    again = _prose(_doc(primary="#aabbcc"))
    assert again == first
    assert all(a is not b for a, b in zip(again, first, strict=True))  # new entries, never shared


def test_edited_sections_are_indexed_again() -> None:
    _fresh(_doc())
    edited = _doc(overview="A different overview paragraph, also long enough.", heading="Shapes")
    found = _prose(edited)
    assert found == _fresh(edited)
    assert [e.text for e in found if e.kind == "prose"][0] == "A different overview paragraph, also long enough."
    assert {e.title for e in found} == {"Overview", "Shapes"}


def test_allow_html_has_its_own_entries() -> None:
    escaped = _fresh(_doc())
    raw = _prose(_doc(), allow_html=True)
    assert raw == _fresh(_doc(), allow_html=True)
    assert raw != escaped  # with raw HTML allowed, the tags are markup, not text
    assert "A paragraph long enough to be indexed, with inline markup in it." in [e.text for e in raw]
