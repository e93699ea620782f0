"""A `pinup` process ends without the interpreter's last full garbage collection (pinup.cli.main).

Why it matters: after `pinup serve` or a build, that collection walked the whole heap between the
command's last line and the process's exit (0.2-0.9 s on a 2-core machine), every time a server
was stopped. The check is structural, never a timing: by the time atexit handlers run, the heap
has been frozen, and the command's output and exit status are unchanged.

One-shot commands also run without the cyclic collector (their start-up's passes over objects
that live until exit found nothing to free); servers and waits keep it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import atexit, gc, sys
atexit.register(lambda: sys.stderr.write("FROZEN %d COLLECTOR %d\\n" % (gc.get_freeze_count(), gc.isenabled())))
sys.argv = ["pinup", *sys.argv[1:]]
from pinup.cli import main
main()
"""


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=120, cwd=ROOT)


def _frozen(proc: subprocess.CompletedProcess[str]) -> int:
    """How many objects were frozen when the atexit handlers ran (-1: the probe did not report)."""
    lines = [line for line in proc.stderr.splitlines() if line.startswith("FROZEN ")]
    return int(lines[-1].split()[1]) if lines else -1


def _collector(proc: subprocess.CompletedProcess[str]) -> bool | None:
    """Whether the cyclic garbage collector was on when the atexit handlers ran."""
    lines = [line for line in proc.stderr.splitlines() if line.startswith("FROZEN ")]
    return bool(int(lines[-1].split()[3])) if lines else None


def test_a_command_exits_with_the_heap_frozen_and_its_output_intact() -> None:
    proc = _run("export", "--format", "dtcg", str(ROOT / "site_src" / "DESIGN.md"))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["$schema"]
    assert _frozen(proc) > 1000, proc.stderr


def test_a_failing_command_keeps_its_exit_status() -> None:
    proc = _run("build", "/nonexistent/workspace")
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert _frozen(proc) > 1000, proc.stderr


def test_one_shot_commands_run_without_the_collector_and_long_lived_ones_keep_it() -> None:
    export = _run("export", "--format", "css-vars", str(ROOT / "site_src" / "DESIGN.md"))
    assert export.returncode == 0 and ":root" in export.stdout, export.stderr
    assert _collector(export) is False
    for command in ("serve", "wait", "mcp", "generate"):
        proc = _run(command, "--help")
        assert proc.returncode == 0, proc.stderr
        assert _collector(proc) is True, command
