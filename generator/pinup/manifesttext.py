"""The build manifest's JSON text, encoding again only the folders that changed since the last save.

Why: every build saves the whole manifest (each file's hash, size and key, and each group's
files), yet a one-brand rebuild changes one brand's part of it, and encoding, sorting and hashing
all of it would make a small rebuild pay for the whole site. Here the entries are cut into parts by their first path segment (a
brand's folder, `assets`, `index.html`): a part equal to what this process encoded last time
keeps its text. The paths are sorted once; a part's paths are contiguous in that order (every
path between two paths starting with `brand/` starts with it too), so the parts are slices of
it, found with a binary search per part, and told unchanged by comparing slices of the
sorted values with the ones saved last time: the work left in Python is a step per part, not
per file.

`encode` returns exactly `json.dumps(manifest, separators=(",", ":"))` and `build_id`'s id, which
the tests hold it to.
"""

from __future__ import annotations

import hashlib
import json
from bisect import bisect_left
from collections.abc import Mapping
from itertools import repeat

from pinup.buildcache import active

_encode = json.JSONEncoder(separators=(",", ":")).encode
#: a path without a size or key (a list of `dict.get` results must tell it from any value)
_NONE = object()


class _Part:
    """One part of the entries as last encoded: its paths and values in path order, and their text."""

    __slots__ = ("rels", "files", "sizes", "keys", "texts")

    def __init__(self, rels: list[str], files: list[str], sizes: list[object], keys: list[object]) -> None:
        self.rels, self.files, self.sizes, self.keys = rels, files, sizes, keys
        part_sizes = {rel: size for rel, size in zip(rels, sizes, strict=True) if size is not _NONE}
        part_keys = {rel: key for rel, key in zip(rels, keys, strict=True) if key is not _NONE}
        #: the text of each section's part, and of the build id's
        self.texts = (
            _encode(dict(zip(rels, files, strict=True)))[1:-1],
            _encode(part_sizes)[1:-1],
            _encode(part_keys)[1:-1],
            "".join(f"{rel}\0{digest}\n" for rel, digest in zip(rels, files, strict=True)),
        )


#: manifests remembered by a build cache (one writing more folders forgets the oldest)
MAX_MANIFESTS = 8


def _segments(rels: list[str]) -> list[tuple[str, int, int]]:
    """Each first path segment of the sorted `rels` (`brand/`, or a file's whole name) and its slice."""
    out: list[tuple[str, int, int]] = []
    start, count = 0, len(rels)
    while start < count:
        rel = rels[start]
        slash = rel.find("/")
        if slash < 0:
            out.append((rel, start, start + 1))
            start += 1
            continue
        segment = rel[: slash + 1]
        stop = bisect_left(rels, rel[:slash] + "0", start + 1)  # "0" sorts right after "/"
        out.append((segment, start, stop))
        start = stop
    return out


def encode(
    where: str,
    info: Mapping[str, object],
    files: Mapping[str, str],
    groups: Mapping[str, object],
    sizes: Mapping[str, int],
    keys: Mapping[str, str],
) -> tuple[str, str]:
    """The manifest saved at `where` as JSON text, and its build id (see `pinup.output.build_id`).

    `groups` are compared by identity: a group kept from the last build is the same object, and
    no one changes a saved group in place (`pinup.output` hands out copies of what it records).
    """
    memos = active().output
    # manifest -> (its sorted paths, their parts as (segment, start, stop)), segment -> the part
    # encoded last, and group key -> (group, its text)
    layouts: dict[str, tuple[list[str], list[tuple[str, int, int]]]] = memos.layouts
    saved_parts: dict[str, dict[str, _Part]] = memos.parts
    saved_groups: dict[str, dict[str, tuple[object, str]]] = memos.groups
    rels = sorted(files)
    layout = layouts.pop(where, None)
    bounds = layout[1] if layout is not None and layout[0] == rels else _segments(rels)
    count = len(rels)
    all_files = list(map(files.__getitem__, rels))
    all_sizes = list(map(sizes.get, rels, repeat(_NONE, count)))
    all_keys = list(map(keys.get, rels, repeat(_NONE, count)))
    old_parts = saved_parts.pop(where, {})
    old_groups = saved_groups.pop(where, {})
    parts: dict[str, _Part] = {}
    for segment, start, stop in bounds:
        part_rels, part_files = rels[start:stop], all_files[start:stop]
        part_sizes, part_keys = all_sizes[start:stop], all_keys[start:stop]
        old = old_parts.get(segment)
        if (
            old is not None
            and old.files == part_files
            and old.rels == part_rels
            and old.sizes == part_sizes
            and old.keys == part_keys
        ):
            parts[segment] = old
        else:
            parts[segment] = _Part(part_rels, part_files, part_sizes, part_keys)
    texts: dict[str, tuple[object, str]] = {}
    for key in sorted(groups):
        group = groups[key]
        known = old_groups.get(key)
        texts[key] = known if known is not None and known[0] is group else (group, _encode({key: group})[1:-1])
    ordered = [part.texts for part in parts.values()]
    build_id = hashlib.sha256("".join(t[3] for t in ordered).encode()).hexdigest()[:16]
    build = _encode({**info, "id": build_id})
    text = "".join(
        (
            '{"version":1,"build":',
            build,
            ',"files":{',
            ",".join(t[0] for t in ordered if t[0]),
            '},"groups":{',
            ",".join(t for _, t in texts.values()),
            '},"sizes":{',
            ",".join(t[1] for t in ordered if t[1]),
            '},"keys":{',
            ",".join(t[2] for t in ordered if t[2]),
            "}}",
        )
    )
    layouts[where], saved_parts[where], saved_groups[where] = (rels, bounds), parts, texts
    while len(saved_parts) > MAX_MANIFESTS:
        oldest = next(iter(saved_parts))
        del saved_parts[oldest], saved_groups[oldest], layouts[oldest]
    return text, build_id
