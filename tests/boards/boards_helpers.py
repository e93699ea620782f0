"""Boards test helpers: a fresh copy of the example workspace and a real `pinup serve` subprocess
(tests/serve_process.py)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import httpx
import serve_process
from serve_process import EXAMPLE, PINUP, Served

__all__ = ["EXAMPLE", "PINUP", "Served"]


def rebuild(served: Served) -> subprocess.CompletedProcess[str]:
    """`pinup build` of the served workspace into its site, as an agent runs it between rounds
    (it tells the running server, which reloads the boards whose build changed)."""
    proc = subprocess.run(
        [*PINUP, "build", str(served.src), "--out", str(served.site)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return proc


def post_reload(served: Served, board: str) -> None:
    """The documented `POST /api/reload`, with the token from serve.json (what `reload_board` sends)."""
    token = json.loads((served.site / "serve.json").read_text())["token"]
    r = httpx.post(f"{served.base}/api/reload", json={"board": board}, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text


def copy_workspace(dest: Path) -> Path:
    """The bundled example, copied so tests never write into the repo."""
    return serve_process.copy_example(dest / "ws")


def start_serve(
    src: Path,
    *args: str,
    site: Path | None = None,
    env: dict[str, str] | None = None,
    startup: float = 60,
    open_browser: bool = False,
) -> Served:
    """Start `pinup serve SRC --no-open --port 0 ARGS` and wait for SERVE_STARTED."""
    site = site or src.parent / "site"
    cmd = ["serve", str(src), *([] if open_browser else ["--no-open"]), "--port", "0", "--out", str(site), *args]
    return serve_process.start(cmd, cwd=src.parent, env=env, src=src, site=site, startup=startup)


def wait_until(predicate: Callable[[], object], timeout: float = 15, interval: float = 0.05) -> bool:
    """Wait for a condition in the outside world (a file, a process); never a speed assertion."""
    return serve_process.wait_until(predicate, timeout, interval)
