"""DESIGN.md input of any shape gives findings, never a traceback, in bounded time.

Regression fixtures (tests/reliability/fixtures) are the inputs that once crashed or hung
pinup; hypothesis properties look for new ones (set PINUP_HYPOTHESIS_PROFILE=soak for 10,000+
examples per property, as bench/soak.py does).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pinup.designmd.convert import to_design_system
from pinup.designmd.exporters import FORMATS, ExportError, render_result
from pinup.designmd.lint import lint_text, run
from pinup.designmd.parser import MAX_LINES, MAX_YAML_CHARS

FIXTURES = Path(__file__).parent / "fixtures"
BOMB = "Excessive alias count indicates a resource exhaustion attack"

settings.register_profile(
    "ci", max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "soak",
    max_examples=int(os.environ.get("PINUP_HYPOTHESIS_EXAMPLES", "10000")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("PINUP_HYPOTHESIS_PROFILE", "ci"))


def whole_pipeline(text: str) -> float:
    """Lint (plain and extended), build the model, export every format; returns the seconds taken."""
    start = time.perf_counter()
    for extended in (False, True):
        result = run(text, extended=extended)
        for finding in result.findings:
            assert finding.severity in ("error", "warning", "info")
    report = lint_text(text)
    assert report.summary.errors == sum(f.severity == "error" for f in report.findings)
    design = to_design_system(run(text))
    for fmt in FORMATS:
        try:
            render_result(fmt, design)
        except ExportError:  # a refused export (e.g. a css-tailwind name) is an answer, not a crash
            pass
    return time.perf_counter() - start


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.md")), ids=lambda p: p.name)
def test_regression_fixtures_give_findings(path: Path) -> None:
    whole_pipeline(path.read_text(encoding="utf-8"))


def test_huge_numbers_become_infinity_like_the_reference() -> None:
    report = lint_text((FIXTURES / "hex-5000-f.md").read_text())
    assert [f.message for f in report.findings if f.severity == "error"] == [
        "'Infinity' is not a valid color. Expected a CSS color value (e.g., #ffffff, rgb(0 0 0), oklch(0.5 0.2 240))."
    ]


def test_alias_bomb_is_one_finding_saying_so() -> None:
    report = lint_text((FIXTURES / "alias-bomb.md").read_text())
    assert [(f.severity, f.message) for f in report.findings] == [("warning", BOMB)]


def test_a_few_aliases_still_work() -> None:
    text = "---\nname: a\nbase: &c '#ffffff'\ncolors:\n  primary: *c\n  secondary: *c\n---\n"
    assert all(f.message != BOMB for f in lint_text(text).findings)
    assert to_design_system(run(text)).colors["primary"] is not None


@pytest.mark.parametrize(
    "text",
    [
        "---\nname: x\ncolors:\n" + "".join(f"  c{i}: '#{i:06x}'\n" for i in range(MAX_YAML_CHARS // 10)) + "---\n",
        "---\nname: x\n---\n" + "## H\n\n" * (MAX_LINES // 2 + 10),
        "".join(f"```yaml\nk{i}: 1\n```\n" for i in range(40)),
    ],
    ids=["yaml-size", "lines", "yaml-blocks"],
)
def test_size_caps_give_one_finding(text: str) -> None:
    report = lint_text(text)
    assert len([f for f in report.findings if "pinup" in f.message and "at most" in f.message]) == 1


MEGABYTE = 1_000_000
SHAPES = {
    "many-colors": "---\nname: x\ncolors:\n" + "".join(f"  c{i}: '#{i % 0xFFFFFF:06x}'\n" for i in range(45_000)),
    "deep-flow": "---\nname: x\ncolors: " + "[" * (MEGABYTE // 2) + "]" * (MEGABYTE // 2) + "\n---\n",
    "many-headings": "---\nname: x\n---\n" + "## H\n\n" * (MEGABYTE // 6),
    "long-line": "---\nname: " + "x" * MEGABYTE + "\n---\n",
    "many-fences": "".join(f"```yaml\nk{i}: 1\n```\n" for i in range(MEGABYTE // 20)),
    "prose": "---\nname: x\n---\n## Colors\n" + "word *emph* [link](x) " * (MEGABYTE // 22),
    "brackets": "---\nname: x\n---\n" + "[" * MEGABYTE,
}


@pytest.mark.parametrize("name", SHAPES)
def test_a_megabyte_of_anything_is_linted_quickly(name: str) -> None:
    """Bounded work, not a speed benchmark: the bound is generous for a loaded CI machine."""
    text = SHAPES[name]
    start = time.perf_counter()
    run(text)
    assert time.perf_counter() - start < 5, name


# --- properties --------------------------------------------------------------------------------
SCALARS = st.one_of(
    st.integers(min_value=-(10**400), max_value=10**400).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(
        [
            "#fff",
            "#1a73e8",
            "rgb(1e999 0 0)",
            "hsl(nan, 1%, 1%)",
            "0x" + "f" * 300,
            "16px",
            "1e999rem",
            "{colors.primary}",
            "{colors.a}",
            "~",
            "null",
            "*a",
            "&a x",
            "!!int 12",
            "!!float x",
            "'q",
            '"',
            "[",
            "{",
            "oklch(1 1 1e999)",
            "color-mix(in srgb, red, blue 1e999%)",
            "-0",
            ".inf",
        ]
    ),
    st.text(max_size=20),
)
KEYS = st.sampled_from(
    [
        "primary",
        "secondary",
        "a",
        "b",
        "1",
        "0",
        "<<",
        "fontSize",
        "fontWeight",
        "lineHeight",
        "backgroundColor",
        "textColor",
        "rounded",
        "padding",
        "typography",
        "body-md",
    ]
)
SECTIONS = st.sampled_from(["colors", "typography", "spacing", "rounded", "components", "name", "version", "x"])


@st.composite
def design_docs(draw: st.DrawFn) -> str:
    lines = ["---"]
    for section in draw(st.lists(SECTIONS, max_size=6)):
        lines.append(f"{section}:")
        for key in draw(st.lists(KEYS, max_size=5)):
            if draw(st.booleans()):
                lines.append(f"  {key}: {draw(SCALARS)}")
            else:
                lines.append(f"  {key}:")
                lines += [f"    {k}: {draw(SCALARS)}" for k in draw(st.lists(KEYS, max_size=3))]
    lines.append("---")
    lines += draw(
        st.lists(st.sampled_from(["## Colors", "## Typography", "text", "```yaml", "```", "", "\t"]), max_size=8)
    )
    return "\n".join(lines)


@given(design_docs())
def test_generated_documents_never_raise(text: str) -> None:
    assert whole_pipeline(text) < 10


@given(st.text(max_size=400))
def test_any_text_never_raises(text: str) -> None:
    assert whole_pipeline(text) < 10


@given(st.text(alphabet=st.sampled_from(list("-:[]{}&*!|>'\"#%@` \n\t,?0x1fe.")), max_size=300))
def test_yaml_punctuation_never_raises(text: str) -> None:
    assert whole_pipeline("---\n" + text + "\n---\n") < 10


def test_first_problem_is_reported_first() -> None:
    """A duplicate key above a syntax error is what the reference reports; lines count in the file."""
    report = lint_text((FIXTURES / "duplicate-above-syntax-error.md").read_text())
    [finding] = report.findings
    assert finding.message.startswith("Map keys must be unique at line 4, column 3")
    result = run((FIXTURES / "duplicate-above-syntax-error.md").read_text())
    assert result.findings[0].line == 5  # block line 4 + the front matter's opening fence
