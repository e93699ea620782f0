"""What the page builders read out of a piece of prose, by the prose itself: in memory, and per DESIGN.md on disk.

A one-token edit changes a DESIGN.md's hash, so its page models are built again, yet its prose
did not change. Every product of the prose (rendered HTML, search entries, what the Colors and
Components prose say of each token, the Do's and Don'ts cards) is remembered by the text it came
from, in one memo per kind: within a process (`pinup serve`) a rebuild reads no unchanged prose
again. Across processes, `kept` saves the products one build of a source used under that
source's name, and the next build of the same source (a new `pinup build` after an edit) starts
from them: unchanged prose is neither parsed nor rendered, and markdown-it-py is not even
imported (its import is about a sixth of such a process's CPU time).

A saved file also names the pinup code it was made by; files of other code are never read.
The memos live in the build cache (`BuildCache.prose`): they last as long as it does.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pinup.buildcache import active
from pinup.designmd.memo import remember
from pinup.usercache import cache_root, enabled, usable_folder
from pinup_feedback.atomicfile import replace_file

#: kind -> how many products of it a build cache keeps (the oldest go first); each module reads
#: and fills its own kind: the HTML of a piece of prose (`pinup.docsite.markdown`), its search
#: entries (`search`), what the Colors prose says of each colour (`roles`), the Components
#: prose's descriptions (`usage`), the Do's and Don'ts cards (`guidance`)
LIMITS: dict[str, int] = {"html": 2048, "search": 2048, "roles": 256, "usage": 256, "guidance": 256}
#: the limit of a kind not named in LIMITS
OTHER_LIMIT = 4096
#: bump when what a file holds changes (older files are then never read)
FORMAT = 1
_HEADER = b"pinup-prose\n"


def recall(kind: str, key: Any) -> Any | None:
    """The product of `kind` under `key`, or None; a product found is part of the running build."""
    prose = active().prose
    found = prose.memos.get(kind, {}).get(key)
    if found is not None and prose.recording is not None:
        prose.recording[(kind, key)] = found
    return found


def keep(kind: str, key: Any, value: Any) -> Any:
    """Remember `value` (which must not be None) and count it in the running build; return it."""
    prose = active().prose
    remember(prose.memos.setdefault(kind, {}), key, value, LIMITS.get(kind, OTHER_LIMIT))
    if prose.recording is not None:
        prose.recording[(kind, key)] = value
    return value


def folder() -> Path:
    return cache_root() / "prose"


@contextmanager
def kept(source: str, code: str) -> Iterator[None]:
    """Build `source` (a DESIGN.md's path and options) from the products its last build saved.

    When the block ends without an error, the products it used are saved for the next build
    of `source`, unless they are what was read (the prose did not change). `code`: the pinup
    code's fingerprint, so a file made by other code is never used.
    Call it within one build cache (`pinup.buildcache.using`): the products are recorded in it.
    """
    if not enabled():
        yield
        return
    prose = active().prose
    path = folder() / (hashlib.sha256(source.encode()).hexdigest()[:32] + ".pickle")
    known = prose.known.get(str(path))
    if known is None:
        known = _read(path, code)
    for (kind, key), value in known.items():
        store = prose.memos.setdefault(kind, {})
        if key not in store:
            remember(store, key, value, LIMITS.get(kind, OTHER_LIMIT))
    outer, prose.recording = prose.recording, {}
    try:
        yield
        used = prose.recording
    finally:
        prose.recording = outer
    if outer is not None:
        outer.update(used)
    if used != known and _write(path, code, used):
        prose.known[str(path)] = used


def _read(path: Path, code: str) -> dict[tuple[str, Any], Any]:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return {}
    if not data.startswith(_HEADER) or not usable_folder(path.parent):
        return {}
    try:
        made_by, products = pickle.loads(data[len(_HEADER) :])
    except Exception:  # a damaged or foreign file is no products, never a failed build
        return {}
    if made_by != f"{FORMAT}|{code}" or not isinstance(products, dict):
        return {}
    try:
        os.utime(path)  # files in use survive pruning
    except OSError:
        pass
    active().prose.known[str(path)] = products
    return products


def _write(path: Path, code: str, products: dict[tuple[str, Any], Any]) -> bool:
    """Replace the file atomically (readers never see half of one); False when it could not be."""
    if not usable_folder(path.parent):
        return False
    try:
        data = _HEADER + pickle.dumps((f"{FORMAT}|{code}", products), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # a product that cannot be pickled: just do not save them
        return False
    try:
        replace_file(path, data)
    except OSError:
        return False
    prose = active().prose
    if not prose.pruned:  # once per build cache is enough: a build adds a file per source at most
        prose.pruned = True
        _prune(path.parent)
    return True


#: files kept: one per source (a DESIGN.md and its options), a few to a few hundred KB each
MAX_FILES = 400


def _prune(where: Path) -> None:
    """Remove the least recently written files beyond MAX_FILES; files others remove meanwhile are skipped."""
    try:
        with os.scandir(where) as listing:
            found = [entry for entry in listing if entry.name.endswith(".pickle")]
    except OSError:
        return
    if len(found) <= MAX_FILES:
        return
    dated = []
    for entry in found:
        try:
            dated.append((entry.stat().st_mtime_ns, entry.path))
        except OSError:
            continue
    dated.sort()
    for _, old in dated[: len(dated) - MAX_FILES]:
        try:
            os.unlink(old)
        except OSError:
            pass
