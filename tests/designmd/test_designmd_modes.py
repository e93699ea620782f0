"""Light/dark modes: `-dark` siblings and `{light, dark}` values (opt-in), their findings and contrast."""

from __future__ import annotations

import json

from cli_runner import run_forked as run_pinup  # output-only: forks of a warm `pinup` (tests/cli_runner.py)
from helpers_designmd import ROOT

from pinup.designmd.lint import lint_text, run

EXPORT_CORPUS = ROOT / "tests" / "exports" / "corpus"

OBJECTS = """---
name: Objects
themes: [light, dark]
colors:
  primary: {light: "#0b5fff", dark: "#8ab4ff"}
  surface: {light: "#ffffff", dark: "#121212"}
  link: "{colors.primary}"
  text: {light: "#111111", dark: "not-a-colour"}
  border: {light: "#cccccc", sepia: "#aa9988"}
  muted: {dark: "#333333"}
rounded:
  card: {light: 8px, dark: large}
components:
  button:
    backgroundColor: "{colors.primary}"
    textColor: "{colors.surface}"
---
"""


def _hexes(design, mode: str) -> dict[str, str]:
    return {k: v.hex for k, v in design.modes.get(mode, {}).items() if hasattr(v, "hex")}


def test_default_model_is_the_reference_one() -> None:
    design = lint_text(OBJECTS).design
    assert "primary.light" in design.colors and "primary" not in design.colors
    assert design.modes == {} and design.themes == []
    findings = [(f.rule, f.path) for f in lint_text(OBJECTS).findings]
    assert ("broken-ref", "components.button") in findings  # what the reference reports


def test_mode_objects_give_one_token_per_name_and_per_mode_values() -> None:
    report = lint_text(OBJECTS, modes=True)
    design = report.design
    assert design.themes == ["light", "dark"] and design.default_theme == "light"
    assert design.colors["primary"].hex == "#0b5fff" and "primary.light" not in design.colors
    dark = _hexes(design, "dark")
    assert dark["colors.primary"] == "#8ab4ff"
    assert dark["colors.link"] == "#8ab4ff"  # an alias follows its target into the dark mode
    assert "colors.text" not in dark  # the invalid dark value is not used
    assert design.mode_value("colors.surface", "dark").hex == "#121212"
    assert design.mode_value("colors.surface", "light").hex == "#ffffff"
    assert design.lines["colors.primary"] == 5
    assert not [f for f in report.findings if f.rule == "broken-ref"]  # {colors.primary} resolves now


def test_bad_mode_values_are_findings_with_lines() -> None:
    result = run(OBJECTS, extended=True)
    found = {(f.rule, f.path, f.line, f.severity) for f in result.findings if f.rule == "mode-value"}
    assert ("mode-value", "colors.text.dark", 8, "error") in found
    assert ("mode-value", "colors.border.sepia", 9, "error") in found
    assert ("mode-value", "colors.muted", 10, "error") in found
    assert ("mode-value", "rounded.card.dark", 12, "error") in found
    messages = " ".join(f.message for f in result.findings if f.rule == "mode-value")
    assert "'not-a-colour' is not a valid color for the dark mode" in messages
    assert "Unknown mode 'sepia'" in messages and "no value for the default mode 'light'" in messages


def test_dark_siblings() -> None:
    text = (EXPORT_CORPUS / "modes-siblings.md").read_text()
    design = lint_text(text, modes=True).design
    assert design.mode_siblings == {
        "colors.primary-dark": "colors.primary",
        "colors.surface-dark": "colors.surface",
        "colors.on-surface-dark": "colors.on-surface",
    }
    dark = _hexes(design, "dark")
    assert dark == {
        "colors.primary": "#8ab4ff",
        "colors.surface": "#121212",
        "colors.on-surface": "#f2f2f2",
        "colors.link": "#8ab4ff",
    }
    # the sibling stays a token of its own, and is not an orphan when its base is used
    assert "surface-dark" in design.colors
    rules = {(f.rule, f.path) for f in run(text, extended=True).findings}
    assert ("orphaned-tokens", "colors.surface-dark") not in rules
    assert ("orphaned-tokens", "colors.surface-dark") in {(f.rule, f.path) for f in run(text).findings}


def test_contrast_runs_per_mode() -> None:
    text = """---
colors:
  primary: "#0b5fff"
  primary-dark: "#1a2b3c"
  surface: "#ffffff"
  surface-dark: "#121212"
  on-surface: "#1a1a1a"
  on-surface-dark: "#222222"
components:
  button:
    backgroundColor: "{colors.primary}"
    textColor: "{colors.surface}"
---
"""
    plain = run(text)
    assert not [f for f in plain.findings if "contrast" in (f.rule or "")]
    extended = run(text, extended=True)
    contrast = [f for f in extended.findings if f.rule == "mode-contrast"]
    assert [f.path for f in contrast] == ["components.button", "colors.on-surface"]
    assert contrast[0].message.startswith("In dark mode, textColor (#121212) on backgroundColor (#1a2b3c)")
    assert "'on-surface' (#222222) on 'surface' (#121212)" in contrast[1].message
    assert all(f.line for f in contrast)


def test_dark_default_reads_light_as_the_other_mode() -> None:
    text = '---\nthemes: [dark, light]\ncolors:\n  primary: {dark: "#8ab4ff", light: "#0b5fff"}\n---\n'
    design = lint_text(text, modes=True).design
    assert design.default_theme == "dark" and design.themes == ["dark", "light"]
    assert design.colors["primary"].hex == "#8ab4ff"
    assert _hexes(design, "light") == {"colors.primary": "#0b5fff"}


def test_implicit_light_dark_without_themes() -> None:
    text = '---\ncolors:\n  primary: {light: "#0b5fff", dark: "#8ab4ff"}\n  brand: {500: "#123456"}\n---\n'
    design = lint_text(text, modes=True).design
    assert design.colors["primary"].hex == "#0b5fff" and "brand.500" in design.colors
    assert _hexes(design, "dark") == {"colors.primary": "#8ab4ff"}


def test_cli_lint_stays_reference_and_extended_tolerates_modes() -> None:
    path = str(EXPORT_CORPUS / "modes-object.md")
    plain = json.loads(run_pinup("lint", path).stdout)
    assert any(f.get("rule") == "orphaned-tokens" and f["path"] == "colors.primary.light" for f in plain["findings"])
    extended = run_pinup("lint", "--extended", path)
    assert extended.returncode == 0
    data = json.loads(extended.stdout)
    assert not [f for f in data["findings"] if f["severity"] == "error"]
    assert not [f for f in data["findings"] if ".light" in f.get("path", "")]


ODD = [
    'themes: notalist\ncolors:\n  a: {light: "#fff", dark: "#000"}\n',
    'themes: [1, 2, ""]\ncolors:\n  a: {light: "#fff", dark: "#000"}\n',
    "themes: [light, dark]\ndefault-theme: 5\ncolors:\n  a: {light: null, dark: [1]}\n  b: {light: {x: 1}}\n",
    'themes: [light, dark]\ncolors:\n  a: {light: "{colors.b}", dark: "{colors.b}"}\n  b: {light: "{colors.a}", dark: "{colors.a}"}\n',
    'colors:\n  a: "#fff"\n  a-dark: "{colors.a}"\n  -dark: "#000"\n  x-dark: "#111"\n',
    'themes: [dark]\ncolors:\n  a: {dark: "#000"}\n  a-dark: "#111"\n',
    'rounded:\n  r: {light: 4px, dark: 50%}\nspacing:\n  s: {light: 1, dark: "{spacing.s}"}\n',
]


def test_odd_mode_input_never_raises_and_exports() -> None:
    from pinup.designmd.exporters import FORMATS, ExportError, render_result

    for body in ODD:
        text = f"---\n{body}---\n"
        result = run(text, extended=True)
        assert all(f.line for f in result.findings if f.rule == "mode-value"), body
        design = lint_text(text, modes=True).design
        for fmt in FORMATS:
            try:
                render_result(fmt, design, modes=True)
            except ExportError:
                pass
    nulls = run(f"---\n{ODD[2]}---\n", extended=True)
    assert {f.path for f in nulls.findings if f.rule == "mode-value"} == {
        "colors.a.light",
        "colors.a.dark",
        "colors.b.light",
    }
