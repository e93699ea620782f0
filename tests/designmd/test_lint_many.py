"""`pinup lint` on many files in one process."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from cli_runner import run_forked as run_pinup  # output-only: forks of a warm `pinup` (tests/cli_runner.py)
from click.testing import CliRunner
from helpers_designmd import CORPUS

from pinup.cli import cli

FILES = [CORPUS / "refs.md", CORPUS / "full-ok.md", CORPUS / "colors-syntax.md"]


def test_many_files_report_each_file_as_a_single_run_would() -> None:
    result = run_pinup("lint", *map(str, FILES))
    many = json.loads(result.stdout)
    singles = [json.loads(run_pinup("lint", str(path)).stdout) for path in FILES]
    assert [entry["file"] for entry in many["files"]] == [str(path) for path in FILES]
    assert [{k: e[k] for k in ("findings", "summary")} for e in many["files"]] == singles
    errors = sum(single["summary"]["errors"] for single in singles)
    assert many["summary"] == {
        "files": 3,
        "unreadable": 0,
        "errors": errors,
        "warnings": sum(s["summary"]["warnings"] for s in singles),
        "infos": sum(s["summary"]["infos"] for s in singles),
    }
    assert result.returncode == (1 if errors else 0)


def test_many_files_text_and_markdown_end_with_a_total() -> None:
    text = run_pinup("lint", "--format", "text", str(FILES[0]), str(FILES[1])).stdout.decode()
    assert f"{FILES[0]}:" in text and text.rstrip().splitlines()[-1].startswith("Total: 2 files: ")
    md = run_pinup("lint", "--format", "md", str(FILES[0]), str(FILES[1])).stdout.decode()
    assert md.count("# Lint Report: ") == 2 and md.rstrip().endswith("**")


def test_an_unreadable_file_is_reported_and_the_others_still_linted(tmp_path: Path) -> None:
    missing = tmp_path / "missing.md"
    result = run_pinup("lint", str(FILES[1]), str(missing))
    assert result.returncode == 2
    assert f'"{missing}" not found' in result.stderr.decode()
    report = json.loads(result.stdout)
    assert [e["file"] for e in report["files"]] == [str(FILES[1])] and report["summary"]["unreadable"] == 1


def test_recursive_folder_lints_every_md_file_but_hidden_ones(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / ".git").mkdir()
    shutil.copy(FILES[1], tmp_path / "a" / "one.md")
    shutil.copy(FILES[0], tmp_path / "a" / "b" / "two.md")
    shutil.copy(FILES[0], tmp_path / ".git" / "hidden.md")
    (tmp_path / "notes.txt").write_text("not markdown")
    report = json.loads(run_pinup("lint", "-r", str(tmp_path)).stdout)
    assert [e["file"] for e in report["files"]] == [
        str(tmp_path / "a" / "b" / "two.md"),
        str(tmp_path / "a" / "one.md"),
    ]
    lone = run_pinup("lint", str(tmp_path))  # without -r a folder is the reference's read error
    assert lone.returncode == 2 and b"EISDIR" in lone.stderr


def test_the_console_script_prints_what_the_click_group_prints() -> None:
    runner = CliRunner()
    for args in (
        ["lint", str(FILES[0])],
        ["lint", "--format=TEXT", str(FILES[0])],
        ["lint", str(FILES[0]), "--extended", "--format", "md"],
        ["lint", str(FILES[1]), str(FILES[0])],
        ["lint", "nope.md"],
    ):
        script = run_pinup(*args)
        group = runner.invoke(cli, args)
        assert script.returncode == group.exit_code, args
        assert script.stdout.decode() == group.stdout, args
