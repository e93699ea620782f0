"""Regular expressions that read a DESIGN.md (or generated CSS) match in linear time, and match as before.

Each rewritten pattern is checked two ways: on short strings it matches exactly what the pattern it
replaced matched (kept here as the specification), and on long runs of digits, spaces, dots, signs
and letters it answers within a generous per-example deadline (the old patterns took seconds to
minutes on the same shapes). The slow inputs found so far are fixture files under `slow/`, each
linted by a fresh `pinup lint` process that must finish well inside a timeout.
"""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pinup.designmd import builder, dimensions, parser
from pinup.designmd.rules import token_like_ignored
from pinup.docsite import scales
from pinup.generate import validate

SLOW = Path(__file__).parent / "slow"

OLD_JS_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
OLD_DIMENSION = re.compile(r"^(-?[0-9]*\.?[0-9]+)([a-zA-Z%]+)\Z")
OLD_UNITLESS = re.compile(r"^[0-9]*\.?[0-9]+\Z")
OLD_TOKEN_LIKE = re.compile(r"^-?[0-9]*\.?[0-9]+[a-zA-Z%]+\Z")
OLD_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ ]+(.*?))?[ ]*\Z")
OLD_CLOSING = re.compile(r"(?:^|[ ]+)#+[ ]*\Z")
OLD_SHADOW = re.compile(r"`?(-?\d+(?:px)?\s+-?\d+px\s+-?\d+px(?:\s+-?\d+px)?)`?")
OLD_CSS_URL = re.compile(r"""(?is)url\(\s*(['"]?)(.*?)\1\s*\)""")

#: the characters the number, dimension and heading patterns care about.
ALPHABET = "0123456789.+-eEpxr% #\t`'\"()u l"
short_text = st.text(alphabet=ALPHABET, max_size=24)
run_char = st.sampled_from(["0", "1", "9", " ", "\t", ".", "-", "+", "e", "a", "#", "p", "x", "'", "("])
affix = st.text(alphabet=ALPHABET, max_size=6)


#: a prefix, one character, how many times it runs (20,000 to 60,000), and a suffix that may spoil
#: the match; built into the text inside the test, so a failure prints four short values.
long_runs = st.tuples(affix, run_char, st.integers(20_000, 60_000), affix)


def _groups(match: re.Match[str] | None) -> tuple[str | None, ...] | None:
    return None if match is None else (match.group(0), *match.groups())


def _old_heading(line: str) -> str | None:
    match = OLD_ATX.match(line)
    return None if match is None else OLD_CLOSING.sub("", match.group(2) or "")


def _new_heading(line: str) -> str | None:
    match = parser._SIMPLE_ATX.match(line)
    return None if match is None else parser._SIMPLE_CLOSING.sub("", (match.group(2) or "").rstrip(" "))


def _new_urls(css: str) -> list[tuple[int, int, str]]:
    return list(validate.css_urls(css))


def _every_path(text: str) -> None:
    """Run the input through every rewritten pattern and the code around it."""
    builder._js_number_of_string(text)
    dimensions.parse_dimension(text)
    dimensions.parse_unitless(text)
    token_like_ignored._DIMENSION.match(text)
    _new_heading("## " + text)
    list(scales._SHADOW_IN_PROSE.finditer(text))
    _new_urls("url(" + text)


@given(short_text)
def test_rewritten_patterns_match_as_the_old_ones(text: str) -> None:
    assert _groups(builder._JS_DECIMAL.fullmatch(text)) == _groups(OLD_JS_DECIMAL.fullmatch(text))
    assert _groups(dimensions._DIMENSION.match(text)) == _groups(OLD_DIMENSION.match(text))
    assert _groups(dimensions._UNITLESS.match(text)) == _groups(OLD_UNITLESS.match(text))
    assert _groups(token_like_ignored._DIMENSION.match(text)) == _groups(OLD_TOKEN_LIKE.match(text))
    for line in (text, "## " + text, "#" + text, "  ## " + text):
        assert _new_heading(line) == _old_heading(line)
    assert [_groups(m) for m in scales._SHADOW_IN_PROSE.finditer(text)] == [
        _groups(m) for m in OLD_SHADOW.finditer(text)
    ]
    for css in ("url(" + text, "x url(" + text + ")", text):
        assert _new_urls(css) == [(m.start(), m.end(), m.group(2)) for m in OLD_CSS_URL.finditer(css)]


@given(st.lists(st.sampled_from(["1", "0", " ", "-", "px", "2px", "`", "\n"]), max_size=16).map("".join))
def test_shadow_pattern_matches_as_before_on_shadow_like_prose(text: str) -> None:
    assert [_groups(m) for m in scales._SHADOW_IN_PROSE.finditer(text)] == [
        _groups(m) for m in OLD_SHADOW.finditer(text)
    ]


@settings(max_examples=25, deadline=timedelta(seconds=5))
@given(long_runs)
def test_long_runs_take_linear_time(shape: tuple[str, str, int, str]) -> None:
    prefix, char, count, suffix = shape
    _every_path(prefix + char * count + suffix)


def test_a_long_number_is_still_read_as_javascript_does() -> None:
    assert builder._js_number_of_string("1" + "0" * 400) == float("1e400")  # Infinity, as Number() gives
    assert builder._js_number_of_string("1" + "0" * 40_000 + "px") != builder._js_number_of_string("1")
    assert dimensions.parse_unitless("1" + "0" * 40_000 + "x") is None


def test_each_slow_fixture_lints_in_a_fresh_process_well_inside_its_timeout() -> None:
    """Before the fix these took minutes each; a generous timeout still catches a return of the bug."""
    fixtures = sorted(SLOW.glob("*.md"))
    assert len(fixtures) >= 3
    for path in fixtures:
        done = subprocess.run(
            [sys.executable, "-m", "pinup", "lint", str(path)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode in (0, 1), done.stderr
        assert '"summary"' in done.stdout


def _count_composes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per read of a YAML block (each read makes one composer)."""
    from pinup.designmd.yamlread import read

    calls: list[int] = []
    composer = read.Composer
    monkeypatch.setattr(read, "Composer", lambda *a: calls.append(1) or composer(*a))
    return calls


def test_an_unclosed_flow_is_composed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search for a duplicate key on an error's line once recursed through the loader until
    Python's recursion limit, composing the whole block each time (hypothesis found a 15 s case).
    The block is read once; its first error is the one reported."""
    from pinup.designmd.lint import lint_text

    calls = _count_composes(monkeypatch)
    text = (
        "---\ncolors:\n  padding:\n    primary: [\n    primary: 3" + "4" * 2000 + "\n  typography: 10\n---\n## Colors\n"
    )
    report = lint_text(text)
    assert report.summary.warnings == 1  # the front matter is refused, with the YAML error
    assert calls == [1]


def test_many_unresolved_aliases_are_composed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each unresolved alias was once looked past by composing the block again: 300 aliases took
    9 s. Aliases resolve after the whole block is composed, once; the first unresolved one is reported."""
    from pinup.designmd.lint import lint_text

    calls = _count_composes(monkeypatch)
    text = "---\ncolors:\n" + "".join(f"  c{i}: *a{i}\n" for i in range(300)) + "---\n"
    report = lint_text(text)
    assert report.findings[0].message.startswith("Unresolved alias (the anchor must be set before the alias): a0")
    assert calls == [1]


def test_absurd_block_nesting_is_refused_early(monkeypatch: pytest.MonkeyPatch) -> None:
    """`- - - …` or `? ? ? …` opens a node per indicator; past a few hundred open nodes the block is
    refused as too deep, after a bounded number of parser steps (it once ran to Python's recursion limit)."""
    from pinup.designmd.lint import lint_text
    from pinup.designmd.yamlread.parser import MAX_OPEN_NODES, Parser

    steps: list[int] = []
    step = Parser.next
    monkeypatch.setattr(Parser, "next", lambda self, source: steps.append(1) or step(self, source))
    for shape in ("- ", "? "):
        steps.clear()
        report = lint_text("---\ncolors:\n  a:\n    " + shape * 100_000 + "x\n---\n## Colors\n")
        assert [f.message for f in report.findings] == ["YAML nesting is too deep"]
        assert len(steps) <= 3 * MAX_OPEN_NODES, len(steps)


def _yaml_at_the_cap(entry: str, last: str = "") -> str:
    """A DESIGN.md whose front matter fills pinup's YAML cap with one entry shape repeated."""
    entries: list[str] = []
    size = 0
    while size < parser.MAX_YAML_CHARS - 1024:
        entries.append(entry.format(len(entries)))
        size += len(entries[-1])
    return "---\ncolors:\n" + "".join(entries) + last + "---\n## Colors\n"


@pytest.mark.parametrize(
    ("entry", "last"),
    [
        ("  c{0}: {{a: 1, b: [x, y], c: 'z'}}\n", ""),  # the slowest shape found: many small flow maps
        ("  c{0}: {{a: 1}}\n", "  bad: [1, 2\n"),  # read to the very end, then an error
    ],
)
def test_a_full_yaml_block_of_flow_maps_lints_well_inside_a_timeout(tmp_path: Path, entry: str, last: str) -> None:
    """A YAML block at the size cap that the plain line reader declines goes through the full
    reader: its work grows linearly, so a fresh process lints it well inside a generous timeout."""
    path = tmp_path / "DESIGN.md"
    path.write_text(_yaml_at_the_cap(entry, last), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pinup", "lint", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    assert '"summary"' in done.stdout
    assert "a pinup limit" not in done.stdout  # read, not refused for its size
    assert ("YAML_PARSE_ERROR" in done.stdout or " at line " in done.stdout) == bool(last)


def test_a_full_yaml_block_takes_parser_steps_in_proportion_to_its_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each lexical token the parser is given covers at least one character of the block, but for
    the marker before each scalar (and the rare empty one), so the steps stay within twice its size:
    no step looks the block over again."""
    from pinup.designmd.lint import lint_text
    from pinup.designmd.yamlread.parser import Parser

    steps: list[int] = []
    step = Parser.next
    monkeypatch.setattr(Parser, "next", lambda self, source: steps.append(1) or step(self, source))
    text = _yaml_at_the_cap("  c{0}: {{a: 1, b: [x, y], c: 'z'}}\n")
    report = lint_text(text)
    assert report.design.symbols  # read in full, not refused
    assert 0 < len(steps) <= 2 * len(text), len(steps)


def test_an_error_excerpt_of_a_long_run_of_carriage_returns_is_cut_in_linear_time() -> None:
    """The excerpt's line loses its trailing line breaks; a pattern that did so backtracked over a
    run of lone \\r not at the end (the `yaml` library keeps them in the line), quadratically: a
    megabyte-scale run took minutes. Run in a fresh process with a generous timeout."""
    script = (
        "from pinup.designmd.yamlload import prettify\n"
        "source = 'a: @' + '\\r' * 300_000 + 'y\\n'\n"
        "text = prettify(source, 'Plain value cannot start with reserved character @', 1, 4, 1, [0, len(source)])\n"
        "assert text.startswith('Plain value cannot start with reserved character @ at line 1, column 4'), text[:80]\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
