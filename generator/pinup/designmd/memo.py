"""`remember`: the one rule for the process-wide memos of the linter, the exporters and the site.

Each memo is a plain dict in insertion order, bounded by a count: when full, the entry kept
longest goes. A `pinup serve` session rebuilds the same texts over and over, so the newest
entries are the ones worth keeping, and a dict needs no import (`pinup lint` starts fast).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TypeVar

    K = TypeVar("K")
    V = TypeVar("V")


def remember(store: dict[K, V], key: K, value: V, limit: int) -> V:
    """Keep `value` under `key` in `store` (dropping the oldest entry if it holds `limit`); return it."""
    if len(store) >= limit:
        del store[next(iter(store))]
    store[key] = value
    return value
