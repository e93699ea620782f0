"""Shared paths and helpers for the DESIGN.md tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CORPUS = HERE / "corpus"
GOLDEN = HERE / "golden"
PINUP = ROOT / ".venv" / "bin" / "pinup"


def corpus_files() -> list[Path]:
    return sorted(CORPUS.glob("*.md"))


def read_text(path: Path) -> str:
    return path.read_bytes().decode("utf-8", errors="replace")


def golden_record(text: str, *, extended: bool = False) -> dict[str, Any]:
    """What a golden file holds: the reference-shaped findings plus pinup's line numbers."""
    from pinup.designmd.lint import run

    result = run(text, extended=extended)
    findings = []
    for f in result.findings:
        entry = f.reference_dict()
        entry["line"] = f.line
        findings.append(entry)
    return {"findings": findings, "summary": result.summary}


def dump(data: Any) -> str:
    from pinup.designmd.report import dumps

    return dumps(data)


def run_pinup(
    *args: str, input: bytes | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    full_env = dict(os.environ)
    full_env.update(env or {})
    exe = [str(PINUP)] if PINUP.exists() else [sys.executable, "-m", "pinup"]
    return subprocess.run([*exe, *args], input=input, capture_output=True, env=full_env, timeout=120)
