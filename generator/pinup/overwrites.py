"""Which output folders this process is overwriting files in, and who is reading them meanwhile.

Why: a build writes a changed file over the old one in place (see `pinup.output`), so a reader
could get half of the old file and half of the new. `pinup serve` is the reader that matters:
each response for a site file registers with `reading`, which waits while a build overwrites
that folder, and a build that starts overwriting first lets the responses already under way
finish (`begin`). Both waits are bounded: a stuck reader never stops a build, nor a stuck build
the pages.
"""

from __future__ import annotations

import threading
import time

#: how long a build waits for responses already under way before it overwrites anyway
READERS_WAIT = 2.0

_lock = threading.Lock()
_writers: dict[str, int] = {}
_readers: dict[str, int] = {}


def begin(folder: str) -> None:
    """A writer starts overwriting files in `folder`: new readers wait from now on."""
    with _lock:
        _writers[folder] = _writers.get(folder, 0) + 1
    deadline = time.monotonic() + READERS_WAIT
    while _readers.get(folder) and time.monotonic() < deadline:
        time.sleep(0.001)


def end(folder: str) -> None:
    """The writer is done (its build finished or failed): readers may go on."""
    _decrement(_writers, folder)


def start_reading(folder: str) -> bool:
    """Register a reader of `folder` unless a writer is overwriting it (then False: try again)."""
    with _lock:
        if folder in _writers:
            return False
        _readers[folder] = _readers.get(folder, 0) + 1
        return True


def stop_reading(folder: str) -> None:
    _decrement(_readers, folder)


def _decrement(counts: dict[str, int], folder: str) -> None:
    with _lock:
        left = counts.get(folder, 0) - 1
        if left > 0:
            counts[folder] = left
        else:
            counts.pop(folder, None)
