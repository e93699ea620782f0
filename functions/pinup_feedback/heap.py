"""Keep the garbage collector off the start-up heap of a long-running server.

Why: everything a server loads before its first request (Starlette, pydantic's validators, uvicorn,
botocore's models, and under `pinup serve` the first build) lives as long as the process, yet each
full collection walks all of it again: about 50,000 objects, 30 ms of CPU on the project's 2-core
machine, during which no request is answered. At a few hundred submissions a second those pauses
were most of the feedback endpoint's p99 latency (bench/feedback_load.py: 86-93 ms against
45-50 ms frozen, same rounds). Frozen objects are never collected, so it is done once, after
start-up and before serving; the few cycles already garbage then stay (a few hundred objects).
"""

from __future__ import annotations

import gc


def freeze_startup_heap() -> None:
    """Move every object alive now out of the collector's reach (`gc.freeze`)."""
    gc.freeze()
