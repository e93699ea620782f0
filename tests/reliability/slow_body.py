"""A real FeedbackServer in the test's own event loop, for the slow-body scenarios that need
raw sockets (a body shorter than its Content-Length, a body that trickles in)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from package_helpers import bound_port

from pinup_feedback.server import FeedbackServer


@asynccontextmanager
async def serving(server: FeedbackServer) -> AsyncIterator[int]:
    """Run `server` until the block ends; yields its port, then asks it to stop and waits for it."""
    task = asyncio.create_task(server.serve())
    try:
        while not server.started:
            if task.done():
                raise RuntimeError(f"the feedback server stopped before it started: {task.exception()!r}")
            await asyncio.sleep(0.01)
        yield bound_port(server)
    finally:
        server.should_exit = True
        await task


def feedback_post_head(port: int, content_length: int) -> bytes:
    """The request line and headers of a JSON POST to /api/feedback that announces `content_length`."""
    return (
        f"POST /api/feedback HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {content_length}\r\n\r\n"
    ).encode()
