"""A token bucket per (client, board): `rate` requests a minute, bursts up to `rate`."""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable


class RateLimiter:
    """In-process buckets (one Lambda instance or one local server); bounded memory (LRU)."""

    def __init__(self, per_minute: int, *, max_keys: int = 10000, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = float(per_minute)
        self.refill = per_minute / 60.0
        self.max_keys = max_keys
        self.clock = clock
        self._buckets: OrderedDict[tuple[str, str], tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        return self.capacity > 0

    def check(self, client: str, board: str) -> int:
        """Take one token: 0 when allowed, else the seconds to wait (for Retry-After)."""
        if not self.enabled:
            return 0
        key = (client, board)
        now = self.clock()
        with self._lock:
            tokens, last = self._buckets.pop(key, (self.capacity, now))
            tokens = min(self.capacity, tokens + (now - last) * self.refill)
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, now)
                wait = 0
            else:
                self._buckets[key] = (tokens, now)
                wait = max(1, math.ceil((1.0 - tokens) / self.refill))
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        return wait
