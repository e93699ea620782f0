"""The public API other workstreams use: lint_text/lint_path, the DesignSystem they return, colours."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from helpers_designmd import CORPUS

from pinup.designmd.colors import contrast_ratio, to_oklch
from pinup.designmd.jsnum import to_fixed
from pinup.designmd.lint import ReadError, lint_path, lint_text
from pinup.designmd.model import parse_color


def test_lint_path_populates_the_design_system() -> None:
    report = lint_path(CORPUS / "full-ok.md")
    design = report.design
    assert design.name == "Harbor"
    assert design.version == "alpha"
    assert list(design.colors)[:2] == ["primary", "on-primary"]
    assert design.colors["primary"].hex == "#0b57d0"
    assert design.colors["primary"].raw == "#0b57d0"
    assert design.typography["display"].fontWeight == 700
    assert design.typography["display"].lineHeight is None  # YAML numbers are ignored, as in the reference
    assert design.raw_tokens["typography.display.lineHeight"] == 1.1  # but the raw value is kept
    assert design.typography["body"].lineHeight.css() == "24px"
    assert design.typography["body"].fontSize.css() == "1rem"
    assert design.rounded["md"].css() == "8px"
    assert design.spacing["md"].value == 16
    button = design.components["button-primary"]
    assert button.raw["backgroundColor"] == "{colors.primary}"
    assert button.properties["backgroundColor"].hex == "#0b57d0"
    assert button.properties["typography"].fontFamily.startswith("Inter")
    assert [s.canonical for s in design.sections] == [
        "Overview",
        "Colors",
        "Typography",
        "Layout",
        "Elevation & Depth",
        "Shapes",
        "Components",
        "Do's and Don'ts",
    ]
    colors = design.sections[1]
    assert colors.heading == "Colors" and colors.line == 54
    assert "Primary is **#0b57d0**." in colors.body
    assert design.preamble == "# Harbor"
    assert design.lines["colors.primary"] == 6
    assert design.lines["typography.body.fontSize"] == 25
    assert design.lines["components.button-primary.padding"] == 41
    assert design.symbols["colors.primary"].hex == "#0b57d0"
    assert design.raw_tokens["spacing.sm"] == "8px"
    assert report.summary.errors == 0 and report.summary.warnings == 0
    assert design.source.startswith("---\nversion: alpha")


def test_findings_carry_lines_and_rules() -> None:
    report = lint_text((CORPUS / "refs.md").read_text())
    by_message = {f.message: f for f in report.findings}
    invalid = by_message[
        "'#GGG' is not a valid color. Expected a CSS color value (e.g., #ffffff, rgb(0 0 0), oklch(0.5 0.2 240))."
    ]
    assert invalid.path == "colors.invalid" and invalid.line == 12 and invalid.rule is None
    broken = [f for f in report.findings if f.rule == "broken-ref" and f.severity == "error"]
    assert broken and all(f.line == 42 for f in broken)
    assert "line" not in report.findings[0].reference_dict()


def test_unknown_keys_and_omitted_are_kept() -> None:
    design = lint_text((CORPUS / "omitted.md").read_text()).design
    assert [o.section for o in design.omitted] == ["spacing", "Typography", "colors", "components", "shadows"]
    assert design.omitted[1].reason == "We use the platform's fonts."
    unknown = lint_text((CORPUS / "unknown-keys.md").read_text()).design.unknown
    assert unknown["colours"] == {"primary": "#fff"}
    assert unknown["yes"] == "no" and unknown["1"] == "one" and unknown["true"] == "yes" and unknown[""] == "x"


def test_parse_failure_still_gives_sections() -> None:
    report = lint_text("---\nname: [unclosed\n---\n\nIntro\n\n## Colors\n\nBlue.\n")
    assert report.summary.warnings == 1 and report.findings[0].line is not None
    assert report.design.colors == {}
    assert report.design.sections[0].heading == "Colors" and report.design.sections[0].body == "Blue."
    assert report.design.preamble == "Intro"


def test_read_error(tmp_path: Path) -> None:
    with pytest.raises(ReadError, match="not found"):
        lint_path(tmp_path / "missing.md")


@pytest.mark.parametrize(
    ("value", "hex_"),
    [
        ("#FFF", "#ffffff"),
        ("#f0f8", "#ff00ff88"),
        ("rgba(0,0,0,.25)", "#00000040"),
        ("hsla(120,100%,25%,0.5)", "#00800080"),
        ("oklch(0.9 0.4 150)", "#00ff00"),
        ("hsl(210 80 40)", "#ffff00"),
        ("color-mix(in srgb, red 40%, blue)", "#660099"),
        ("transparent", "#00000000"),
        ("lightslate", "#778899"),
        ("RebeccaPurple", "#663399"),
        ("lab(50% 40 59.5)", "#bf5700"),
        ("hwb(0 60% 60%)", "#808080"),
    ],
)
def test_parse_color(value: str, hex_: str) -> None:
    color = parse_color(value)
    assert color is not None and color.hex == hex_ and color.raw == value


@pytest.mark.parametrize(
    "value", ["#12345", "ff0000", "currentColor", "rgb(none 0 0)", "color(display-p3 1 0 0)", "", None, 5]
)
def test_parse_color_rejects(value: object) -> None:
    assert parse_color(value) is None


def test_contrast_and_oklch() -> None:
    white, black = parse_color("#fff"), parse_color("#000")
    assert white is not None and black is not None
    assert contrast_ratio(white, black) == pytest.approx(21.0)
    assert to_fixed(contrast_ratio(parse_color("#767676"), white), 2) == "4.54"  # type: ignore[arg-type]
    light, chroma, hue = to_oklch(parse_color("#ff0000"))  # type: ignore[arg-type]
    assert light == pytest.approx(0.628, abs=1e-3) and chroma == pytest.approx(0.2577, abs=1e-3)
    assert hue == pytest.approx(29.23, abs=0.05)
    assert to_oklch(white)[1] == pytest.approx(0, abs=1e-6)


@pytest.mark.parametrize(
    ("value", "text"), [(1.005, "1.00"), (1.125, "1.13"), (4.495, "4.50"), (2.0, "2.00"), (-0.001, "0.00")]
)
def test_to_fixed_matches_javascript(value: float, text: str) -> None:
    assert to_fixed(value, 2) == text


def test_no_nan_in_colors() -> None:
    design = lint_text((CORPUS / "colors-syntax.md").read_text()).design
    for color in design.colors.values():
        assert 0 <= color.r <= 255 and not math.isnan(color.luminance)
