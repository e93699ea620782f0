"""Boards test helpers (imported by the boards tests): a fresh copy of the example workspace and a real `pinup serve` subprocess."""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "site_src"
PINUP = [sys.executable, "-m", "pinup"]


def copy_workspace(dest: Path) -> Path:
    """The bundled example, copied so tests never write into the repo."""
    src = dest / "ws"
    shutil.copytree(EXAMPLE, src, ignore=shutil.ignore_patterns(".pinup", "__pycache__"))
    return src


@dataclass
class Served:
    """A running `pinup serve` with its output captured line by line."""

    proc: subprocess.Popen[str]
    src: Path
    site: Path
    stderr_lines: list[str] = field(default_factory=list)
    stdout_q: queue.Queue[str] = field(default_factory=queue.Queue)
    port: int = 0
    url: str = ""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def store(self) -> Path:
        return self.src / ".pinup" / "feedback"

    def board_url(self, slug: str) -> str:
        return f"{self.base}/boards/{slug}/index.html"

    def next_stdout(self, timeout: float = 20) -> dict:
        return json.loads(self.stdout_q.get(timeout=timeout))

    def records(self, board: str) -> list[dict]:
        folder = self.store / board
        if not folder.is_dir():
            return []
        return [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait(timeout=10)


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
    cmd = [
        *PINUP,
        "serve",
        str(src),
        *([] if open_browser else ["--no-open"]),
        "--port",
        "0",
        "--out",
        str(site),
        *args,
    ]
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=src.parent,
        env={**os.environ, **(env or {})},
    )
    served = Served(proc=proc, src=src, site=site)
    started = threading.Event()

    def read_err() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            served.stderr_lines.append(line.rstrip("\n"))
            if line.startswith("SERVE_STARTED:"):
                fields = dict(p.split("=", 1) for p in line.split()[1:])
                served.port = int(fields["port"])
                served.url = fields["url"]
                started.set()

    def read_out() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            served.stdout_q.put(line)

    threading.Thread(target=read_err, daemon=True).start()
    threading.Thread(target=read_out, daemon=True).start()
    deadline = time.monotonic() + startup
    while not started.wait(0.1):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError("pinup serve did not start:\n" + "\n".join(served.stderr_lines))
    return served


def wait_until(predicate: object, timeout: float = 15, interval: float = 0.05) -> bool:
    """Wait for a condition in the outside world (a file, a process); never a speed assertion."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return True
        time.sleep(interval)
    return bool(predicate())  # type: ignore[operator]
