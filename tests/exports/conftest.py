"""Fixtures for the export tests: the corpus, models built from DESIGN.md text, the reference CLI."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

@dataclass(frozen=True)
class RefRun:
    """What the reference CLI printed for one export."""

    stdout: str
    stderr: str
    returncode: int


class ReferenceCli:
    """Runs `design.md export FILE --format F [--prefix P]` (the reference 0.4.0), caching each run."""

    def __init__(self, cli: Path) -> None:
        self.cli = cli
        self.cache: dict[tuple[str, str, str | None], RefRun] = {}

    def _run(self, path: Path, fmt: str, prefix: str | None) -> RefRun:
        args = [str(self.cli), "export", str(path), "--format", fmt]
        if prefix is not None:
            args += ["--prefix", prefix]
        proc = subprocess.run(args, capture_output=True, timeout=300, check=False)
        return RefRun(proc.stdout.decode(), proc.stderr.decode(), proc.returncode)

    def __call__(self, path: Path, fmt: str, prefix: str | None = None) -> RefRun:
        key = (str(path), fmt, prefix)
        if key not in self.cache:
            self.cache[key] = self._run(path, fmt, prefix)
        return self.cache[key]

    def prefetch(self, calls: list[tuple[Path, str, str | None]]) -> None:
        """Run many exports at once (node's start-up dominates each run)."""
        todo = [c for c in calls if (str(c[0]), c[1], c[2]) not in self.cache]
        with ThreadPoolExecutor(max_workers=6) as pool:
            for call, result in zip(todo, pool.map(lambda c: self._run(*c), todo), strict=True):
                self.cache[(str(call[0]), call[1], call[2])] = result


@pytest.fixture(scope="session")
def reference_export(node_bin: Path) -> ReferenceCli:
    return ReferenceCli(node_bin / "design.md")


@pytest.fixture(scope="session")
def design_of() -> Callable[[Path], object]:
    """The pinup model of a DESIGN.md file, built by the core's `lint_text`."""
    from pinup.designmd.lint import lint_text

    def build(path: Path) -> object:
        return lint_text(path.read_bytes().decode("utf-8")).design

    return build
