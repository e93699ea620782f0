"""Helpers for the serve tests: a copy of the example workspace and a real `pinup serve` subprocess
(tests/serve_process.py) started exactly as a person would (no --out, no --port unless a test asks)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import serve_process
from serve_process import BOARD, PINUP, Served, wait_until

__all__ = ["BOARD", "Server", "wait_until"]


def copy_example(dest: Path) -> Path:
    """The example as `dest/site_src` (the layout of a checkout), without feedback or state."""
    return serve_process.copy_example(dest / "site_src")


def run_pinup(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PINUP, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout, env={**os.environ, "DISPLAY": ""}
    )


Server = Served


def start(cwd: Path, *args: str, startup: float = 90) -> Served:
    """`pinup serve ARGS` in `cwd`; returns once SERVE_STARTED is printed."""
    return serve_process.start(["serve", *args], cwd=cwd, env={"DISPLAY": ""}, capture_stdout=False, startup=startup)


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
