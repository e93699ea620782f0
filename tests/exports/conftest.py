"""Fixtures for the export tests: the corpus, models built from DESIGN.md text, the reference CLI."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from reference_oracle import ReferenceOracle, RefRun


class ReferenceCli:
    """`design.md export FILE --format F [--prefix P]` (the reference 0.4.0) through the session's oracle."""

    def __init__(self, oracle: ReferenceOracle) -> None:
        self.oracle = oracle

    def __call__(self, path: Path, fmt: str, prefix: str | None = None) -> RefRun:
        args = ["export", str(path), "--format", fmt]
        if prefix is not None:
            args += ["--prefix", prefix]
        return self.oracle(*args)

    def prefetch(self, calls: list[tuple[Path, str, str | None]]) -> None:
        """Run many exports up front (kept for callers; the oracle is fast and cached either way)."""
        for call in calls:
            self(*call)


@pytest.fixture(scope="session")
def reference_export(reference: ReferenceOracle) -> ReferenceCli:
    return ReferenceCli(reference)


@pytest.fixture(scope="session")
def design_of() -> Callable[[Path], object]:
    """The pinup model of a DESIGN.md file, built by the core's `lint_text`."""
    from pinup.designmd.lint import lint_text

    def build(path: Path) -> object:
        return lint_text(path.read_bytes().decode("utf-8")).design

    return build
