"""Fixtures for `pinup review`: the small app on 127.0.0.1 and a running `pinup review` of it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from review_app import SmallApp
from serve_process import Served, copy_example, start


@pytest.fixture()
def small_app() -> Iterator[SmallApp]:
    app = SmallApp().start()
    yield app
    app.stop()


def start_review(tmp_path: Path, url: str, *args: str) -> Served:
    """`pinup review URL WS --no-open` on a copy of the example workspace (made on first use),
    once SERVE_STARTED is out."""
    src = tmp_path / "ws"
    if not src.is_dir():
        copy_example(src)
    site = tmp_path / "site"
    cmd = ["review", url, str(src), "--no-open", "--out", str(site), *args]
    return start(cmd, cwd=tmp_path, src=src, site=site)


@pytest.fixture()
def reviewed(tmp_path: Path, small_app: SmallApp) -> Iterator[Served]:
    served = start_review(tmp_path, small_app.origin + "/")
    yield served
    served.stop()
