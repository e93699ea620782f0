"""Local serving helper for `pinup serve`: uvicorn that ends SSE streams cleanly on shutdown.

uvicorn waits for open responses before the lifespan shutdown, and an SSE response never ends
by itself; this server closes the board states first so every stream finishes. Not used on Lambda.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import uvicorn
from starlette.applications import Starlette

from .lifecycle import Lifecycle
from .state import BoardStates


class FeedbackServer(uvicorn.Server):
    """`FeedbackServer.for_app(app, host, port)`; `.run()` or `await .serve()`; port 0 works."""

    def __init__(self, config: uvicorn.Config, boards: BoardStates, lifecycle: Lifecycle) -> None:
        super().__init__(config)
        self.boards = boards
        self.lifecycle = lifecycle

    @classmethod
    def for_app(cls, app: Starlette, host: str = "127.0.0.1", port: int = 0, **kwargs: Any) -> FeedbackServer:
        kwargs.setdefault("log_level", "warning")
        kwargs.setdefault("timeout_graceful_shutdown", 5)
        config = uvicorn.Config(app, host=host, port=port, lifespan="off", **kwargs)
        return cls(config, app.state.boards, app.state.ctx.lifecycle)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.boards.close()
        await super().shutdown(sockets)
        await asyncio.to_thread(self.lifecycle.wait_idle, 5.0)  # the last submissions' numbering finishes
