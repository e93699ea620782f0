"""A per-user cache of compiled Jinja2 templates, so each `pinup build` process skips compiling them.

Jinja2 keys cached bytecode by template name and a checksum of its source, so an
edited or overridden template is recompiled. Any problem with the cache folder
(read-only home, no permission) just turns the cache off.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def cache_dir() -> Path:
    base = os.environ.get("PINUP_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pinup" / "jinja"


def bytecode_cache() -> Any | None:
    """A FileSystemBytecodeCache in the user's cache folder, or None when it cannot be used."""
    if os.environ.get("PINUP_NO_CACHE"):
        return None
    from jinja2 import FileSystemBytecodeCache

    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".probe"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError:
        return None
    return FileSystemBytecodeCache(str(folder))
