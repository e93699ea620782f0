"""`pinup export --modes`: light/dark rules in the CSS exports; without it, nothing changes."""

from __future__ import annotations

import subprocess
import sys

import pytest
from exports_corpus import CORPUS, CORPUS_FILES

from pinup.designmd.exporters import FORMATS, MODE_FORMATS, render
from pinup.designmd.lint import lint_text

SIBLINGS = CORPUS / "modes-siblings.md"
OBJECTS = CORPUS / "modes-object.md"

DARK_SIBLINGS = """  --color-primary: #8ab4ff;
  --color-surface: #121212;
  --color-on-surface: #f2f2f2;
  --color-link: #8ab4ff;
"""


def _design(path, modes: bool = True):
    return lint_text(path.read_text(encoding="utf-8"), modes=modes).design


def _pinup(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pinup", *args], capture_output=True, text=True, timeout=120)


def test_css_vars_modes_exact() -> None:
    out = render("css-vars", _design(SIBLINGS), modes=True)
    plain = render("css-vars", _design(SIBLINGS, modes=False))
    root = plain[: -len("}\n\n")]
    typography = (
        "  --typography-body-font-family: Inter, sans-serif;\n"
        "  --typography-body-font-size: 16px;\n"
        "  --typography-body-line-height: 24px;\n"
        "  --typography-body-font-weight: 400;\n"
    )
    dark_media = "".join("  " + line + "\n" for line in DARK_SIBLINGS.splitlines())
    assert out == (
        f"{root}{typography}}}\n\n"
        f'[data-theme="dark"] {{\n{DARK_SIBLINGS}}}\n\n'
        f"@media (prefers-color-scheme: dark) {{\n  :root:not([data-theme]) {{\n{dark_media}  }}\n}}\n\n"
    )


def test_css_tailwind_modes_keeps_theme_and_adds_root_and_dark() -> None:
    out = render("css-tailwind", _design(OBJECTS), modes=True)
    plain = render("css-tailwind", _design(OBJECTS))
    assert out.startswith(plain + "\n:root {\n  --color-primary: #0b5fff;\n")
    assert '\n[data-theme="dark"] {\n  --color-primary: #8ab4ff;\n' in out
    assert "  --color-border: #f2f2f2;\n" in out  # dark border is {colors.on-surface}'s dark value
    assert "  --radius-card: 12px;\n  }\n}\n" in out
    assert "@media (prefers-color-scheme: dark) {\n  :root:not([data-theme]) {\n" in out


def test_dark_default_gets_light_rules() -> None:
    text = '---\nthemes: [dark, light]\ncolors:\n  primary: {dark: "#8ab4ff", light: "#0b5fff"}\n---\n'
    out = render("css-vars", lint_text(text, modes=True).design, modes=True)
    assert out.startswith(":root {\n  --color-primary: #8ab4ff;\n}\n")
    assert '[data-theme="light"] {\n  --color-primary: #0b5fff;\n}\n' in out
    assert "@media (prefers-color-scheme: light)" in out and "prefers-color-scheme: dark" not in out


@pytest.mark.parametrize("path", CORPUS_FILES, ids=[p.name for p in CORPUS_FILES])
@pytest.mark.parametrize("fmt", [f for f in FORMATS if f not in MODE_FORMATS])
def test_formats_without_modes_ignore_the_flag(path, fmt) -> None:
    from pinup.designmd.exporters import ExportError

    try:
        expected = render(fmt, _design(path, modes=False))
    except ExportError:
        return
    assert render(fmt, _design(path, modes=False), modes=True) == expected


@pytest.mark.parametrize("fmt", ["css-vars", "css-tailwind", "json-tailwind", "dtcg"])
def test_cli_without_modes_is_unchanged_and_with_modes_adds_rules(fmt: str) -> None:
    plain = _pinup("export", str(SIBLINGS), "--format", fmt)
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout == render(fmt, _design(SIBLINGS, modes=False))
    assert "data-theme" not in plain.stdout and "$extensions" not in plain.stdout
    moded = _pinup("export", str(SIBLINGS), "--format", fmt, "--modes")
    assert moded.returncode == 0, moded.stderr
    if fmt in ("css-vars", "css-tailwind"):
        assert '[data-theme="dark"]' in moded.stdout and "prefers-color-scheme: dark" in moded.stdout
    elif fmt == "dtcg":
        assert '"$extensions"' in moded.stdout
    else:
        assert moded.stdout == plain.stdout


def test_cli_help_lists_the_one_format_list() -> None:
    help_text = _pinup("export", "--help").stdout
    assert ",".join(FORMATS) in "".join(help_text.split())  # click may wrap after a hyphen
