"""Broken front matter lints exactly as the reference lints it: a differential test.

Hypothesis builds front matter from small pieces that YAML parsers disagree on (indentation, tabs,
flow collections, comment spacing, unterminated quotes, duplicate keys, anchors and aliases,
document markers); every document is written to a file, the reference CLI lints them all in one
node process (tests/reference_batch.mjs), and `pinup lint`'s JSON report (computed in-process, as
`pinup lint FILE` prints it) must be identical, messages and lines included.

The number of documents comes from the Hypothesis profile: a few hundred by default, 2,000 with
`--hypothesis-profile=soak` (see docs/contributing.md).
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from pinup.designmd import report
from pinup.designmd.lint import run
from tests.reference_oracle import ReferenceOracle

#: one line of front matter each: good lines, and lines with one of the errors YAML parsers treat
#: differently. Values are colors and dimensions, so a document that parses also gets linted.
LINES = [
    "colors:",
    '  primary: "#0b57d0"',
    "  primary: '#ffcbef'# note",
    "  accent: '#ffcbef' # note",
    '  accent: "#123456"#x',
    "  accent: #123456",
    "  accent: '#abc",
    '  accent: "#abc',
    "  accent: &a '#101010'",
    "  other: *a",
    "  other: *missing",
    "  list: [a, b",
    "  list: [a, b]",
    "  map: {a: 1, b: 2",
    "  map: {a: 1, b: 2}",
    "  bad: a, b",
    "\tbad: tab",
    "  \tbad: tab",
    "   odd: indent",
    " odd: indent",
    "    deep: indent",
    "spacing:",
    "  sm: 4px",
    "  sm: 8px",
    "  md: 8px # comment",
    "  md: 8px#comment",
    "rounded:",
    "  r: 4px",
    "---",
    "...",
    "- item",
    "key: [1, 2]: x",
    "key: value: other",
    "? complex",
    "name: Test",
    "name: Test # ok",
    "name: 'it''s'",
    'name: "esc \\q"',
    'description: "bad \\x4g escape"',
    "description: >",
    "  folded text",
    "%YAML 1.2",
    "@bad",
    "`bad",
    "key:value",
    "key: |",
    "  - x",
    "  - y",
    "a: b",
    "  c: d",
    "? key",
    ": value",
    "description: |2",
    "   indented by an indicator",
    "description: >-",
    "  # a comment between entries",
    "# a comment at the top level",
    "colors: &base",
    "copy: *base",
    "  alias: *base",
    "  tagged: !!str 12",
    "  tagged: !custom value",
    "  number: !!int '12'",
    "  seq: [a, {b: c}]",
    "  flow: {a, b: , : c}",
    '  escaped: "\\u00e9 \\x41"',
    "  multi: 'first",
    "    second'",
    "  - [nested, flow]",
    "--- inline",
    "  emoji: 😀 # after an astral character",
]

#: lines kept out of the generated set because pinup still reads them differently: none, since
#: YAML is read by a port of the reference's own `yaml` library (see docs/architecture.md).
NOT_YET: set[str] = set()
#: well-formed blocks (each top-level key once) that go around the line that may break the document.
GOOD = [
    "name: Test",
    "description: A test # described",
    'colors:\n  brand: "#0b57d0"',
    "spacing:\n  sm: 4px",
    "rounded:\n  r: 4px",
    "typography:\n  body:\n    fontSize: 16px",
]
BROKEN = [line for line in LINES if line not in NOT_YET]

documents = st.tuples(
    st.permutations(GOOD), st.integers(0, len(GOOD)), st.integers(0, len(GOOD)), st.sampled_from(BROKEN)
).map(
    lambda doc: (
        "---\n"
        + "\n".join([*doc[0][: doc[1]], doc[3], *doc[0][doc[1] : doc[1] + doc[2]]])
        + "\n---\n\n## Overview\n\nText.\n"
    )
)


def _pinup_json(text: str) -> tuple[int, str]:
    result = run(text)
    return (1 if result.summary["errors"] > 0 else 0), report.to_json(result.findings, result.summary)


def _generate(count: int) -> list[str]:
    """`count` documents drawn by Hypothesis (its generation phase only: no per-example comparison)."""
    found: list[str] = []

    @settings(
        max_examples=count,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(documents)
    def collect(text: str) -> None:
        found.append(text)

    collect()
    return found


def test_broken_front_matter_lints_as_the_reference(tmp_path: Path, reference: ReferenceOracle) -> None:
    texts = sorted(set(_generate(max(300, settings().max_examples))))
    assert len(texts) >= 200
    paths = []
    for n, text in enumerate(texts):
        path = tmp_path / f"case-{n}.md"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    expected = reference.many(("lint", str(path)) for path in paths)
    differ = [
        text for text, ref in zip(texts, expected, strict=True) if _pinup_json(text) != (ref.returncode, ref.stdout)
    ]
    assert not differ, f"{len(differ)} of {len(texts)} differ; first:\n{differ[0]}"
