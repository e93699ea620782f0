"""Fixtures for the serve tests: a checkout-like folder holding a fresh copy of the example."""

from __future__ import annotations

from pathlib import Path

import pytest
from serve_helpers import copy_example


@pytest.fixture()
def checkout(tmp_path: Path) -> Path:
    """A folder laid out like a pinup checkout: `site_src/` (the workspace); the site goes to `site/`."""
    copy_example(tmp_path)
    return tmp_path
