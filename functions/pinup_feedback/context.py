"""What the routes share: settings, store, board states, guards, the items' lifecycle.

One per app, on `app.state.ctx`: every piece of state the app keeps between requests hangs here.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool

from .ledger import Ledger
from .lifecycle import Lifecycle
from .logs import ClientHasher
from .ratelimit import RateLimiter
from .schema import Manifest
from .settings import Settings
from .state import BoardStates
from .store import FeedbackStore

T = TypeVar("T")


@dataclass
class Hooks:
    """Callbacks for `pinup serve`. Both run after the store acknowledged the record and before
    the response goes out; keep them quick (start a thread for slow work)."""

    on_feedback: Callable[[dict[str, Any]], None] | None = None
    on_regenerate: Callable[[dict[str, Any], BoardStates], None] | None = None


class ManifestCache:
    """Manifests by board, re-read after `ttl` seconds (0: every time, as locally)."""

    def __init__(self, store: FeedbackStore, ttl: float) -> None:
        self.store = store
        self.ttl = ttl
        self._cache: dict[str, tuple[float, Manifest | None]] = {}

    def get(self, board: str) -> Manifest | None:
        now = time.monotonic()
        hit = self._cache.get(board)
        if hit is not None and now - hit[0] < self.ttl:
            return hit[1]
        manifest = self.store.read_manifest(board)
        if self.ttl > 0:
            self._cache[board] = (now, manifest)
        return manifest


@dataclass
class Context:
    settings: Settings
    store: FeedbackStore
    boards: BoardStates
    hooks: Hooks
    limiter: RateLimiter
    hasher: ClientHasher
    manifests: ManifestCache
    lifecycle: Lifecycle
    ledger: Ledger = field(default_factory=Ledger)
    inline_io: bool = False  # store calls on the event loop: one request per process (Lambda)

    @property
    def local(self) -> bool:
        return self.settings.mode == "local"

    async def offload(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a blocking store call off the event loop, or on it where nothing else could run
        meanwhile (`inline_io`: Lambda hands a process one request at a time, and a thread hop
        there costs more CPU than the call's own work)."""
        if self.inline_io:
            return fn(*args)
        return await run_in_threadpool(fn, *args)
