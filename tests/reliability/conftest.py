"""Fixtures for the reliability battery: the example workspace built once per session."""

from __future__ import annotations

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
