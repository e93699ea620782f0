"""Fixtures for the export tests: the corpus, models built from DESIGN.md text, the reference CLI."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
CORPUS_FILES = sorted(CORPUS.glob("*.md"))


@dataclass(frozen=True)
class RefRun:
    """What the reference CLI printed for one export."""

    stdout: str
    stderr: str
    returncode: int


@pytest.fixture(scope="session")
def reference_export(node_bin: Path) -> Callable[..., RefRun]:
    """Run `design.md export FILE --format F [--prefix P]` (the reference 0.4.0), cached per call."""
    cache: dict[tuple[str, str, str | None], RefRun] = {}
    cli = node_bin / "design.md"

    def run(path: Path, fmt: str, prefix: str | None = None) -> RefRun:
        key = (str(path), fmt, prefix)
        if key not in cache:
            args = [str(cli), "export", str(path), "--format", fmt]
            if prefix is not None:
                args += ["--prefix", prefix]
            proc = subprocess.run(args, capture_output=True, timeout=120, check=False)
            cache[key] = RefRun(proc.stdout.decode(), proc.stderr.decode(), proc.returncode)
        return cache[key]

    return run


@pytest.fixture(scope="session")
def design_of() -> Callable[[Path], object]:
    """The pinup model of a DESIGN.md file, built by the core's `lint_text`."""
    from pinup.designmd.lint import lint_text

    def build(path: Path) -> object:
        return lint_text(path.read_bytes().decode("utf-8")).design

    return build
