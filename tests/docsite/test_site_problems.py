"""A site never hides a problem: alert banners, extended findings on the lint page, --strict."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner
from site_helpers import MINIMAL, build, write_workspace

BROKEN_YAML = '---\nname: Broken\ncolors:\n  primary: "#ff0000\n  x: [\n---\n# Broken brand\n\n## Overview\n\nHello.\n'
#: a colour alias to nothing: the reference linter drops it silently, pinup's extended check reports it
BROKEN_ALIAS = MINIMAL.replace('  on-background: "#202124"\n', '  on-background: "#202124"\n  link: "{colors.nope}"\n')
#: the prose names a hex for a token that has another value (prose/token drift, a warning)
DRIFT = MINIMAL.replace("- **Primary (#1a73e8):**", "- **Primary (#ff0000):**")


def _alert(html: str) -> str:
    found = re.search(r'<div class="pinup-banner[^"]*" role="alert">(.*?)</div>', html, re.S)
    return found.group(1) if found else ""


def _pages(out: Path) -> list[Path]:
    return sorted(out.glob("*.html"))


def test_clean_design_md_has_no_alert(tmp_path: Path) -> None:
    build(write_workspace(tmp_path / "ws", MINIMAL), tmp_path / "site")
    for page in _pages(tmp_path / "site"):
        assert 'role="alert"' not in page.read_text(), page.name


def test_broken_yaml_alerts_on_every_page_and_never_looks_empty(tmp_path: Path) -> None:
    result = build(write_workspace(tmp_path / "ws", BROKEN_YAML), tmp_path / "site")
    pages = _pages(tmp_path / "site")
    assert len(pages) >= 9
    for page in pages:
        alert = _alert(page.read_text())
        assert "front matter could not be read" in alert, page.name
        assert "Missing closing" in alert and "No tokens were loaded" in alert
        if page.name != "lint.html":
            assert 'href="lint.html"' in alert, page.name
    index = (tmp_path / "site" / "index.html").read_text()
    assert "Untitled design system" not in index
    assert re.search(r"<h1[^>]*>Broken brand</h1>", index), "the document's own heading names the site"
    assert "pinup-stats" not in index, "no row of zero counts for a file whose tokens were not read"
    assert "No tokens could be read" in index
    assert result.report.summary.warnings == 1


def test_extended_findings_alert_and_are_listed_beside_reference_ones(tmp_path: Path) -> None:
    result = build(write_workspace(tmp_path / "ws", BROKEN_ALIAS), tmp_path / "site")
    rules = {f.rule for f in result.report.findings}
    assert "token-broken-ref" in rules and "token-summary" in rules
    for page in _pages(tmp_path / "site"):
        alert = _alert(page.read_text())
        assert "1 extended finding " in alert and "1 lint error" in alert, page.name
    lint = (tmp_path / "site" / "lint.html").read_text()
    reference, extended = lint.split('id="lint-extended"')
    assert "token-summary" in reference and "token-broken-ref" not in reference
    assert "token-broken-ref" in extended and "{colors.nope}" in extended
    assert 'href="colors.html#colors-link"' in extended, "the finding links to its token"


def test_lint_page_says_when_there_are_no_extended_findings(tmp_path: Path) -> None:
    build(write_workspace(tmp_path / "ws", MINIMAL), tmp_path / "site")
    lint = (tmp_path / "site" / "lint.html").read_text()
    assert "Extended findings" in lint and "No extended findings." in lint


def test_strict_fails_on_any_error_or_warning_extended_included(tmp_path: Path) -> None:
    from pinup.cli import cli

    runner = CliRunner()
    for name, text, code in (
        ("clean", MINIMAL, 0),
        ("yaml", BROKEN_YAML, 1),
        ("alias", BROKEN_ALIAS, 1),
        ("drift", DRIFT, 1),
    ):
        src = write_workspace(tmp_path / name, text)
        res = runner.invoke(cli, ["build", str(src), "--out", str(tmp_path / f"out-{name}"), "--strict"])
        assert res.exit_code == code, (name, res.output)
        if code:
            assert "--strict" in res.output and "Traceback" not in res.output
        plain = runner.invoke(cli, ["build", str(src), "--out", str(tmp_path / f"plain-{name}")])
        assert plain.exit_code == 0, (name, plain.output)


def test_drift_is_an_extended_warning_on_the_lint_page(tmp_path: Path) -> None:
    result = build(write_workspace(tmp_path / "ws", DRIFT), tmp_path / "site")
    assert [f.rule for f in result.report.findings if f.severity == "warning"] == ["prose-color-mismatch"]
    extended = (tmp_path / "site" / "lint.html").read_text().split('id="lint-extended"')[1]
    assert "prose-color-mismatch" in extended
    assert "1 extended finding " in _alert((tmp_path / "site" / "typography.html").read_text())
