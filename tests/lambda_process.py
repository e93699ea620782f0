"""What a Lambda process keeps for its life, kept for one test and closed after it.

The feedback handler's store keeps one S3 client (and its connection pool), and Mangum takes the
thread's current event loop when it is made (making one if there is none) and never closes it.
In a test that life ends with the test, so both are closed then rather than whenever the
collector runs (which would fail whichever test is running with a ResourceWarning)."""

from __future__ import annotations

import asyncio
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


@contextmanager
def own_event_loop() -> Iterator[asyncio.AbstractEventLoop]:
    """A new current event loop for this thread inside the block, closed at its end."""
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        yield loop
    finally:
        asyncio.set_event_loop(None)
        loop.close()
