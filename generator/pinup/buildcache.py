"""Everything the builders keep from one build for the next, in one object: `BuildCache`.

A build works out much that the next build of the same inputs needs again: the fingerprint of
pinup's code, which cache folders are safe to use, the site cache's entries and the versions it put
off writing (`pinup.sitecache`), what each piece of prose renders to (`pinup.prosememo`), validated
board specs, the feedback schema's limits, the gallery's brand list and fingerprints, what the
build writer knows of each output folder (file stamps, the manifest, groups kept), and the Jinja
environments with their compiled templates. All of it lives in a `BuildCache`, so it lasts as
long as that object: `pinup serve` (and the MkDocs plugin under `mkdocs serve`) holds one for
every rebuild, a plain `pinup build` makes one and drops it, and a test that wants a cold start
makes a new one. No module of the builders keeps any of it.

The builders below `build_all` find the cache of the build under way with `active()`, as a build
runs under `using(cache)`; called on their own, outside any build (a test of one page, `pinup
handoff` reading a board), they get a new, empty cache each time: nothing is kept, as in a new
process. The context variable that carries it is the one process-wide registry of this module.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(slots=True)
class SiteEntries:
    """What `pinup.sitecache` knows of its folder besides the entries in it."""

    #: sources (`slot`s) with an entry on disk that this cache wrote or read
    saved: set[str] = field(default_factory=set)
    #: slot -> (folder, key, value): the newest version of a saved source, written at exit
    pending: dict[str, tuple[Path, str, Any]] = field(default_factory=dict)
    #: entry path -> its size, as last written or seen (see `pinup.sitecache._prune`)
    sizes: dict[str, int] = field(default_factory=dict)
    #: the process that may put saves off: a forked worker ends with `os._exit`, skipping atexit
    owner: int = field(default_factory=os.getpid)
    #: whether `save_pending` is registered to run at exit for these entries
    at_exit: bool = False


@dataclass(slots=True)
class ProseMemos:
    """What the page builders read out of each piece of prose (`pinup.prosememo`)."""

    #: kind -> (its key -> the product)
    memos: dict[str, dict[Any, Any]] = field(default_factory=dict)
    #: prose file -> what was last read from it or written to it (an edit loop rewrites nothing)
    known: dict[str, dict[tuple[str, Any], Any]] = field(default_factory=dict)
    #: the products of the source being built now, by (kind, key); None outside `prosememo.kept`
    recording: dict[tuple[str, Any], Any] | None = None
    #: whether the prose folder was pruned yet (once is enough: a build adds a file per source at most)
    pruned: bool = False
    #: (allow_html, text) -> markdown-it tokens of it (not saved: made again from the text)
    tokens: dict[tuple[bool, str], list[Any]] = field(default_factory=dict)


@dataclass(slots=True)
class GalleryMemos:
    """What a gallery rebuild need not work out again (`pinup.gallery`)."""

    #: brands folder -> (its manifest's bytes, the entries validated from them)
    entries: dict[str, tuple[bytes | None, list[tuple[str, str, str]]]] = field(default_factory=dict)
    #: brands folder -> (the entries, a `Brand` for each): a rebuild makes no new paths
    brands: dict[str, tuple[list[tuple[str, str, str]], list[Any]]] = field(default_factory=dict)
    #: (DESIGN.md path, fonts, code fingerprint) -> (its stat when last read, its site fingerprint)
    fingerprints: dict[tuple[str, str, str], tuple[tuple[int, int, int, int], str]] = field(default_factory=dict)
    #: code fingerprint -> the index page's theme
    index_themes: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class OutputMemos:
    """What the build writer knows of each output folder from the builds before (`pinup.output`)."""

    #: output folder -> rel -> [size, mtime_ns, inode] of each file last written or checked there: a
    #: rebuild also notices a same-size edit of a file
    stamps: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    #: output folder -> (stamp of the manifest last saved there, what it holds), so a rebuild does not
    #: parse it again; any other write of it changes the stamp
    manifests: dict[str, Any] = field(default_factory=dict)
    #: output folder -> (the files and stamps of the build it holds for, group key -> a kept group)
    kept: dict[str, Any] = field(default_factory=dict)
    #: output folder -> the manifest text's layout, parts and group texts (`pinup.manifesttext`)
    layouts: dict[str, Any] = field(default_factory=dict)
    parts: dict[str, Any] = field(default_factory=dict)
    groups: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class BuildCache:
    """Every cache of the builders; see the module's docstring."""

    #: user templates folder (None: pinup's own) -> the fingerprint of the code (`pinup.codeprint`)
    code: dict[str | None, str] = field(default_factory=dict)
    #: cache folders made and probed as private and writable (`pinup.usercache.usable_folder`)
    folders: set[str] = field(default_factory=set)
    sites: SiteEntries = field(default_factory=SiteEntries)
    prose: ProseMemos = field(default_factory=ProseMemos)
    #: board.yaml text -> its validated spec (`pinup.boards.spec.parse_board_yaml`)
    board_specs: dict[str, Any] = field(default_factory=dict)
    #: the feedback schema's field limits, version and v2 fields (`pinup.boards.limits`)
    board_contract: tuple[dict[str, int], int, list[str]] | None = None
    gallery: GalleryMemos = field(default_factory=GalleryMemos)
    output: OutputMemos = field(default_factory=OutputMemos)
    #: (area, package folder, user templates) -> its Jinja environment (`pinup.templating`)
    templates: dict[tuple[str, str, str | None], Any] = field(default_factory=dict)


#: the cache of the build under way in this thread or task (see `using`)
_ACTIVE: ContextVar[BuildCache | None] = ContextVar("pinup_build_cache", default=None)


def active() -> BuildCache:
    """The cache of the build under way; outside a build, a new one that nothing else will see."""
    return _ACTIVE.get() or BuildCache()


@contextmanager
def using(cache: BuildCache | None = None) -> Iterator[BuildCache]:
    """Run a build with `cache` (None: the one under way, else a new one) as `active()`."""
    chosen = cache or _ACTIVE.get() or BuildCache()
    token = _ACTIVE.set(chosen)
    try:
        yield chosen
    finally:
        _ACTIVE.reset(token)
