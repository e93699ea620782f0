"""The accessibility checks of `pinup lint --extended`: non-text contrast, colour-vision pairs, interactive states.

a11y/gaps.md has one of each problem (and near misses that pass); a11y/clean.md has none. Without
`--extended` the report is the reference CLI's, byte for byte.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_runner import run_forked as run_pinup

from pinup.designmd.colors import CssColor, parse_css_color, ratio
from pinup.designmd.cvd import MACHADO_2009, simulate
from pinup.designmd.lint import read_source, run
from pinup.spec import rules as spec_rules

HERE = Path(__file__).resolve().parent / "a11y"
GAPS, CLEAN = HERE / "gaps.md", HERE / "clean.md"
NEW = ("non-text-contrast", "cvd-pair", "interactive-states")


def found(path: Path, *, extended: bool = True) -> list[tuple[str, str, str | None, int | None]]:
    result = run(read_source(path), extended=extended)
    return [(f.rule or "", f.severity, f.path, f.line) for f in result.findings if f.rule in NEW]


def message(path: Path, rule: str, where: str) -> str:
    (text,) = [f.message for f in run(read_source(path), extended=True).findings if (f.rule, f.path) == (rule, where)]
    return text


def test_each_gap_is_found_at_its_line() -> None:
    assert found(GAPS) == [
        ("non-text-contrast", "warning", "components.input.borderColor", 32),
        ("non-text-contrast", "warning", "colors.focus-ring", 9),
        ("cvd-pair", "warning", "colors.error", 11),
        ("cvd-pair", "warning", "colors.error-dark", 15),
        ("interactive-states", "info", "components.button-primary", 22),
        ("interactive-states", "info", "components.input", 29),
    ]
    assert found(CLEAN) == []


def test_non_text_contrast_hints_at_a_colour_that_passes() -> None:
    text = message(GAPS, "non-text-contrast", "components.input.borderColor")
    assert text.startswith(
        "borderColor (#d0d0d0) on backgroundColor (#ffffff) has contrast ratio 1.54:1, below the 3:1"
    )
    suggested = parse_css_color(text.split("darken it to ")[1].split(" ")[0])
    white = parse_css_color("#ffffff")
    assert suggested is not None and white is not None
    assert 3.0 <= ratio(suggested, white) < 3.1  # the lightest that passes: no darker than it must be
    assert "#7496c9 (3.02:1)" in message(GAPS, "non-text-contrast", "colors.focus-ring")


def test_cvd_pair_names_the_deficiencies_and_the_fix() -> None:
    text = message(GAPS, "cvd-pair", "colors.error")
    assert text.startswith("'error' (#b3261e) and 'success' (#146c2e) look alike with protanopia (ΔE_OK 0.087), ")
    assert "deuteranopia (ΔE_OK 0.063), under 0.10" in text and "tritanopia" not in text
    assert "lightness" in text and "icon" in text


def test_the_simulation_keeps_greys_and_merges_red_with_green() -> None:
    """Each Machado matrix's rows sum to 1, so white, black and greys are seen as they are."""
    for deficiency, matrix in MACHADO_2009.items():
        assert all(abs(sum(row) - 1) < 1e-3 for row in matrix), deficiency
        for grey in (0, 119, 255):
            seen = simulate(CssColor(grey, grey, grey, None), deficiency)
            assert max(abs(seen.r - grey), abs(seen.g - grey), abs(seen.b - grey)) <= 1
    red, green = (
        simulate(CssColor(200, 40, 40, None), "deuteranopia"),
        simulate(CssColor(40, 140, 40, None), "deuteranopia"),
    )
    assert abs(red.r - green.r) < 30 and abs(red.g - green.g) < 30  # both a dull olive for a deuteranope
    blue, yellow = CssColor(30, 60, 220, None), CssColor(230, 210, 40, None)
    assert simulate(blue, "protanopia").b > 150 and simulate(yellow, "protanopia").b < 100  # kept apart


def test_interactive_states_only_where_states_are_designed() -> None:
    text = message(GAPS, "interactive-states", "components.input")
    assert text == (
        "'input' is interactive but has no hover, focus or disabled state; add components.input-hover, "
        "components.input-focus and components.input-disabled with the colours it takes then."
    )
    without_states = read_source(GAPS).replace("  button-primary-hover:", "  banner:")
    assert [f for f in run(without_states, extended=True).findings if f.rule == "interactive-states"] == []


def test_spec_rules_list_them_as_extended() -> None:
    listed = {r["name"]: r for r in spec_rules()}
    for name in NEW:
        assert listed[name]["extended"] and listed[name]["runsWith"] == "pinup lint --extended"
    done = run_pinup("spec", "--rules-only")
    assert all(f"| `{name}` |" in done.stdout.decode() for name in NEW)


def test_without_extended_nothing_changes() -> None:
    assert found(GAPS, extended=False) == []
    text = run_pinup("lint", str(GAPS)).stdout.decode()
    assert not any(name in text for name in NEW)


@pytest.mark.node
def test_without_extended_the_output_is_the_references(reference: object) -> None:
    for path in (GAPS, CLEAN):
        ours = run_pinup("lint", str(path))
        theirs = reference("lint", str(path))  # type: ignore[operator]
        assert ours.stdout.decode() == theirs.stdout and ours.returncode == theirs.returncode
        assert json.loads(ours.stdout)["findings"]  # a real report, not two empty ones
