"""`pinup build` and `pinup gallery` run their plain command lines without click, and nothing else changes.

`pinup.cli.buildrun.fast_build` must take only command lines it reads exactly as click reads them,
leave every other one to click (help, typos, bad values, repeated options), know the same options
as the click commands, and give the same output, files and exit status as the click commands do.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

from pinup.cli.build import build, gallery
from pinup.cli.buildrun import ARGUMENTS, OPTIONS, parse

ROOT = Path(__file__).resolve().parent.parent

#: the command line through `pinup.cli.main` (the console script); reports whether click was imported
MAIN = """
import atexit, sys
atexit.register(lambda: sys.stdout.write("CLICK %d\\n" % ("click" in sys.modules)))
sys.argv = ["pinup", *sys.argv[1:]]
from pinup.cli import main
main()
"""
#: the same command line through the click group alone
CLICK = """
import sys
from pinup.cli.group import cli
cli(sys.argv[1:], prog_name="pinup")
"""


@pytest.mark.parametrize("command", [build, gallery], ids=["build", "gallery"])
def test_the_fast_path_knows_every_option_of_the_click_command(command: click.Command) -> None:
    name = command.name or ""
    known = OPTIONS[name]
    seen: set[str] = set()
    for param in command.params:
        if isinstance(param, click.Argument):
            assert ARGUMENTS[name] == param.name
            continue
        assert isinstance(param, click.Option)
        for opt in param.opts:
            assert opt in known, opt
            parameter, kind = known[opt]
            assert parameter == param.name
            assert (kind == "flag") == param.is_flag, opt
            seen.add(opt)
    assert seen == set(known)
    if ARGUMENTS[name] is None:
        assert not any(isinstance(p, click.Argument) for p in command.params)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["build"], {}),
        (["build", "ws", "--out", "o", "--clean"], {"src": Path("ws"), "out": Path("o"), "clean": True}),
        (["build", "--out=o", "--fonts", "google", "ws"], {"out": Path("o"), "fonts": "google", "src": Path("ws")}),
        (["build", "--api-url", "http://127.0.0.1:9/api", "--results"], {"api_url": "http://127.0.0.1:9/api"}),
        (["gallery", "--jobs", "0", "--out", "g"], {"jobs": 0, "out": Path("g")}),
        (["gallery", "-j", "3", "--fonts=system"], {"jobs": 3, "fonts": "system"}),
    ],
)
def test_plain_command_lines_are_parsed_as_click_parses_them(args: list[str], expected: dict[str, object]) -> None:
    parsed = parse(args[0], args[1:])
    assert parsed is not None
    assert {k: v for k, v in parsed.items() if k in expected} == expected
    if args[0] == "build" and "--results" in args:
        assert parsed["results"] is True


@pytest.mark.parametrize(
    "args",
    [
        ["build", "--help"],
        ["build", "-h"],
        ["build", "--out"],  # no value
        ["build", "--out", "--clean"],  # a value that reads as an option
        ["build", "--out="],
        ["build", "--clean", "--clean"],  # repeated: click takes the last
        ["build", "--clean=yes"],
        ["build", "--fonts", "serif"],
        ["build", "--templates", "no/such/folder"],
        ["build", "one", "two"],
        ["build", "--", "ws"],
        ["build", "-"],
        ["build", "--outt", "o"],
        ["gallery", "ws"],
        ["gallery", "--jobs", "-1"],
        ["gallery", "--jobs", "two"],
        ["gallery", "--jobs", "٣"],  # a digit int() reads, click's IntRange too: left to click all the same
        ["gallery", "-j2"],
        ["gallery", "--strict"],
    ],
)
def test_anything_else_is_left_to_click(args: list[str]) -> None:
    assert parse(args[0], args[1:]) is None


def _run(script: str, args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=300
    )


def _said(text: str) -> str:
    """Output without its timings (the only part two runs may differ in)."""
    return re.sub(r"in [0-9.]+s", "in Ns", text)


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_build_and_gallery_give_what_the_click_commands_give(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    shutil.copy(ROOT / "site_src" / "DESIGN.md", ws / "DESIGN.md")
    warned = tmp_path / "warned"
    warned.mkdir()
    (warned / "DESIGN.md").write_text("---\nname: Warned\ncolors:\n  accent: '#123456'\n---\n\n## Overview\n\nHi.\n")
    brands = tmp_path / "brands"
    shutil.copytree(ROOT / "brand_refs", brands)
    env = {
        **os.environ,
        "PINUP_CACHE_DIR": str(tmp_path / "cache"),
        "PINUP_BRAND_REFS": str(brands),
    }
    env.pop("PINUP_NO_CACHE", None)
    cases = [
        (0, ["build", str(ws), "--out", "{out}", "--clean"]),
        (1, ["build", str(warned / "DESIGN.md"), "--out={out}", "--strict"]),  # lint warnings
        (1, ["build", str(tmp_path / "nowhere"), "--out", "{out}"]),  # no workspace
        (0, ["gallery", "--out", "{out}", "--fonts", "system"]),
    ]
    for number, (status, case) in enumerate(cases):
        outs = {}
        for way, script in (("main", MAIN), ("click", CLICK)):
            out = tmp_path / f"{way}-{number}"
            args = [arg.replace("{out}", str(out)) for arg in case]
            done = _run(script, args, env, tmp_path)
            outs[way] = (done, out)
        (fast, fast_out), (slow, slow_out) = outs["main"], outs["click"]
        assert fast.returncode == slow.returncode == status, (case, fast.stderr, slow.stderr)
        assert _said(fast.stderr).replace(fast_out.name, "OUT") == _said(slow.stderr).replace(slow_out.name, "OUT")
        assert fast.stdout == "CLICK 0\n", case  # the command line never needed click
        assert slow.stdout == ""
        if "nowhere" in case[1]:
            assert fast.stderr.startswith("Error: workspace not found") and not fast_out.exists()
        else:
            assert _tree(fast_out) and _tree(fast_out) == _tree(slow_out), case


def test_a_terminal_sees_a_progress_bar_while_the_gallery_builds(tmp_path: Path) -> None:
    """On a terminal, long builds draw a progress bar on stderr (rich), then say what they built."""
    import pty

    env = {**os.environ, "PINUP_CACHE_DIR": str(tmp_path / "cache"), "COLUMNS": "100"}
    env.pop("PINUP_NO_CACHE", None)
    primary, secondary = pty.openpty()
    chunks = []
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "pinup", "gallery", "--out", str(tmp_path / "g")],
            stdout=subprocess.PIPE,
            stderr=secondary,
            env=env,
            cwd=tmp_path,
        )
        os.close(secondary)  # the child holds the terminal now: reading ends when it exits
        while True:  # read as it writes, so a slow build never fills the terminal's buffer
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # EIO: the child closed its end
                break
            if not chunk:
                break
            chunks.append(chunk)
        stdout, _ = child.communicate(timeout=300)
        status = child.returncode
    finally:
        os.close(primary)
    shown = b"".join(chunks).decode("utf-8", "replace")
    assert status == 0, shown
    assert "Building " in shown and "\u2501" in shown  # the bar's "━" segments
    assert "Built 25 brand sites into" in shown
    assert stdout == b""
