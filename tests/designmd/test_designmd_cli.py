"""`pinup lint|export|diff` as real subprocesses: formats, stdin, exit codes, colour rules."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest
from helpers_designmd import CORPUS, HERE, run_pinup


def test_lint_json_default_and_exit_codes() -> None:
    ok = run_pinup("lint", str(CORPUS / "full-ok.md"))
    assert ok.returncode == 0
    report = json.loads(ok.stdout)
    assert list(report) == ["findings", "summary"] and report["summary"]["errors"] == 0
    assert ok.stdout.endswith(b"}\n") and b'\n  "findings"' in ok.stdout
    bad = run_pinup("lint", str(CORPUS / "refs.md"))
    assert bad.returncode == 1 and json.loads(bad.stdout)["summary"]["errors"] > 0
    warn_only = run_pinup("lint", str(CORPUS / "invalid-yaml.md"))
    assert warn_only.returncode == 0 and json.loads(warn_only.stdout)["summary"]["warnings"] == 1


def test_lint_reads_stdin() -> None:
    text = (CORPUS / "refs.md").read_bytes()
    from_stdin = run_pinup("lint", "-", input=text)
    from_file = run_pinup("lint", str(CORPUS / "refs.md"))
    assert from_stdin.returncode == 1
    assert from_stdin.stdout == from_file.stdout


@pytest.mark.parametrize("target", ["missing.md", "."])
def test_unreadable_file_exits_2_with_one_line(target: str, tmp_path: Path) -> None:
    path = tmp_path / target
    result = run_pinup("lint", str(path))
    assert result.returncode == 2
    assert result.stdout == b""
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f'Error: "{path}"')
    assert b"Traceback" not in result.stderr


def test_markdown_format() -> None:
    result = run_pinup("lint", str(CORPUS / "refs.md"), "--format", "markdown")
    text = result.stdout.decode()
    assert text.startswith("# Lint Report\n\n**7 errors**, **5 warnings**, **1 infos**\n\n## Findings\n\n")
    assert "- **error** `colors.invalid`: '#GGG' is not a valid color." in text
    assert run_pinup("lint", str(CORPUS / "refs.md"), "--format", "md").stdout == result.stdout


def test_text_format_has_lines_and_no_colour_when_piped() -> None:
    result = run_pinup("lint", str(CORPUS / "refs.md"), "--format", "text")
    text = result.stdout.decode()
    assert result.returncode == 1
    assert f"{CORPUS / 'refs.md'}:12: error colors.invalid: '#GGG' is not a valid color." in text
    assert "[broken-ref] components.card" in text
    assert text.endswith("7 errors, 5 warnings, 1 info\n--extended would add 9 findings (8 errors, 1 info)\n")
    assert "\x1b[" not in text


def test_text_format_counts_extended_findings_and_json_does_not() -> None:
    source = str(CORPUS / "prose-mismatch.md")
    plain = json.loads(run_pinup("lint", source).stdout)
    extended = json.loads(run_pinup("lint", "--extended", source).stdout)
    added = len(extended["findings"]) - len(plain["findings"])
    assert added > 0
    text = run_pinup("lint", source, "--format", "text").stdout.decode()
    last = text.splitlines()[-1]
    assert last.startswith(f"--extended would add {added} findings (")
    assert "--extended" not in run_pinup("lint", source).stdout.decode()
    assert "--extended" not in run_pinup("lint", source, "--format", "md").stdout.decode()
    with_extended = run_pinup("lint", "--extended", source, "--format", "text").stdout.decode()
    assert with_extended.splitlines()[-1] == f"({added} findings above from --extended)"
    full = run_pinup("lint", str(CORPUS / "full-ok.md"), "--format", "text").stdout.decode()
    assert full.splitlines()[-1] == "--extended would add 1 finding (1 info)"  # button-primary's missing states
    no_states = (CORPUS / "full-ok.md").read_bytes().replace(b"button-primary-hover:", b"card:")
    clean = run_pinup("lint", "-", "--format", "text", input=no_states).stdout.decode()
    assert clean.splitlines()[-1] == "--extended would add no findings"


def _run_in_tty(args: list[str], env: dict[str, str]) -> str:
    primary, secondary = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "pinup", *args], stdout=secondary, stderr=secondary, env=env)
    os.close(secondary)
    chunks = []
    while True:
        ready, _, _ = select.select([primary], [], [], 30)
        if not ready:
            break
        try:
            data = os.read(primary, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=30)
    os.close(primary)
    return b"".join(chunks).decode()


def test_text_format_colours_only_on_a_tty_without_no_color() -> None:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    args = ["lint", str(CORPUS / "refs.md"), "--format", "text"]
    assert "\x1b[31merror" in _run_in_tty(args, env)
    assert "\x1b[" not in _run_in_tty(args, {**env, "NO_COLOR": "1"})
    assert "\x1b[" not in _run_in_tty(args, {**env, "NO_COLOR": ""})


def test_extended_adds_checks_only_when_asked() -> None:
    plain = json.loads(run_pinup("lint", str(CORPUS / "prose-mismatch.md")).stdout)
    extended = json.loads(run_pinup("lint", "--extended", str(CORPUS / "prose-mismatch.md")).stdout)
    rules = {f.get("rule") for f in extended["findings"]} - {f.get("rule") for f in plain["findings"]}
    assert rules == {"prose-color-mismatch", "on-color-contrast", "duplicate-section", "font-weight-range"}


@pytest.mark.parametrize("command", [[], ["lint"], ["export"], ["diff"]])
def test_help_everywhere(command: list[str]) -> None:
    result = run_pinup(*command, "--help")
    assert result.returncode == 0
    assert b"Usage:" in result.stdout


def test_export_invalid_format_matches_reference_shape(tmp_path: Path) -> None:
    result = run_pinup("export", "--format", "nope", str(tmp_path / "never-read.md"))
    assert result.returncode == 1 and result.stdout == b""
    assert json.loads(result.stderr) == {
        "error": "INVALID_FORMAT",
        "message": 'Invalid format "nope". Valid formats: css-tailwind, json-tailwind, tailwind, dtcg, css-vars',
    }


def test_export_unreadable_file_exits_2(tmp_path: Path) -> None:
    result = run_pinup("export", "--format", "css-vars", str(tmp_path / "missing.md"))
    assert result.returncode == 2 and b"not found" in result.stderr


def test_export_maps_export_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    import pinup.designmd.exporters as exporters
    from pinup.cli.designmd import export

    def failing(fmt: str, design: object, *, prefix: str | None = None, modes: bool = False) -> str:
        raise exporters.ExportError("INVALID_TOKEN_NAME", 'Token name "a.b" is not valid.')

    monkeypatch.setattr(exporters, "render", failing)
    monkeypatch.setattr(exporters, "render_result", failing, raising=False)
    result = CliRunner().invoke(export, ["--format", "css-tailwind", str(CORPUS / "full-ok.md")])
    assert result.exit_code == 1
    assert json.loads(result.stderr) == {"error": "INVALID_TOKEN_NAME", "message": 'Token name "a.b" is not valid.'}


def test_export_css_vars_from_stdin() -> None:
    result = run_pinup(
        "export", "--format", "css-vars", "--prefix", "ds", "-", input=(CORPUS / "full-ok.md").read_bytes()
    )
    assert result.returncode == 0
    assert "  --ds-color-primary: #0b57d0;" in result.stdout.decode()


def test_diff_exit_codes() -> None:
    before, after = HERE / "diffpairs" / "before.md", HERE / "diffpairs" / "after.md"
    worse = run_pinup("diff", str(before), str(after))
    assert worse.returncode == 1
    data = json.loads(worse.stdout)
    assert data["regression"] is True
    assert data["tokens"]["colors"] == {"added": ["added"], "removed": ["removed"], "modified": ["primary", "alias"]}
    assert data["tokens"]["typography"]["modified"] == ["h1"]  # "400" vs 400 is the same weight
    better = run_pinup("diff", str(after), str(before))
    assert better.returncode == 0 and json.loads(better.stdout)["regression"] is False
    same = run_pinup("diff", str(before), "-", input=before.read_bytes())
    assert same.returncode == 0
    assert json.loads(same.stdout)["findings"]["delta"] == {"errors": 0, "warnings": 0}


def test_python_dash_m_works() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pinup", "lint", str(CORPUS / "full-ok.md")], capture_output=True, timeout=120
    )
    assert result.returncode == 0 and json.loads(result.stdout)["summary"]["errors"] == 0


def test_lone_surrogates_never_crash_output() -> None:
    """YAML escapes can produce lone surrogates; Node escapes them in JSON and prints U+FFFD elsewhere."""
    path = str(CORPUS / "surrogates.md")
    lint_json = run_pinup("lint", path)
    assert lint_json.returncode == 1 and b"\\ud800x" in lint_json.stdout
    for fmt in ("md", "text"):
        assert "\ufffd" in run_pinup("lint", path, "--format", fmt).stdout.decode()
    css = run_pinup("export", "--format", "css-vars", path)
    assert css.returncode == 0 and "--color-\ufffd: #ff0000;" in css.stdout.decode()
    tailwind = run_pinup("export", "--format", "json-tailwind", path)
    assert tailwind.returncode == 0 and json.loads(tailwind.stdout)["theme"]["extend"]["colors"]
