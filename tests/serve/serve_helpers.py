"""Helpers for the serve tests: a copy of the example workspace and a real `pinup serve` subprocess
started exactly as a person would (no --out, no --port unless a test asks)."""

from __future__ import annotations

import json
import os
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
BOARD = "trail-home"


def copy_example(dest: Path) -> Path:
    """The example as `dest/site_src` (the layout of a checkout), without feedback or state."""
    src = dest / "site_src"
    shutil.copytree(EXAMPLE, src, ignore=shutil.ignore_patterns(".pinup", "__pycache__"))
    return src


def run_pinup(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PINUP, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout, env={**os.environ, "DISPLAY": ""}
    )


@dataclass
class Server:
    """A running `pinup serve` with its stderr captured line by line."""

    proc: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)
    port: int = 0
    url: str = ""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def has(self, prefix: str) -> list[str]:
        return [line for line in list(self.lines) if line.startswith(prefix)]

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait(timeout=10)


def start(cwd: Path, *args: str, startup: float = 90) -> Server:
    """`pinup serve ARGS` in `cwd`; returns once SERVE_STARTED is printed."""
    proc = subprocess.Popen(
        [*PINUP, "serve", *args],
        cwd=cwd,
        text=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "DISPLAY": ""},
    )
    server = Server(proc=proc)
    started = threading.Event()

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            server.lines.append(line.rstrip("\n"))
            if line.startswith("SERVE_STARTED:"):
                fields = dict(p.split("=", 1) for p in line.split()[1:])
                server.port, server.url = int(fields["port"]), fields["url"]
                started.set()

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + startup
    while not started.wait(0.1):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError("pinup serve did not start:\n" + "\n".join(server.lines))
    return server


def wait_until(predicate: object, timeout: float = 30, interval: float = 0.05) -> bool:
    """Wait for a condition in the outside world (a file, a line); never a speed assertion."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return True
        time.sleep(interval)
    return bool(predicate())  # type: ignore[operator]


def write_round_two(ws: Path, board: str = BOARD) -> None:
    """What an agent does for the next round: new variant files and board.yaml pointing at them."""
    from ruamel.yaml import YAML

    folder = ws / "boards" / board
    yaml = YAML()
    data = yaml.load((folder / "board.yaml").read_text(encoding="utf-8"))
    (folder / "round-2" / "variants").mkdir(parents=True)
    variants = []
    for vid in ("A", "B"):
        rel = f"round-2/variants/{vid.lower()}.html"
        (folder / rel).write_text(f"<!doctype html><title>{vid}</title><h1>Round two {vid}</h1>", encoding="utf-8")
        variants.append({"id": vid, "label": f"Second {vid}", "file": rel})
    data["history"] = [{"round": int(data.get("round") or 1), "variants": data["variants"]}]
    data["round"] = 2
    data["variants"] = variants
    with (folder / "board.yaml").open("w", encoding="utf-8") as fh:
        yaml.dump(data, fh)


def stored(ws: Path, board: str = BOARD) -> list[dict]:
    folder = ws / ".pinup" / "feedback" / board
    return [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))] if folder.is_dir() else []
