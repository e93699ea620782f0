"""What the page models remember of the prose within a process follows every edit.

`pinup serve` builds the page models again after each edit, and an edit usually changes a token,
not the prose. So the search index's entries per section (kind "search" of `pinup.prosememo`), what
the Colors prose says of each colour ("roles") and the Components prose's descriptions ("usage") are
kept by the text they were read from, in the build cache. Each test builds one version, then
another with the same cache (`SERVED`, as `pinup serve` holds one), and compares with a build from
empty memos: a memo that answered for changed prose, for renamed components or for the other
`--allow-html` setting fails here.
"""

from __future__ import annotations

from pinup.buildcache import BuildCache, using
from pinup.designmd.lint import lint_text
from pinup.docsite.models import ColorsPage, ComponentsPage, SearchEntry
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


#: the cache every build of these tests keeps its memos in (`_fresh`: with that kind's memo emptied first)
SERVED = BuildCache()


def _prose(text: str, allow_html: bool = False) -> list[SearchEntry]:
    with using(SERVED):
        site = build_site_model(lint_text(text, extended=True), allow_html=allow_html)
    return [e for e in site.search if e.kind in ("section", "prose")]


def _fresh(text: str, allow_html: bool = False) -> list[SearchEntry]:
    SERVED.prose.memos.pop("search", None)
    return _prose(text, allow_html)


ROLES = """---
name: Roles
colors:
  primary: "{primary}"
  surface: "#ffffff"
components:
  {button}:
    backgroundColor: "{{colors.primary}}"
---

## Colors

- **Primary:** {role}
- **Surface:** the page <i>background</i>.

## Components

- **{label}:** {usage}
"""


def _roles_doc(
    primary: str = "#112233",
    role: str = "calls to action.",
    button: str = "button",
    label: str = "Button",
    usage: str = "the main action of a form.",
) -> str:
    return ROLES.format(primary=primary, role=role, button=button, label=label, usage=usage)


def _described(text: str, allow_html: bool = False) -> tuple[dict[str, str], dict[str, str]]:
    with using(SERVED):
        site = build_site_model(lint_text(text, extended=True), allow_html=allow_html)
    page = site.page("colors")
    comps = site.page("components")
    assert isinstance(page, ColorsPage) and isinstance(comps, ComponentsPage)
    roles = {sw.name: sw.role for mode in page.modes for sw in mode.swatches}
    usage = {group.name: group.usage for group in comps.groups}
    return roles, usage


def _fresh_described(text: str, allow_html: bool = False) -> tuple[dict[str, str], dict[str, str]]:
    SERVED.prose.memos.pop("roles", None)
    SERVED.prose.memos.pop("usage", None)
    return _described(text, allow_html)


def test_colour_roles_and_component_usage_follow_the_prose() -> None:
    first = _fresh_described(_roles_doc())
    assert first == (
        {"primary": "calls to action.", "surface": "the page <i>background</i>."},
        {"button": "the main action of a form."},
    )
    assert _described(_roles_doc(primary="#aabbcc")) == first  # a token edit: the same descriptions
    edited = _roles_doc(role="links and focus rings.", usage="submits the form.")
    assert _described(edited) == _fresh_described(edited)
    assert _described(edited) == (
        {"primary": "links and focus rings.", "surface": "the page <i>background</i>."},
        {"button": "submits the form."},
    )


def test_component_usage_follows_renamed_components() -> None:
    described_as_chip = _roles_doc(label="Chip")
    assert _fresh_described(described_as_chip)[1] == {"button": ""}  # the prose describes no button
    renamed = _roles_doc(button="chip", label="Chip")  # the same prose, the component renamed
    assert _described(renamed)[1] == {"chip": "the main action of a form."} == _fresh_described(renamed)[1]


def test_colour_roles_have_their_own_entries_with_allow_html() -> None:
    escaped = _fresh_described(_roles_doc())
    raw = _described(_roles_doc(), allow_html=True)
    assert raw == _fresh_described(_roles_doc(), allow_html=True)
    assert raw[0]["surface"] != escaped[0]["surface"]


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
