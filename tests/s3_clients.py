"""The S3 clients that feedback stores make during a test, closed after it.

A store keeps one client for its process's life (as on Lambda); in a test that life ends with
the test, so its pooled connections are closed then rather than whenever the collector runs."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest


@contextmanager
def closing_store_clients(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Every client `pinup_feedback.store.s3.make_client` returns inside the block, closed at its end."""
    from pinup_feedback.store import s3

    made: list[Any] = []
    real = s3.make_client

    def make_client(*args: Any, **kwargs: Any) -> Any:
        client = real(*args, **kwargs)
        made.append(client)
        return client

    monkeypatch.setattr(s3, "make_client", make_client)
    try:
        yield made
    finally:
        for client in made:
            client.close()
