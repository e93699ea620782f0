"""Fixtures for the boards tests: a fresh example workspace and a running `pinup serve`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from boards_helpers import Served, copy_workspace, start_serve


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    return copy_workspace(tmp_path)


@pytest.fixture()
def served(workspace: Path) -> Iterator[Served]:
    s = start_serve(workspace, "--timeout", "0")
    yield s
    s.stop()
