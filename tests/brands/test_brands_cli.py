"""`pinup brands list|show` and `pinup init`, in process (CliRunner) and as a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pinup.cli import cli

ROOT = Path(__file__).resolve().parents[2]
BRAND_REFS = ROOT / "brand_refs"


def _run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-m", "pinup", *args], capture_output=True, text=True, timeout=120, cwd=cwd, env=env
    )


def test_list_json_matches_manifest() -> None:
    result = CliRunner().invoke(cli, ["brands", "list", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == json.loads((BRAND_REFS / "manifest.json").read_text(encoding="utf-8"))


def test_list_table_shows_every_brand() -> None:
    result = CliRunner().invoke(cli, ["brands", "list"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    for item in json.loads((BRAND_REFS / "manifest.json").read_text(encoding="utf-8")):
        assert item["slug"] in result.output
        assert item["name"] in result.output
    assert "25 brand references" in result.output


def test_list_category_filter() -> None:
    result = CliRunner().invoke(cli, ["brands", "list", "--format", "json", "--category", "fintech"])
    assert result.exit_code == 0
    slugs = {b["slug"] for b in json.loads(result.output)}
    assert {"stripe", "coinbase", "revolut"} <= slugs
    assert "nike" not in slugs


def test_list_rejects_unknown_format() -> None:
    result = CliRunner().invoke(cli, ["brands", "list", "--format", "xml"])
    assert result.exit_code == 2


def test_show_prints_the_design_md_verbatim() -> None:
    result = CliRunner().invoke(cli, ["brands", "show", "stripe"])
    assert result.exit_code == 0
    assert result.output == (BRAND_REFS / "stripe" / "DESIGN.md").read_text(encoding="utf-8")


def test_show_accepts_brand_name_and_path_flag() -> None:
    result = CliRunner().invoke(cli, ["brands", "show", "Cal.com", "--path"])
    assert result.exit_code == 0
    assert Path(result.output.strip()) == BRAND_REFS / "cal-com" / "DESIGN.md"


@pytest.mark.parametrize(("typo", "suggestion"), [("verce", "vercel"), ("spacx", "spacex"), ("cal", "cal-com")])
def test_show_unknown_slug_suggests(typo: str, suggestion: str) -> None:
    result = CliRunner().invoke(cli, ["brands", "show", typo])
    assert result.exit_code == 1
    assert f"Unknown brand '{typo}'" in result.output
    assert suggestion in result.output
    assert "Traceback" not in result.output


def test_show_refuses_path_like_slugs() -> None:
    result = CliRunner().invoke(cli, ["brands", "show", "../site_src"])
    assert result.exit_code == 1
    assert "Unknown brand" in result.output


def _check_workspace(root: Path, design_source: Path) -> None:
    from pinup.boards.spec import load_board

    assert (root / "DESIGN.md").read_text(encoding="utf-8") == design_source.read_text(encoding="utf-8")
    board = load_board(root / "boards" / "first-board")
    assert [v.id for v in board.spec.variants] == ["A", "B"]
    assert board.spec.round == 1


def test_init_default_uses_the_example(tmp_path: Path) -> None:
    target = tmp_path / "ws"
    result = CliRunner().invoke(cli, ["init", str(target)])
    assert result.exit_code == 0, result.output
    _check_workspace(target, ROOT / "site_src" / "DESIGN.md")
    html = (target / "boards/first-board/variants/a-centred-hero.html").read_text(encoding="utf-8")
    assert "#3d5a2a" in html  # the example's primary colour drives the variant
    assert "http://" not in html and "https://" not in html


def test_init_brand_variants_use_brand_colours(tmp_path: Path) -> None:
    from pinup.designmd.lint import lint_path

    result = CliRunner().invoke(cli, ["init", str(tmp_path), "--brand", "spotify"])
    assert result.exit_code == 0, result.output
    _check_workspace(tmp_path, BRAND_REFS / "spotify" / "DESIGN.md")
    colors = lint_path(tmp_path / "DESIGN.md").design.colors
    for name in ("a-centred-hero.html", "b-split-signup.html"):
        html = (tmp_path / "boards/first-board/variants" / name).read_text(encoding="utf-8")
        assert colors["primary"].hex in html
        assert colors["on-primary"].hex in html
        assert "<script" not in html


def test_init_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(cli, ["init", str(tmp_path)]).exit_code == 0
    (tmp_path / "DESIGN.md").write_text("mine", encoding="utf-8")
    again = runner.invoke(cli, ["init", str(tmp_path), "--brand", "ibm"])
    assert again.exit_code == 1
    assert "Refusing to overwrite" in again.output and "DESIGN.md" in again.output
    assert (tmp_path / "DESIGN.md").read_text(encoding="utf-8") == "mine"
    forced = runner.invoke(cli, ["init", str(tmp_path), "--brand", "ibm", "--force"])
    assert forced.exit_code == 0, forced.output
    _check_workspace(tmp_path, BRAND_REFS / "ibm" / "DESIGN.md")


def test_init_refuses_even_one_existing_file(tmp_path: Path) -> None:
    board = tmp_path / "boards" / "first-board"
    board.mkdir(parents=True)
    (board / "board.yaml").write_text("title: keep me\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["init", str(tmp_path)])
    assert result.exit_code == 1
    assert not (tmp_path / "DESIGN.md").exists(), "nothing is written when any target exists"
    assert (board / "board.yaml").read_text(encoding="utf-8") == "title: keep me\n"


def test_init_unknown_brand(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["init", str(tmp_path), "--brand", "ferari"])
    assert result.exit_code == 1
    assert "ferrari" in result.output
    assert list(tmp_path.iterdir()) == []


def test_subprocess_list_show_init(tmp_path: Path) -> None:
    listed = _run("brands", "list", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    assert len(json.loads(listed.stdout)) == 25
    table = _run("brands", "list")
    assert table.returncode == 0 and "raycast" in table.stdout
    shown = _run("brands", "show", "ferrari")
    assert shown.returncode == 0
    assert shown.stdout == (BRAND_REFS / "ferrari" / "DESIGN.md").read_text(encoding="utf-8")
    missing = _run("brands", "show", "nope-brand")
    assert missing.returncode == 1
    assert "Unknown brand 'nope-brand'" in missing.stderr
    made = _run("init", "--brand", "linear", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    _check_workspace(tmp_path, BRAND_REFS / "linear" / "DESIGN.md")
    lint = _run("lint", str(tmp_path / "DESIGN.md"))
    assert lint.returncode == 0
    assert json.loads(lint.stdout)["summary"]["errors"] == 0
