"""Brand fonts from the workspace's fonts/ folder: embedded when valid, a finding when not."""

from __future__ import annotations

import shutil
from pathlib import Path

import mkdocs
import pytest
from site_helpers import MINIMAL, build, write_workspace

#: a real WOFF2 file that ships with a declared dependency (MkDocs' readthedocs theme)
LATO = Path(mkdocs.__file__).parent / "themes" / "readthedocs" / "css" / "fonts" / "lato-normal.woff2"
WITH_LATO = MINIMAL.replace("fontFamily: Inter", "fontFamily: Lato")
LATO_LINE = WITH_LATO.splitlines().index("    fontFamily: Lato") + 1


def _workspace(tmp_path: Path) -> Path:
    src = write_workspace(tmp_path / "ws", WITH_LATO)
    (src / "fonts").mkdir()
    return src


def test_a_named_font_in_fonts_is_embedded_locally(tmp_path: Path) -> None:
    src = _workspace(tmp_path)
    shutil.copy(LATO, src / "fonts" / "Lato-Regular.woff2")
    result = build(src, tmp_path / "site")
    assert result.report.summary.warnings == 0
    site = tmp_path / "site"
    embedded = site / "assets" / "fonts" / "lato-400-normal.woff2"
    assert embedded.read_bytes() == LATO.read_bytes()
    css = (site / "assets" / "theme.css").read_text()
    assert '@font-face{font-family:"Lato";src:url("fonts/lato-400-normal.woff2") format("woff2")' in css
    assert "http" not in css
    typography = " ".join((site / "typography.html").read_text().split())
    assert "embedded from <code>fonts/Lato-Regular.woff2</code>" in typography


def test_without_a_font_file_the_page_names_the_fallback_stack(tmp_path: Path) -> None:
    build(write_workspace(tmp_path / "ws", MINIMAL), tmp_path / "site")
    typography = " ".join((tmp_path / "site" / "typography.html").read_text().split())
    assert "<strong>Inter</strong> (body-md): not embedded" in typography
    assert "metric-compatible" in typography and "Liberation Sans" in typography
    assert not (tmp_path / "site" / "assets" / "fonts").exists()


def test_a_file_that_is_not_a_font_is_a_finding_with_a_line(tmp_path: Path) -> None:
    src = _workspace(tmp_path)
    (src / "fonts" / "Lato.woff2").write_text("<html>not a font</html>")
    result = build(src, tmp_path / "site")
    found = [f for f in result.report.findings if f.rule == "font-file"]
    assert len(found) == 1 and "not a WOFF2 font" in found[0].message
    assert found[0].line == LATO_LINE and found[0].path == "typography.body-md"
    assert not (tmp_path / "site" / "assets" / "fonts").exists()
    lint = (tmp_path / "site" / "lint.html").read_text().split('id="lint-extended"')[1]
    assert "fonts/Lato.woff2 is not a WOFF2 font" in lint
    assert 'role="alert"' in (tmp_path / "site" / "index.html").read_text()


def test_a_fonts_folder_that_escapes_the_workspace_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.copy(LATO, outside / "Lato.woff2")
    src = write_workspace(tmp_path / "ws", WITH_LATO)
    (src / "fonts").symlink_to(outside, target_is_directory=True)
    result = build(src, tmp_path / "site")
    found = [f for f in result.report.findings if f.rule == "font-file"]
    assert len(found) == 1 and "outside the workspace" in found[0].message and found[0].line == LATO_LINE
    assert not (tmp_path / "site" / "assets" / "fonts").exists()


def test_a_font_file_linking_out_of_the_workspace_is_not_read(tmp_path: Path) -> None:
    src = _workspace(tmp_path)
    outside = tmp_path / "secret.woff2"
    shutil.copy(LATO, outside)
    (src / "fonts" / "Lato.woff2").symlink_to(outside)
    result = build(src, tmp_path / "site")
    assert ["outside the workspace" in f.message for f in result.report.findings if f.rule == "font-file"] == [True]


def test_strict_fails_on_a_bad_font_file(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pinup.cli import cli

    src = _workspace(tmp_path)
    (src / "fonts" / "Lato.woff2").write_bytes(b"\x00" * 64)
    res = CliRunner().invoke(cli, ["build", str(src), "--out", str(tmp_path / "o"), "--strict"])
    assert res.exit_code == 1 and "Traceback" not in res.output


@pytest.mark.browser
def test_the_embedded_font_is_what_chromium_renders(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    src = _workspace(tmp_path)
    shutil.copy(LATO, src / "fonts" / "Lato.woff2")
    build(src, tmp_path / "site")
    page = browser.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto((tmp_path / "site" / "typography.html").as_uri())
    page.evaluate("document.fonts.ready")
    loaded = page.evaluate("[...document.fonts].filter(f => f.family.replace(/\"/g, '') === 'Lato').map(f => f.status)")
    assert loaded == ["loaded"]
    assert all(url.startswith("file://") for url in requests), requests
    page.close()
