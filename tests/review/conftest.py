"""Fixtures for `pinup review`: the small app on 127.0.0.1 and a running `pinup review` of it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from review_app import SmallApp
from review_helpers import start_review
from serve_process import Served


@pytest.fixture()
def small_app() -> Iterator[SmallApp]:
    app = SmallApp().start()
    yield app
    app.stop()


@pytest.fixture()
def reviewed(tmp_path: Path, small_app: SmallApp) -> Iterator[Served]:
    served = start_review(tmp_path, small_app.origin + "/")
    yield served
    served.stop()
