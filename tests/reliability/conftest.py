"""Fixtures for the reliability battery: the example workspace built once per session."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from reliability_helpers import build_workspace, copy_built_workspace


@pytest.fixture(scope="session")
def built_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_workspace(tmp_path_factory.mktemp("built"))


@pytest.fixture()
def built(built_template: Path, tmp_path: Path) -> tuple[Path, Path]:
    """(src, site): a private copy of the built example."""
    return copy_built_workspace(built_template, tmp_path)


@pytest.fixture()
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture()
def built_in_memory(built_template: Path, tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """(src, site) on tmpfs when the machine has one: the load tests measure the server's
    correctness under concurrency, not the disk's fsync rate (bench/feedback_load.py does that)."""
    shm = Path("/dev/shm")
    in_memory = shm.is_dir() and os.access(shm, os.W_OK)
    root = Path(tempfile.mkdtemp(prefix="pinup-load-", dir=shm)) if in_memory else tmp_path
    try:
        yield copy_built_workspace(built_template, root)
    finally:
        if root != tmp_path:
            shutil.rmtree(root, ignore_errors=True)
