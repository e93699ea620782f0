"""What the linter remembers between lints of the same file in one process gives the same findings.

`pinup serve` lints a DESIGN.md again after every edit, and an edit usually changes one token and
no prose, so the prose colour scan (`extended._prose_candidates`) and the Markdown structure scan
(`parser._scan_simple_remembered`) keep their answers by the text they read. Each test lints one
version (filling the memo), then another that must come out as a fresh lint says: if a memo
answered for the wrong text, or kept line numbers after the front matter grew, a test fails.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pinup.designmd import parser
from pinup.designmd.lint import lint_text
from pinup.designmd.rules import extended

DOC = """---
name: Memo
colors:
  primary: "{primary}"
  accent: "#445566"
{extra}---

## Colors

The primary colour is {prose} and is used for buttons.

```
primary is #999999 inside a fence: not prose
```

## {heading}

Accent is #445566 here.
"""


def _doc(primary: str = "#112233", prose: str = "#112233", heading: str = "Overview", extra: str = "") -> str:
    return DOC.format(primary=primary, prose=prose, heading=heading, extra=extra)


def _prose(text: str) -> list[tuple[int | None, str | None, str]]:
    report = lint_text(text, extended=True)
    return [(f.line, f.path, f.message) for f in report.findings if f.rule == "prose-color-mismatch"]


def _fresh_prose(text: str) -> list[tuple[int | None, str | None, str]]:
    extended._PROSE_SCANS.clear()
    parser._SCANS.clear()
    return _prose(text)


def test_a_token_edit_with_the_same_prose_is_checked_against_the_new_value() -> None:
    assert _fresh_prose(_doc()) == []
    changed = _doc(primary="#aabbcc")
    found = _prose(changed)  # the prose scan is remembered; the token is new
    assert found == [(10, "colors.primary", "The prose gives #112233 for 'primary', but the token is #aabbcc.")]
    assert found == _fresh_prose(changed)
    assert _prose(_doc()) == []  # and back


def test_a_prose_edit_is_scanned_again() -> None:
    assert _fresh_prose(_doc(primary="#aabbcc")) != []
    assert _prose(_doc(primary="#aabbcc", prose="#AABBCC")) == []
    assert _prose(_doc(primary="#aabbcc", prose="#aabbcd")) == [
        (10, "colors.primary", "The prose gives #aabbcd for 'primary', but the token is #aabbcc.")
    ]


def test_renamed_colours_are_looked_for_again() -> None:
    text = _doc(primary="#aabbcc")
    assert _fresh_prose(text) != []
    renamed = text.replace("  primary:", "  brand:")
    assert _prose(renamed) == [] == _fresh_prose(renamed)


def test_findings_follow_the_prose_when_the_front_matter_grows() -> None:
    assert _fresh_prose(_doc(primary="#aabbcc"))[0][0] == 10
    longer = _doc(primary="#aabbcc", extra="description: one more line\n")
    assert _prose(longer)[0][0] == 11
    assert _prose(longer) == _fresh_prose(longer)


def test_sections_and_their_lines_follow_the_body() -> None:
    def sections(text: str) -> list[tuple[str, int]]:
        return [(s.heading, s.line) for s in lint_text(text, extended=True).design.sections]

    parser._SCANS.clear()
    assert sections(_doc()) == [("Colors", 8), ("Overview", 16)]
    assert sections(_doc(primary="#aabbcc")) == [("Colors", 8), ("Overview", 16)]
    assert sections(_doc(heading="Layout")) == [("Colors", 8), ("Layout", 16)]
    assert sections(_doc(extra="description: more\n")) == [("Colors", 9), ("Overview", 17)]


def test_the_memos_stay_bounded() -> None:
    extended._PROSE_SCANS.clear()
    parser._SCANS.clear()
    for index in range(extended._PROSE_SCANS_KEPT + 10):
        _prose(_doc(prose=f"#{index:06x}"))
    assert len(extended._PROSE_SCANS) == extended._PROSE_SCANS_KEPT
    assert len(parser._SCANS) <= parser._SCANS_KEPT
    huge = _doc(heading="Overview\n\n" + "Long prose line.\n" * (extended._PROSE_KEPT_CHARS // 16))
    before = dict(extended._PROSE_SCANS)
    assert _prose(huge) == []
    assert extended._PROSE_SCANS == before  # too long to keep: scanned, not remembered


_NAME_CHARS = st.sampled_from(list("abkKsSi-_. 0") + ["\u212a", "\u017f", "\u0131", "\u0130", "é"])
#: what a line may write instead of a name's letter: its other case, or a letter that case-folds to it
_LOOKALIKES = {"k": ["K", "\u212a"], "s": ["S", "\u017f"], "i": ["I", "\u0130", "\u0131"]}


@st.composite
def _line_naming(draw: st.DrawFn, names: list[str]) -> str:
    """A line around one of `names` (or none) written in any case, lookalike letters and all."""
    before, after = draw(st.text(_NAME_CHARS, max_size=8)), draw(st.text(_NAME_CHARS, max_size=8))
    if not names:
        return before + after
    name = draw(st.sampled_from(names))
    written = "".join(draw(st.sampled_from([c, c.swapcase(), *_LOOKALIKES.get(c.lower(), [])])) for c in name)
    space = draw(st.sampled_from(["", " "]))
    return before + space + written + space + after


@settings(max_examples=500, deadline=None)
@given(data=st.data(), names=st.lists(st.text(_NAME_CHARS, min_size=2, max_size=8), max_size=4, unique=True))
def test_name_patterns_compiled_on_demand_match_as_every_pattern_does(data: st.DataObject, names: list[str]) -> None:
    """The prose scan compiles a colour name's pattern only when a line holds each of its words: the
    names it finds in a line are exactly those every pattern, compiled up front, finds (case-folding
    letters such as the Kelvin sign and the long s included)."""
    text = data.draw(_line_naming(names))
    patterns = extended._NamePatterns(tuple(names))
    expected = [
        name for name in names if len(name) >= 3 and extended._name_pattern(extended._name_words(name)).search(text)
    ]
    assert patterns.named(text) == expected


def test_prose_and_colours_past_the_pair_limit_are_not_compared_and_the_report_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each line giving one hex value is compared with every colour name: thousands of each took
    minutes. Past the limit no name is looked for (counted, not timed) and an info finding says why."""
    looked: list[str] = []
    named = extended._NamePatterns.named

    def counting(self: extended._NamePatterns, text: str) -> list[str]:
        looked.append(text)
        return named(self, text)

    monkeypatch.setattr(extended._NamePatterns, "named", counting)

    def colours(n: int) -> str:
        return "".join(f'  gray-{i}: "#{i:06x}"\n' for i in range(n))

    def prose(n: int) -> str:
        return "".join(f"Use gray-{i} for #{i + 1:06x} here.\n" for i in range(n))

    text = f"---\nname: Big\ncolors:\n{colours(600)}---\n\n## Colors\n\n{prose(600)}"
    extended._PROSE_SCANS.clear()
    report = lint_text(text, extended=True)
    assert looked == []
    skipped = [f for f in report.findings if f.path == "colors" and f.severity == "info"]
    assert len(skipped) == 1 and "not checked" in skipped[0].message
    assert not [f for f in report.findings if f.rule == "prose-color-mismatch" and f.severity == "warning"]
    # under the limit every such line is still compared
    small = f"---\nname: Big\ncolors:\n{colours(20)}---\n\n## Colors\n\n{prose(60)}"
    extended._PROSE_SCANS.clear()
    assert [f for f in lint_text(small, extended=True).findings if f.rule == "prose-color-mismatch"]
    assert looked
