"""Each DESIGN.md's page models, kept between builds and keyed by a hash of everything they are built from.

Linting a DESIGN.md, building its model, parsing its prose and computing its
pages is most of a build's CPU time, yet a gallery or CI rebuild mostly sees files that
did not change. The page models (`SiteModel`: slotted dataclasses holding rendered
prose) are pickled under `<cache>/pinup/sites/` by a key that covers the DESIGN.md
bytes, the options that shape the pages, the embedded font files, pinup's version, the
Python version and pinup's own code (size and mtime of every file of the package).
So a new build never reads an entry made from other inputs; pages are still rendered and
written on every build. `PINUP_NO_CACHE=1` turns it off; entries are pruned oldest first.

An edit loop (`pinup serve` rebuilding after each save of a DESIGN.md) makes a new version per
edit, and the next edit replaces it: only the last one can be asked for by a later process. So
once a source (a `slot`: the DESIGN.md and the options it is built with) has an entry on disk, its
later versions built with the same `BuildCache` are kept in memory and only the newest is written,
when the process ends (`save_pending`); a forked worker saves at once (its exit skips atexit
handlers). What this module knows besides the entries is the build cache's `sites`.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from pinup import __version__
from pinup.buildcache import SiteEntries, active, using
from pinup.codeprint import code_fingerprint
from pinup.usercache import cache_root, enabled, usable_folder
from pinup_feedback.atomicfile import replace_file

#: bump when the entry layout changes (older entries are then never looked up)
FORMAT = 1
#: entries kept; one per distinct (DESIGN.md, options) pair
MAX_ENTRIES = 400
#: and at most this many bytes in all (a 2 MB DESIGN.md makes an entry of tens of MB)
MAX_BYTES = 256 * 1024 * 1024
_HEADER = b"pinup-site-cache\n"
_T = TypeVar("_T")


def folder() -> Path:
    return cache_root() / "sites"


def site_key(design: bytes, *, options: str, code: str) -> str:
    """The entry name for pages built from `design` with `options`, by pinup code `code`."""
    h = hashlib.sha256()
    meta = f"{FORMAT}|{__version__}|{sys.version_info[:3]}|{code}|{options}|{len(design)}\n"
    h.update(meta.encode())
    h.update(design)
    return h.hexdigest()


def load(key: str, slot: str | None = None) -> Any | None:
    """The value saved under `key`, or None (no entry, cache off, unreadable or damaged entry).

    `slot`: the source the entry is built from (see `save`); a hit marks it as saved.
    """
    if not enabled():
        return None
    sites = active().sites
    for _where, pending_key, value in sites.pending.values():  # one per source this cache's builds edit
        if pending_key == key:
            return value
    path = folder() / f"{key}.pickle"
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    if not data.startswith(_HEADER) or not usable_folder(path.parent):
        return None
    try:
        value = pickle.loads(data[len(_HEADER) :])
    except Exception:  # a damaged or foreign entry is a miss, never a failed build
        return None
    try:
        os.utime(path)  # recently used entries survive pruning
    except OSError:
        pass
    if slot is not None:
        sites.saved.add(f"{path.parent}|{slot}")
    return value


def cached(design: bytes, options: str, make: Callable[[], _T], source: Path | None = None) -> _T:
    """`make()`, or what it returned for the same DESIGN.md bytes, options and pinup code before.

    The value (page models, no pydantic) is an entry of this cache; `options`
    must name everything besides the DESIGN.md that shapes it. `source`: the file `design`
    was read from, so an edit loop saves only its last version (see `save`).
    """
    with using():  # one cache for the lookup, the build and the save, even outside a build
        return _cached(design, options, make, source)


def _cached(design: bytes, options: str, make: Callable[[], _T], source: Path | None) -> _T:
    code = code_fingerprint()
    key = site_key(design, options=options, code=code)
    slot = None if source is None else f"{options}|{source}"
    value = load(key, slot)
    if value is None:
        if slot is None:
            value = make()
        else:
            from pinup.prosememo import kept

            with kept(slot, code):  # its unchanged prose is not read again (a new version after an edit)
                value = make()
        save(key, value, slot)
    return value


def save(key: str, value: Any, slot: str | None = None) -> None:
    """Save `value` under `key` (atomically: readers never see half an entry); errors are ignored.

    `slot` names the source the value is built from (a DESIGN.md's path and the options): when
    the build cache already saved or read an entry of that source, the new version replaces the
    last one in memory and is written at exit, so an edit loop writes one entry, not one per edit.
    """
    if not enabled():
        return
    sites = active().sites
    where = folder()
    source = None if slot is None else f"{where}|{slot}"
    if source is not None and source in sites.saved and os.getpid() == sites.owner:
        if not sites.at_exit:
            atexit.register(save_pending, sites)
            sites.at_exit = True
        sites.pending[source] = (where, key, value)
        return
    _write(sites, where, key, value)
    if source is not None:
        sites.saved.add(source)


def save_pending(sites: SiteEntries | None = None) -> None:
    """Write the newest version of every source whose save was put off (see `save`)."""
    sites = sites or active().sites
    pending = list(sites.pending.values())
    sites.pending.clear()
    for where, key, value in pending:
        _write(sites, where, key, value)


def _write(sites: SiteEntries, where: Path, key: str, value: Any) -> None:
    if not usable_folder(where):
        return
    try:
        data = _HEADER + pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # something in the pages cannot be pickled: just do not cache them
        return
    target = where / f"{key}.pickle"
    try:
        replace_file(target, data)
    except OSError:
        return
    sites.sizes[str(target)] = len(data)
    _prune(sites.sizes, where)


def _prune(known: dict[str, int], where: Path) -> None:
    """Remove the least recently used entries beyond MAX_ENTRIES (down to nine tenths of it) or MAX_BYTES.

    Another build (another process, sharing the folder) may prune or replace an entry between the
    listing and its `stat`: that entry is skipped. The listing is closed however it ends, or its
    iterator would be left for the garbage collector (a ResourceWarning). `known`: entry path -> its
    size as last written or seen: an entry is written once under its name (atomically, and the same
    inputs pickle to the same bytes), so whether the folder is over its limits is known from a
    listing, without a stat per entry on every save.
    """
    try:
        with os.scandir(where) as listing:
            listed = [entry for entry in listing if entry.name.endswith(".pickle")]
    except OSError:
        return
    sizes: dict[str, int] = {}
    for entry in listed:
        size = known.get(entry.path)
        if size is None:
            try:
                size = entry.stat().st_size
            except OSError:
                continue
        sizes[entry.path] = size
    known.clear()
    known.update(sizes)
    if len(sizes) <= MAX_ENTRIES and sum(sizes.values()) <= MAX_BYTES:
        return
    entries = []
    for entry in listed:
        try:
            st = entry.stat()
        except OSError:
            continue
        entries.append((st.st_mtime_ns, st.st_size, entry.path))
    entries.sort()
    total = sum(size for _, size, _ in entries)
    # a tenth below the limit on entries, so the next saves find room without this pass (a stat of
    # every entry, which would otherwise fall on every one-token rebuild's save)
    keep = MAX_ENTRIES - MAX_ENTRIES // 10
    for index, (_, size, path) in enumerate(entries):
        if len(entries) - index <= keep and total <= MAX_BYTES:
            break
        try:
            os.unlink(path)
        except OSError:
            pass
        known.pop(path, None)
        total -= size
