"""pinup's per-user cache folder: compiled Jinja2 templates and each DESIGN.md's page models.

Both let a new `pinup build` process skip work an earlier one did: Jinja2 keys cached
bytecode by template name and a checksum of its source (an edited or overridden template
is recompiled); `pinup.sitecache` keys page models by a hash of everything they
are built from. Any problem with the cache folder (read-only home, no permission, a
folder another user could write to) just turns the cache off.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from pinup.buildcache import active


def cache_root() -> Path:
    """`$PINUP_CACHE_DIR/pinup`, else `$XDG_CACHE_HOME/pinup`, else `~/.cache/pinup`."""
    base = os.environ.get("PINUP_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pinup"


def cache_dir() -> Path:
    return cache_root() / "jinja"


def enabled() -> bool:
    """False when `PINUP_NO_CACHE` is set (to anything but an empty string)."""
    return not os.environ.get("PINUP_NO_CACHE")


def usable_folder(folder: Path) -> bool:
    """Create `folder` (private to the user) and check nobody else can plant files in it.

    Cached entries are loaded as code-like data (Jinja bytecode, pickled page models),
    so a folder that is not ours or that group/others may write to is never used. Owner
    and mode are checked on every call; creating and probing it (a file create and unlink), once
    per build cache: a gallery build loads 25 entries.
    """
    probed = active().folders
    key = str(folder)
    try:
        if key not in probed:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        st = folder.stat()
    except OSError:
        probed.discard(key)
        return False
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return False
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    if key not in probed:
        probe = folder / f".probe-{os.getpid()}"
        try:
            probe.write_bytes(b"")
            probe.unlink()
        except OSError:
            return False
        probed.add(key)
    return True


def bytecode_cache() -> Any | None:
    """A FileSystemBytecodeCache in the user's cache folder, or None when it cannot be used."""
    if not enabled():
        return None
    from jinja2 import FileSystemBytecodeCache

    folder = cache_dir()
    if not usable_folder(folder):
        return None
    return FileSystemBytecodeCache(str(folder))
