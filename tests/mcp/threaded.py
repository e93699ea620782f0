"""Running an MCP client session from a test."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any


def in_thread(coro: Coroutine[Any, Any, Any], timeout: float = 180) -> Any:
    """asyncio.run in a worker thread: Playwright's sync API keeps a loop in the main thread, and a
    test may already run inside one. The coroutine's exception is raised here."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(coro)
        except BaseException as exc:  # re-raised below
            box["error"] = exc

    worker = threading.Thread(target=target)
    worker.start()
    worker.join(timeout)
    if "error" in box:
        raise box["error"]
    return box["value"]
