"""`pinup build` and `pinup gallery` through the console script's entry (`pinup.cli.main`): what they say,
the files they write and their exit status.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _pinup(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    script = "import sys; sys.argv = ['pinup', *sys.argv[1:]]; from pinup.cli import main; main()"
    return subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=300
    )


def test_build_says_what_it_wrote_and_exits_by_its_outcome(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "DESIGN.md").write_bytes((ROOT / "site_src" / "DESIGN.md").read_bytes())
    warned = tmp_path / "warned"
    warned.mkdir()
    (warned / "DESIGN.md").write_text("---\nname: Warned\ncolors:\n  accent: '#123456'\n---\n\n## Overview\n\nHi.\n")
    env = {**os.environ, "PINUP_CACHE_DIR": str(tmp_path / "cache")}

    built = _pinup("build", "ws", "--out=out", "--clean", env=env, cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert built.stdout == ""
    assert built.stderr.startswith("Built ") and " pages into out/ in " in built.stderr
    assert "lint: 0 errors" in built.stderr and (tmp_path / "out" / "index.html").is_file()

    strict = _pinup("build", str(warned / "DESIGN.md"), "--out", "strict", "--strict", env=env, cwd=tmp_path)
    assert strict.returncode == 1
    assert "error: --strict and the DESIGN.md has 0 errors and" in strict.stderr
    assert (tmp_path / "strict" / "index.html").is_file()  # the site is still written

    nowhere = _pinup("build", str(tmp_path / "nowhere"), "--out", "none", env=env, cwd=tmp_path)
    assert nowhere.returncode == 1
    assert nowhere.stderr.startswith("Error: workspace not found") and "Traceback" not in nowhere.stderr
    assert not (tmp_path / "none").exists()

    typo = _pinup("gallery", "--jobs", "-1", env=env, cwd=tmp_path)
    assert typo.returncode == 2 and "Invalid value for '--jobs' / '-j'" in typo.stderr


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
