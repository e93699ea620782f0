"""Writes build outputs, skipping files whose content has not changed.

Incremental builds matter when one DESIGN.md among many changes: rewriting
identical files costs disk time and makes file watchers and rsync/S3 sync
re-upload everything. A manifest of content hashes (`.pinup-build.json` in the
output directory) records what the last build wrote; a file is rewritten only
when its hash differs or it went missing. Files the previous build wrote but
this one did not are removed, so outputs never go stale; files pinup did not
write (for example feedback saved by `pinup serve`) are never touched.

A changed file is written over in place, not replaced by a renamed temporary file: on
ext4 a rename over a file (or a truncation) makes the kernel allocate the new file's blocks
at once and free the old file's, about seven times the CPU of writing the same bytes over
the file, which made writing a one-brand rebuild's pages cost a third of the rebuild. A
reader could see half of the new file meanwhile, so a writer marks its folder from its first
overwrite until it is done (`pinup.overwrites`), and `pinup serve` holds requests for that
folder's files until then. A file with other hard links, a link, or anything but a plain file is
still replaced by rename, and a failed write removes the file, so the next build writes it again.

The manifest also keeps each file's size, and an optional per-file key (a hash of what a
page was rendered from) so a caller can keep a page without rendering it (`keep`) when
its inputs did not change. A kept or skipped file must still be the one pinup wrote: its
size must match, and within one process (`pinup serve` rebuilding) also its mtime and
inode (a file replaced by another has a new inode). The manifest holds nothing that
depends on when or where it was written, so equal inputs give byte-identical folders.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path, PurePosixPath
from stat import S_ISREG
from types import TracebackType
from typing import Protocol

from pinup import manifesttext, outwatch, overwrites
from pinup.buildcache import active
from pinup.stamps import stamp as _stamp
from pinup_feedback.atomicfile import replace_file

MANIFEST = ".pinup-build.json"


class _Kept:
    """A kept group's files with their entries (see `OutputWriter.reuse`), held for the next build.

    Why: a gallery rebuild keeps every brand but one, and taking each kept file's entries over one
    by one would cost a step per file of the whole site. Valid while the next build's previous manifest and stamps
    are the very ones the build cache saved (`BuildCache.output`: the watches were read at its
    start, see `outwatch.begin`) and no build wrote a kept file again (see `finish`).
    """

    __slots__ = ("group", "names", "parents", "files", "sizes", "stamps", "keys")

    def __init__(
        self,
        group: dict[str, object],
        names: list[str],
        files: dict[str, str],
        sizes: dict[str, int],
        stamps: dict[str, list[int]],
        keys: dict[str, str],
    ) -> None:
        self.group, self.names = group, names
        #: the folders holding the files (relative to the output folder): what `outwatch` watches
        self.parents = frozenset(rel.rpartition("/")[0] for rel in names)
        self.files, self.sizes, self.stamps, self.keys = files, sizes, stamps, keys


class OutputPathError(ValueError):
    """A relative output path that would land outside the output directory."""


def _create_new(path: str, data: bytes) -> os.stat_result | None:
    """Write `data` to `path` if no file (or link) is there yet; None when one is.

    Created exclusively (`O_EXCL`: never over a file or a link that appears meanwhile) and
    written in place, which saves the rename of a temporary file: a fresh build creates
    every file. A write that fails removes the half-written file.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o666)
    except FileExistsError:
        return None
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        return os.fstat(fd)
    except BaseException:
        os.close(fd)
        fd = -1
        os.unlink(path)
        raise
    finally:
        if fd >= 0:
            os.close(fd)


_OVERWRITE_FLAGS = (
    os.O_WRONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
)


def _overwrite(path: str, data: bytes) -> os.stat_result | None:
    """Write `data` over the file at `path` in place (see the module's docstring for why).

    None, with nothing written, when `path` is not a plain file with one link: a symbolic
    link, a FIFO (O_NONBLOCK: opening one never waits for a reader) or a file hard-linked
    elsewhere (writing would change the other name too) is replaced by rename instead. A
    write that fails removes the file: what is left of it must not pass for either version.
    """
    try:
        fd = os.open(path, _OVERWRITE_FLAGS)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not S_ISREG(st.st_mode) or st.st_nlink != 1:
            return None
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if st.st_size > len(data):
                os.ftruncate(fd, len(data))
            return os.fstat(fd)
        except BaseException:
            os.unlink(path)
            raise
    finally:
        os.close(fd)


def build_id(files: dict[str, str]) -> str:
    """A short id for a build's content: equal ids, identical outputs (the live-reload version)."""
    return hashlib.sha256("".join(f"{rel}\0{files[rel]}\n" for rel in sorted(files)).encode()).hexdigest()[:16]


def build_info(out_dir: Path | str) -> dict[str, object]:
    """The "build" section of the manifest in `out_dir` (src, apiUrl, id); {} when there is none."""
    try:
        data = json.loads((Path(out_dir) / MANIFEST).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    info = data.get("build") if isinstance(data, dict) else None
    return info if isinstance(info, dict) else {}


class FileSink(Protocol):
    """What renderers write into: an OutputWriter, one of its sub-folders, or memory (MkDocs, gallery workers)."""

    def write_text(self, rel: str, text: str, key: str | None = None) -> bool: ...

    def write_bytes(self, rel: str, data: bytes, key: str | None = None) -> bool: ...

    def keep(self, rel: str, key: str) -> bool: ...

    def reuse(self, key: str, fingerprint: str) -> dict[str, object] | None: ...

    def group(
        self, key: str, fingerprint: str, meta: dict[str, object] | None = None
    ) -> AbstractContextManager[dict[str, object]]: ...


class FolderSink(FileSink, Protocol):
    """A FileSink that hands out sub-folders (the gallery writes one brand per folder)."""

    def sub(self, prefix: str) -> PrefixedWriter: ...


class OutputWriter:
    """Write files under `out_dir` by relative POSIX path; count what was written or skipped."""

    def __init__(self, out_dir: Path | str, clean: bool = False) -> None:
        self.out_dir = Path(out_dir).resolve()
        self.written = 0
        self.skipped = 0
        self.removed = 0
        self._lock = threading.Lock()
        self._seen: dict[str, str] = {}
        #: rel -> its size, its stamp (see `BuildCache.output.stamps`) and the key it was written with
        self._sizes: dict[str, int] = {}
        self._stamps: dict[str, list[int]] = {}
        self._keys: dict[str, str] = {}
        self._groups: dict[str, dict[str, object]] = {}
        self._recording: list[str] | None = None
        #: relative folder -> its checked, resolved path (one realpath per folder, not per file)
        self._dirs: dict[str, str] = {}
        self._made: set[str] = set()
        #: facts about this build saved in the manifest ("build": src, apiUrl, id); see `build_info`
        self.info: dict[str, object] = {}
        #: relative paths (re)written by this build, in order: what a live reload must refresh
        self.changed: list[str] = []
        #: files the kernel saw touched since this process's last build here (`pinup.outwatch`)
        self._touched: set[str] = set()
        #: the build id of the manifest this writer last saved (see `build_id`)
        self._saved_id = ""
        self._finished = False
        #: the manifest's text and stamp as this writer read them: one the same build would write
        #: again is not written again (a build with nothing changed only touches it)
        self._read_text: str | None = None
        self._read_stamp: list[int] | None = None
        #: whether this writer has begun overwriting files in place (see `pinup.overwrites`)
        self._overwriting = False
        _new_build()
        #: what the builds before this one left of this folder (the build cache's)
        self._memos = active().output
        if clean:
            self._clean()
        self._previous, self._previous_groups, self._previous_sizes, self._previous_keys = self._load_manifest()
        self._previous_stamps: dict[str, list[int]] = self._memos.stamps.get(str(self.out_dir), {})
        kept: tuple[dict[str, str], dict[str, list[int]], dict[str, _Kept]] | None = self._memos.kept.get(
            str(self.out_dir)
        )
        #: groups kept by the last build with this cache (for `reuse`), and the ones this build keeps
        self._kept: dict[str, _Kept] = {}
        if kept is not None and kept[0] is self._previous and kept[1] is self._previous_stamps and kept[1]:
            self._kept = kept[2]
        self._keeping: dict[str, _Kept] = {}
        #: whether a file was written (or kept) twice in this build: kept groups are then not carried over
        self._twice = False
        self.out_dir.mkdir(parents=True, exist_ok=True)
        if self._previous_stamps:
            outwatch.begin(str(self.out_dir))

    # -- context manager: the manifest is saved on a successful exit ---------------------
    def __enter__(self) -> OutputWriter:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, _tb: TracebackType | None
    ) -> None:
        try:
            if exc_type is None:
                self.finish()
            else:  # keep what we know so the next build can still skip unchanged files
                self._save_manifest(
                    {**self._previous, **self._seen},
                    {},
                    {**self._previous_sizes, **self._sizes},
                    {**self._previous_keys, **self._keys},
                )
                self._memos.stamps[str(self.out_dir)] = {**self._previous_stamps, **self._stamps}
        finally:
            if self._overwriting:
                self._overwriting = False
                overwrites.end(str(self.out_dir))

    def _begin_overwrites(self) -> None:
        """Tell readers of this process (`pinup serve`) that files here are about to be overwritten."""
        with self._lock:  # other threads writing with this writer wait with it
            if not self._overwriting:
                overwrites.begin(str(self.out_dir))
                self._overwriting = True

    def _clean(self) -> None:
        """Delete a previous build; refuse to empty a directory pinup did not create."""
        if not self.out_dir.exists():
            return
        if not self.out_dir.is_dir():
            raise OutputPathError(f"{self.out_dir} is not a directory")
        if any(self.out_dir.iterdir()) and not (self.out_dir / MANIFEST).exists():
            raise OutputPathError(
                f"refusing to clean {self.out_dir}: it has files but no {MANIFEST} (not a pinup build)"
            )
        import shutil  # only here: a build that does not clean never loads it

        shutil.rmtree(self.out_dir)

    def _load_manifest(
        self,
    ) -> tuple[dict[str, str], dict[str, dict[str, object]], dict[str, int], dict[str, str]]:
        saved = self._memos.manifests.get(str(self.out_dir))
        if saved is not None and saved[0] == _stamp(f"{self.out_dir}/{MANIFEST}"):
            found: tuple[dict[str, str], dict[str, dict[str, object]], dict[str, int], dict[str, str]] = saved[1]
            return found  # the manifest this cache's build wrote last, unchanged since: no need to parse it
        try:
            self._read_stamp = _stamp(f"{self.out_dir}/{MANIFEST}")
            self._read_text = (self.out_dir / MANIFEST).read_text("utf-8")
            data = json.loads(self._read_text)
            files = data.get("files", {})
            groups = data.get("groups", {})
            sizes = data.get("sizes", {})
            keys = data.get("keys", {})
            return (
                {str(k): str(v) for k, v in files.items()} if isinstance(files, dict) else {},
                groups if isinstance(groups, dict) else {},
                {str(k): v for k, v in sizes.items() if isinstance(v, int)} if isinstance(sizes, dict) else {},
                {str(k): str(v) for k, v in keys.items()} if isinstance(keys, dict) else {},
            )
        except (OSError, ValueError, AttributeError):
            return {}, {}, {}, {}

    def _save_manifest(
        self,
        files: dict[str, str],
        groups: dict[str, dict[str, object]],
        sizes: dict[str, int],
        keys: dict[str, str],
    ) -> None:
        text, self._saved_id = manifesttext.encode(str(self.out_dir), self.info, files, groups, sizes, keys)
        unchanged = self._read_stamp is not None and text == self._read_text
        if unchanged and _stamp(f"{self.out_dir}/{MANIFEST}") == self._read_stamp:
            # the file says this already and nobody replaced it since it was read: only its mtime
            # moves, which still tells when the folder was last built (`pinup serve`'s needs_build)
            try:
                os.utime(f"{self.out_dir}/{MANIFEST}")
                return
            except OSError:
                pass
        self.out_dir.mkdir(parents=True, exist_ok=True)
        replace_file(self.out_dir / MANIFEST, text)
        self._read_text = self._read_stamp = None

    # -- paths ---------------------------------------------------------------------------
    def path(self, rel: str) -> Path:
        """The absolute path for `rel`; raises OutputPathError when it escapes out_dir."""
        return Path(self._target(rel)[1])

    def _target(self, rel: str) -> tuple[str, str]:
        """`rel` normalised (as the manifest names it) and the absolute path to write it to.

        Plain string operations (a build checks hundreds of paths): "a//b", "./a" and "a/."
        name what PurePosixPath makes of them; an absolute path, a `..` part, a backslash,
        a NUL or the manifest's own name is refused, and so is a folder or a link that
        resolves outside out_dir.
        """
        normal = self._normal(rel)
        parent, _, name = normal.rpartition("/")
        folder = self._dirs.get(parent)
        if folder is None:
            folder = str(self._inside((self.out_dir / parent).resolve(), rel))
            self._dirs[parent] = folder
        target = f"{folder}/{name}"
        if os.path.islink(target):  # a link in the output folder must not lead out of it
            target = str(self._inside(Path(target).resolve(), rel))
        return normal, target

    @staticmethod
    def _normal(rel: str) -> str:
        """`rel` as the manifest names it; OutputPathError for a path refused before any folder is looked at."""
        if not rel or "\\" in rel or "\x00" in rel:
            raise OutputPathError(f"invalid output path: {rel!r}")
        parts = [part for part in rel.split("/") if part and part != "."]
        if rel.startswith("/") or ".." in parts:
            raise OutputPathError(f"output path escapes the output directory: {rel!r}")
        if not parts:
            raise OutputPathError(f"invalid output path: {rel!r}")
        if parts[-1] == MANIFEST:
            raise OutputPathError(f"{MANIFEST} is reserved")
        return "/".join(parts)

    def _inside(self, target: Path, rel: str) -> Path:
        if target != self.out_dir and self.out_dir not in target.parents:
            raise OutputPathError(f"output path escapes the output directory: {rel!r}")
        return target

    # -- writing -------------------------------------------------------------------------
    def write_text(self, rel: str, text: str, key: str | None = None) -> bool:
        """Write UTF-8 text; returns True if the file was (re)written, False if skipped."""
        return self.write_bytes(rel, utf8(text), key)

    def write_bytes(self, rel: str, data: bytes, key: str | None = None) -> bool:
        """Write `data` unless the file already holds it; `key`: what it was made from (see `keep`)."""
        name, target = self._target(rel)
        digest = hashlib.sha256(data).hexdigest()
        with self._lock:
            if name in self._seen:
                self._twice = True
            self._seen[name] = digest
            if key is not None:
                self._keys[name] = key
            if self._recording is not None:
                self._recording.append(name)
            stamp = self._intact(name, target) if self._previous.get(name) == digest else None
            if stamp is not None:
                self._sizes[name], self._stamps[name] = len(data), stamp
                self.skipped += 1
                return False
        folder = os.path.dirname(target)
        if folder not in self._made:
            os.makedirs(folder, exist_ok=True)
            self._made.add(folder)
        # a file the previous build wrote is most likely still there: replace it straight away
        st = None if name in self._previous else _create_new(target, data)
        if st is None:
            if not self._overwriting:
                self._begin_overwrites()
            st = _overwrite(target, data)
        if st is None:  # not a plain file of its own: replace it by rename
            st = replace_file(target, data)
        with self._lock:
            self._sizes[name], self._stamps[name] = len(data), [st.st_size, st.st_mtime_ns, st.st_ino]
            self.written += 1
            self.changed.append(name)
        return True

    def _intact(self, rel: str, path: str) -> list[int] | None:
        """The stamp of `path` if it is still the file the previous build wrote as `rel`, else None."""
        size = self._previous_sizes.get(rel)
        if size is None or rel in self._touched:
            return None
        try:
            st = os.stat(path)
        except OSError:
            return None
        stamp = [st.st_size, st.st_mtime_ns, st.st_ino]
        if st.st_size != size or self._previous_stamps.get(rel, stamp) != stamp:
            return None
        return stamp

    def keep(self, rel: str, key: str) -> bool:
        """Keep `rel` as the previous build wrote it, if it was made with the same `key` and is intact.

        The caller then need not render it at all; False means: render and write it.
        """
        name = self._normal(rel)
        if self._previous_keys.get(name) != key or name not in self._previous:
            return False
        self._target(rel)  # the same checks as a write
        stamp = self._intact(name, f"{self.out_dir}/{name}")
        if stamp is None:
            return False
        with self._lock:
            if name in self._seen:
                self._twice = True
            self._seen[name] = self._previous[name]
            self._sizes[name], self._stamps[name] = self._previous_sizes[name], stamp
            self._keys[name] = key
            if self._recording is not None:
                self._recording.append(name)
            self.skipped += 1
        return True

    # -- input fingerprints: skip whole groups of outputs whose inputs did not change -----
    def reuse(self, key: str, fingerprint: str) -> dict[str, object] | None:
        """If group `key` was built from the same inputs and its files are intact, keep them.

        Returns the group's saved metadata (e.g. what an index page needs) or None when
        the group must be rebuilt. Rendering is skipped entirely for reused groups.
        """
        prev = self._previous_groups.get(key)
        if not isinstance(prev, dict) or prev.get("fingerprint") != fingerprint:
            return None
        kept = self._kept.get(key)
        if (
            kept is None
            or kept.group is not prev
            or not outwatch.untouched(str(self.out_dir), kept.parents, self._previous_stamps)
        ):
            files = prev.get("files")
            if not isinstance(files, list):
                return None
            stamps = self._group_stamps(key, files)
            if stamps is None:
                return None
            previous, sizes, keys = self._previous, self._previous_sizes, self._previous_keys
            names = [str(rel) for rel in files]  # strings: `_group_stamps` checked them
            kept = _Kept(
                prev,
                names,
                {rel: previous[rel] for rel in names},
                {rel: sizes[rel] for rel in names},
                stamps,
                {rel: keys[rel] for rel in names if rel in keys},
            )
        with self._lock:
            self._seen.update(kept.files)
            self._sizes.update(kept.sizes)
            self._stamps.update(kept.stamps)
            self._keys.update(kept.keys)
            self.skipped += len(kept.names)
            self._groups[key] = prev
            self._keeping[key] = kept
        meta = prev.get("meta")
        return meta if isinstance(meta, dict) else {}

    def _group_stamps(self, key: str, files: list[object]) -> dict[str, list[int]] | None:
        """`_intact` for every file of a group, inlined (a gallery rebuild checks every unchanged
        brand's files); None when one is not as the previous build left it. Within a process
        whose output folders are watched (`pinup.outwatch`), the kernel answers instead.

        The files of a sub-folder's group are looked up relative to that folder, opened once,
        which spares the kernel walking the whole path for each of them.
        """
        previous, sizes, prev_stamps = self._previous, self._previous_sizes, self._previous_stamps
        folder, _, _ = key.rpartition("/")
        start = len(folder) + 1
        names: list[str] = []
        for rel in files:
            if not isinstance(rel, str) or sizes.get(rel) is None or rel not in previous:
                return None
            names.append(rel)
        if prev_stamps and all(rel in prev_stamps for rel in names):
            # the kernel may know: nothing touched them since this process's last build, or something did
            seen = outwatch.check(str(self.out_dir), names, prev_stamps)
            if seen is not None:
                if seen:
                    return {rel: prev_stamps[rel] for rel in names}
                self._touched.update(names)  # a stat might not tell: write them all again
                return None
        fd = -1
        if folder and os.stat in os.supports_dir_fd and all(rel.startswith(folder + "/") for rel in names):
            try:
                fd = os.open(f"{self.out_dir}/{folder}", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
            except OSError:
                return None
        stat, root = os.stat, str(self.out_dir)
        stamps = {}
        try:
            for rel in names:
                st = stat(rel[start:], dir_fd=fd) if fd >= 0 else stat(f"{root}/{rel}")
                stamp = [st.st_size, st.st_mtime_ns, st.st_ino]
                known = prev_stamps.get(rel)
                if (stamp != known) if known is not None else (st.st_size != sizes[rel]):
                    return None
                stamps[rel] = stamp
        except OSError:
            return None
        finally:
            if fd >= 0:
                os.close(fd)
        return stamps

    @contextmanager
    def group(self, key: str, fingerprint: str, meta: dict[str, object] | None = None) -> Iterator[dict[str, object]]:
        """Record the files written inside the block as group `key` (see `reuse`)."""
        record: list[str] = []
        meta_out: dict[str, object] = dict(meta or {})
        self._recording = record
        try:
            yield meta_out
        finally:
            self._recording = None
        group: dict[str, object] = {"fingerprint": fingerprint, "files": record, "meta": meta_out}
        self._groups[key] = group
        with self._lock:  # what the next build needs to keep it (see `_Kept`)
            keys = self._keys
            self._keeping[key] = _Kept(
                group,
                record,
                {rel: self._seen[rel] for rel in record},
                {rel: self._sizes[rel] for rel in record},
                {rel: self._stamps[rel] for rel in record},
                {rel: keys[rel] for rel in record if rel in keys},
            )

    def sub(self, prefix: str) -> PrefixedWriter:
        """A writer for a sub-folder (e.g. one brand of the gallery) sharing this manifest."""
        # checked as a path here; its folder (a link leading out?) when a file is written in it
        return PrefixedWriter(self, self._normal(prefix))

    @property
    def build_id(self) -> str:
        """The id of what this build wrote or kept (see `build_id`): the saved manifest's, once finished."""
        return self._saved_id if self._finished else build_id(self._seen)

    @property
    def paths(self) -> list[str]:
        """Relative paths written or confirmed in this build, sorted."""
        return sorted(self._seen)

    def finish(self) -> None:
        """Remove outputs of the previous build that this build no longer produces; save the manifest."""
        for rel in self._previous.keys() - self._seen.keys():
            try:
                target = self.path(rel)
            except OutputPathError:
                continue
            if target.is_file():
                target.unlink()
                self.removed += 1
                parent = target.parent
                while parent != self.out_dir and parent.is_dir() and not any(parent.iterdir()):
                    parent.rmdir()
                    parent = parent.parent
        self._save_manifest(self._seen, self._groups, self._sizes, self._keys)
        self._finished = True
        stamps = dict(self._stamps)
        self._memos.stamps[str(self.out_dir)] = stamps
        outwatch.after_build(str(self.out_dir), stamps)
        self._dirs.clear()  # folders may have been removed above
        self._made.clear()
        self._previous = dict(self._seen)
        self._previous_groups = dict(self._groups)
        self._previous_sizes = dict(self._sizes)
        self._previous_stamps = stamps
        self._previous_keys = dict(self._keys)
        # the groups kept hold for the next build, unless one of their files was written again since
        self._kept, self._keeping = ({} if self._twice else self._keeping), {}
        self._twice = False
        self._memos.kept[str(self.out_dir)] = (self._previous, stamps, self._kept)
        # never changed in place (a writer replaces them), so the next writer may share them
        self._memos.manifests[str(self.out_dir)] = (
            _stamp(f"{self.out_dir}/{MANIFEST}"),
            (self._previous, self._previous_groups, self._previous_sizes, self._previous_keys),
        )


class PrefixedWriter:
    """The OutputWriter interface, rooted at a sub-folder of another writer."""

    def __init__(self, parent: FileSink, prefix: str) -> None:
        self.parent = parent
        self.prefix = prefix

    def write_text(self, rel: str, text: str, key: str | None = None) -> bool:
        return self.parent.write_text(f"{self.prefix}/{rel}", text, key)

    def write_bytes(self, rel: str, data: bytes, key: str | None = None) -> bool:
        return self.parent.write_bytes(f"{self.prefix}/{rel}", data, key)

    def keep(self, rel: str, key: str) -> bool:
        return self.parent.keep(f"{self.prefix}/{rel}", key)

    def reuse(self, key: str, fingerprint: str) -> dict[str, object] | None:
        return self.parent.reuse(f"{self.prefix}/{key}", fingerprint)

    def group(
        self, key: str, fingerprint: str, meta: dict[str, object] | None = None
    ) -> AbstractContextManager[dict[str, object]]:
        return self.parent.group(f"{self.prefix}/{key}", fingerprint, meta)


class MemoryWriter:
    """The OutputWriter interface collecting files in memory (the MkDocs plugin adds them as files)."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.written = 0
        self.skipped = 0
        _new_build()

    def write_text(self, rel: str, text: str, key: str | None = None) -> bool:
        return self.write_bytes(rel, text.encode("utf-8"))

    def write_bytes(self, rel: str, data: bytes, key: str | None = None) -> bool:
        pure = PurePosixPath(rel)
        if not rel or pure.is_absolute() or ".." in pure.parts:
            raise OutputPathError(f"invalid output path: {rel!r}")
        self.files[pure.as_posix()] = data
        self.written += 1
        return True

    def sub(self, prefix: str) -> PrefixedWriter:
        return PrefixedWriter(self, prefix.strip("/"))

    def reuse(self, key: str, fingerprint: str) -> dict[str, object] | None:
        return None

    def keep(self, rel: str, key: str) -> bool:
        return False  # nothing from an earlier build to keep

    @contextmanager
    def group(self, key: str, fingerprint: str, meta: dict[str, object] | None = None) -> Iterator[dict[str, object]]:
        yield dict(meta or {})


def _new_build() -> None:
    """A writer means a build starts: templates check their files again (once, not per page).

    A process that never loaded a template has none to tell (and a build that renders nothing
    need not load MarkupSafe for it)."""
    templates = sys.modules.get("pinup.templating_template")
    if templates is not None:
        templates.new_build()


def utf8(text: str) -> bytes:
    """`text` as UTF-8. A YAML `"\\ud800"` escape gives a lone surrogate, which UTF-8 cannot hold:
    a pair becomes its character and a lone one U+FFFD, as a browser shows a broken sequence."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode("utf-8")
