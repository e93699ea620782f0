"""A real `pinup serve` subprocess for tests and bench/soak.py, started once SERVE_STARTED is printed.

One implementation for tests/boards, tests/serve and tests/reliability (their *_helpers modules
keep their own defaults on top of it). Its output is read line by line on two threads, each of
which closes its pipe when the process exits, so no test leaves an open pipe (or a ResourceWarning)
behind, even one that lets the server end on its own.
"""

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "site_src"
PINUP = [sys.executable, "-m", "pinup"]
BOARD = "trail-home"


def copy_example(dest: Path) -> Path:
    """The bundled example copied to `dest` (tests never write into the repo), without feedback or state."""
    shutil.copytree(EXAMPLE, dest, ignore=shutil.ignore_patterns(".pinup", "__pycache__"))
    return dest


@dataclass
class Served:
    """A running `pinup serve` with its output captured line by line."""

    proc: subprocess.Popen[str]
    src: Path | None = None
    site: Path | None = None
    port: int = 0
    url: str = ""
    stderr_lines: list[str] = field(default_factory=list)
    stdout_lines: list[str] = field(default_factory=list)
    stdout_q: queue.Queue[str] = field(default_factory=queue.Queue)
    stop_timeout: float = 20
    readers: list[threading.Thread] = field(default_factory=list)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def lines(self) -> list[str]:
        """stderr, line by line (where serve prints its SERVE_* lines)."""
        return self.stderr_lines

    @property
    def store(self) -> Path:
        assert self.src is not None
        return self.src / ".pinup" / "feedback"

    def has(self, prefix: str) -> list[str]:
        return [line for line in list(self.stderr_lines) if line.startswith(prefix)]

    def board_url(self, slug: str) -> str:
        return f"{self.base}/boards/{slug}/index.html"

    def next_stdout(self, timeout: float = 20) -> dict[str, Any]:
        return json.loads(self.stdout_q.get(timeout=timeout))  # type: ignore[no-any-return]

    def records(self, board: str) -> list[dict[str, Any]]:
        folder = self.store / board
        return [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))] if folder.is_dir() else []

    def stop(self) -> int:
        """SIGTERM (SIGKILL if it does not exit in time); returns the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout=self.stop_timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait(timeout=10)
        self.close()
        return code

    def kill9(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.close()

    def close(self) -> None:
        """Once the process has exited: wait for the readers to reach the end of its output."""
        for reader in self.readers:
            reader.join(timeout=10)


def _reader(stream: IO[str], sink: Callable[[str], None]) -> threading.Thread:
    """Feed each line to `sink`; at end of file (the process has exited) close the pipe."""

    def run() -> None:
        with stream:
            for line in stream:
                sink(line)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def start(
    args: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str] | None = None,
    src: Path | None = None,
    site: Path | None = None,
    capture_stdout: bool = True,
    startup: float = 60,
    stop_timeout: float = 20,
) -> Served:
    """`pinup ARGS` (a `serve` command line) in `cwd` with `env` added; returns once SERVE_STARTED is printed."""
    proc = subprocess.Popen(
        [*PINUP, *args],
        cwd=cwd,
        text=True,
        stdout=subprocess.PIPE if capture_stdout else subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )
    served = Served(proc=proc, src=src, site=site, stop_timeout=stop_timeout)
    started = threading.Event()

    def on_stderr(line: str) -> None:
        served.stderr_lines.append(line.rstrip("\n"))
        if line.startswith("SERVE_STARTED:"):
            fields = dict(p.split("=", 1) for p in line.split()[1:])
            served.port, served.url = int(fields["port"]), fields["url"]
            started.set()

    def on_stdout(line: str) -> None:
        served.stdout_lines.append(line)
        served.stdout_q.put(line)

    assert proc.stderr is not None
    served.readers.append(_reader(proc.stderr, on_stderr))
    if proc.stdout is not None:
        served.readers.append(_reader(proc.stdout, on_stdout))
    deadline = time.monotonic() + startup
    while not started.wait(0.1):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            proc.wait(timeout=10)
            served.close()
            raise AssertionError("pinup serve did not start:\n" + "\n".join(served.stderr_lines))
    return served


def wait_until(predicate: Callable[[], object], timeout: float = 30, interval: float = 0.05) -> bool:
    """Wait for a condition in the outside world (a file, a line, a process); never a speed assertion."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())
