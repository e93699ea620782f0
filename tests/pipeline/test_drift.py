"""`pinup drift`: hard-coded values in every supported language, found at their exact positions.

drift_tree/ holds a DESIGN.md and one file per language (CSS, SCSS, Sass, Less, HTML, JS, TSX, JSX, TS, Vue,
Svelte); drift_tree/expected.json lists every finding, reviewed by hand, so a new case is a text edit.
"""

from __future__ import annotations

import io
import json
import os
import time
from pathlib import Path

import pytest
from cli_runner import run_forked as run_pinup

from pinup.drift import scan
from pinup.drift.match import COLOR_NEAR, match
from pinup.drift.run import load_tokens, main, scan_text

HERE = Path(__file__).resolve().parent
TREE = HERE / "drift_tree"
EXPECTED = json.loads((TREE / "expected.json").read_text("utf-8"))
KEYS = ("file", "line", "column", "rule", "value", "match", "token", "cssVar", "tailwindClass")


def drift(*args: str, cwd: Path = TREE) -> tuple[int, str, str]:
    """`pinup drift ARGS` in-process from `cwd` (main(), the body of the click command)."""
    out, err = io.StringIO(), io.StringIO()
    before = os.getcwd()
    os.chdir(cwd)
    try:
        paths = [a for a in args if not a.startswith("--")]
        options = dict(a[2:].split("=", 1) for a in args if a.startswith("--"))
        code = main(
            paths,
            design=options.get("design"),
            baseline_path=options.get("baseline"),
            write_baseline=options.get("write-baseline"),
            fmt=options.get("format", "text"),
            stdout=out,
            stderr=err,
        )
    finally:
        os.chdir(before)
    return code, out.getvalue(), err.getvalue()


def test_every_language_reports_each_value_at_its_exact_position() -> None:
    code, out, err = drift("src", "--format=json")
    assert code == 1 and err == ""
    report = json.loads(out)
    assert [{k: d[k] for k in KEYS} for d in report["drift"]] == EXPECTED
    assert report["files"] == 11 and report["tokens"] == 12
    suffixes = {Path(d["file"]).suffix for d in EXPECTED}
    assert suffixes == {".css", ".scss", ".sass", ".less", ".html", ".js", ".tsx", ".jsx", ".ts", ".vue", ".svelte"}


@pytest.mark.parametrize("finding", EXPECTED, ids=lambda d: f"{d['file']}:{d['line']}:{d['column']}")
def test_each_position_points_at_the_value_in_the_file(finding: dict[str, object]) -> None:
    lines = (TREE / str(finding["file"])).read_text("utf-8").splitlines()
    line, column, value = int(str(finding["line"])), int(str(finding["column"])), str(finding["value"])
    assert lines[line - 1][column - 1 : column - 1 + len(value)] == value


def test_what_is_not_a_colour_is_not_reported() -> None:
    """`#id` selectors, `href="#x"` fragments, private `#fields`, `url(#gradient)` and `transparent`."""
    text = (
        "#fade { color: transparent; }\n"
        '<a href="#add">x</a><rect fill="url(#abc)"/>\n'
        "class C { #bad = 1; m() { this.#bad(); } }\n"
        "&#123; #12345 #1234567\n"
    )
    _, index = load_tokens(str(TREE / "DESIGN.md"))
    assert scan_text("x.html", text, index, uri="x.html") == []


def test_minified_files_keep_true_columns() -> None:
    _, index = load_tokens(str(TREE / "DESIGN.md"))
    rule = ".a{color:#0b57d0}"
    text = rule * 5000 + "\n" + ".b{padding:16px}"
    drifts = scan_text("site.min.css", text, index, uri="site.min.css")
    assert len(drifts) == 5001
    assert [(d.line, d.column) for d in drifts[:3]] == [(1, 10), (1, 10 + len(rule)), (1, 10 + 2 * len(rule))]
    assert (drifts[4999].line, drifts[4999].column) == (1, 10 + 4999 * len(rule))
    assert (drifts[-1].line, drifts[-1].column, drifts[-1].literal.text) == (2, 12, "16px")


@pytest.mark.parametrize(
    "text",
    [
        "padding: " + "9" * 200_000 + "x;",
        "color: #" + "a" * 200_000,
        "color: rgb(" + "1 " * 100_000,
        "a" * 200_000 + ": 1",
        "fontSize: " + "1" * 200_000 + ".",
        "color: rgb(" * 20_000,
    ],
    ids=["digits", "hex", "open-function", "long-name", "js-number", "nested-open"],
)
def test_long_runs_do_not_backtrack(text: str) -> None:
    """Each would take minutes with a backtracking pattern; linear scanning takes milliseconds."""
    _, index = load_tokens(str(TREE / "DESIGN.md"))
    for suffix in (".css", ".tsx"):
        start = time.process_time()
        scan_text(f"x{suffix}", text, index, uri="x")
        assert time.process_time() - start < 2.0


def test_colour_distance_threshold_is_oklab_delta_e() -> None:
    _, index = load_tokens(str(TREE / "DESIGN.md"))
    near = match(scan.Literal(scan.COLOR, "#0b58d0", 0, 7, None), index)
    far = match(scan.Literal(scan.COLOR, "#2b77f0", 0, 7, None), index)
    assert near is not None and near.kind == "near" and 0 < near.distance <= COLOR_NEAR
    assert near.token is not None and near.token.path == "colors.primary"
    assert far is not None and far.kind == "none"


def test_baseline_fails_only_on_new_drift(tmp_path: Path) -> None:
    work = tmp_path / "app"
    (work / "src").mkdir(parents=True)
    (work / "DESIGN.md").write_bytes((TREE / "DESIGN.md").read_bytes())
    css = work / "src" / "a.css"
    css.write_text(".a { color: #0b57d0; padding: 13px; }\n", "utf-8")
    code, _, err = drift("src", "--write-baseline=drift-baseline.json", cwd=work)
    assert code == 0 and "wrote 2 drifts" in err
    recorded = json.loads((work / "drift-baseline.json").read_text("utf-8"))
    assert recorded["drift"] == [
        {"file": "src/a.css", "rule": "drift-color", "value": "#0b57d0", "count": 1},
        {"file": "src/a.css", "rule": "drift-spacing", "value": "13px", "count": 1},
    ]
    assert drift("src", "--baseline=drift-baseline.json", cwd=work)[:2] == (
        0,
        "0 new drifts (2 in the baseline) in 1 file\n",
    )
    css.write_text("/* moved */\n.a { color: #0b57d0; padding: 13px; }\n.b { color: #0b57d0; }\n", "utf-8")
    code, out, _ = drift("src", "--baseline=drift-baseline.json", cwd=work)
    assert code == 1
    assert out.splitlines() == [
        "src/a.css:3:13: drift-color #0b57d0 equals colors.primary (#0b57d0): use var(--color-primary) "
        "or Tailwind text-primary",
        "",
        "1 new drift (2 in the baseline) in 1 file",
    ]


def test_skipped_files_are_noted_never_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "DESIGN.md").write_bytes((TREE / "DESIGN.md").read_bytes())
    (tmp_path / "big.css").write_bytes(b".a{color:#0b57d0}\n" * (5 * 1024 * 1024 // 18 + 10))
    (tmp_path / "logo.js").write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0")
    (tmp_path / "latin1.css").write_bytes(b".a { content: '\xe9'; color: #0b57d0; }")
    (tmp_path / "ok.css").write_text(".a { color: #0b57d0; }", "utf-8")
    code, out, err = drift(".", cwd=tmp_path)
    assert code == 1
    assert err.splitlines() == [
        "pinup drift: skipped ./big.css: larger than 5 MB (5.0 MB)",
        "pinup drift: skipped ./latin1.css: not UTF-8 (byte 15)",
        "pinup drift: skipped ./logo.js: binary",
    ]
    assert out.endswith("1 drift in 1 file, 3 skipped\n")


def test_a_design_without_tokens_cannot_run(tmp_path: Path) -> None:
    (tmp_path / "DESIGN.md").write_text("---\nname: Empty\n---\n\n## Overview\n\nNothing yet.\n", "utf-8")
    (tmp_path / "a.css").write_text(".a { color: red; }", "utf-8")
    code, out, err = drift("a.css", cwd=tmp_path)
    assert (code, out) == (2, "")
    assert "DESIGN.md has no tokens to compare with" in err


def test_clean_code_exits_zero(tmp_path: Path) -> None:
    (tmp_path / "a.css").write_text(".a { color: var(--color-primary); padding: var(--spacing-md); }", "utf-8")
    code, out, _ = drift("a.css", f"--design={TREE / 'DESIGN.md'}", cwd=tmp_path)
    assert (code, out) == (0, "0 drifts in 1 file\n")


def test_the_command_line_wires_options_and_exit_status(tmp_path: Path) -> None:
    """Through the real `pinup` entry point: click options, the nearest DESIGN.md, exit 2 on bad input."""
    design = str(TREE / "DESIGN.md")
    done = run_pinup("drift", str(TREE / "src" / "app.js"), "--design", design, "--format", "json")
    assert done.returncode == 1
    assert [d["value"] for d in json.loads(done.stdout)["drift"]] == ["24", "#0B57D0", "Roboto", "16px", "8"]
    missing = run_pinup("drift", str(tmp_path / "nope"), "--design", design)
    assert missing.returncode == 2 and b"not found" in missing.stderr
    no_design = run_pinup("drift", "/", "--design", str(tmp_path / "DESIGN.md"))
    assert no_design.returncode == 2 and b"not found" in no_design.stderr
    assert b"Traceback" not in missing.stderr + no_design.stderr
