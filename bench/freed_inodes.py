"""ext4's freed-inode window, which the disk-bound benchmarks wait out after their own clean-up.

On ext4 without a journal (this project's machine) the inode allocator skips, one look-up each,
every inode freed in the last 60 s, or 360 s while its inode-table block is dirty: creates right
after a mass delete cost several times more system time. A benchmark that deletes its scratch
folder touches a stamp file; the next run waits until the window has passed.
"""

from __future__ import annotations

import time
from pathlib import Path

FREED_INODES_S = 365.0  # ext4's "recently deleted" window (RECENTCY_MIN + RECENTCY_DIRTY), and a margin


def wait_after_cleanup(stamp: Path, no_wait: bool) -> None:
    """Sleep until the clean-up recorded by `stamp` is FREED_INODES_S old (`no_wait`: only say so)."""
    try:
        wait = FREED_INODES_S - (time.time() - stamp.stat().st_mtime)
    except FileNotFoundError:
        return
    if wait <= 0:
        return
    if no_wait:
        print(f"NOTE: the last run's clean-up was {FREED_INODES_S - wait:.0f} s ago: its freed inodes slow creates")
    else:
        print(f"waiting {wait:.0f} s: the last run's clean-up freed inodes, which slow new creates for 6 minutes")
        time.sleep(wait)
