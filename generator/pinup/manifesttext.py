"""The build manifest's JSON text, encoding again only the folders that changed since this process's last save.

Why: every build saves the whole manifest (about 125 KB for the bundled gallery: each file's
hash, size and key, and each group's files), yet a one-brand rebuild changes one brand's part
of it. Encoding all of it with json's C encoder, sorting it and hashing the build id took
0.8 ms of a 19 ms rebuild. Here the entries are cut into parts by their first path segment (a
brand's folder, `assets`, `index.html`): a part equal to what this process encoded last time
keeps its text. A part's paths are contiguous in sorted order (every path between two paths
starting with `brand/` starts with it too), so joining the parts sorted by `segment/` gives the
paths in the order `sorted()` does.

`encode` returns exactly `json.dumps(manifest, separators=(",", ":"))` and `build_id`'s id, which
the tests hold it to.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping

_encode = json.JSONEncoder(separators=(",", ":")).encode

#: what one part of the entries was and its text: (files, sizes, keys), each as a dict in path order,
#: and the text of each section's part plus the build id's
_Part = tuple[dict[str, str], dict[str, int], dict[str, str], str, str, str, str]

#: manifest -> segment -> the part encoded last; manifest -> group key -> (group, its text)
_PARTS: dict[str, dict[str, _Part]] = {}
_GROUPS: dict[str, dict[str, tuple[object, str]]] = {}
#: manifests remembered (a process writing more folders forgets the oldest)
MAX_MANIFESTS = 8


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
    by_segment: dict[str, list[str]] = {}
    for rel in files:
        slash = rel.find("/")
        segment = rel[: slash + 1] if slash >= 0 else rel
        found = by_segment.get(segment)
        if found is None:
            by_segment[segment] = [rel]
        else:
            found.append(rel)
    old_parts = _PARTS.pop(where, {})
    old_groups = _GROUPS.pop(where, {})
    parts: dict[str, _Part] = {}
    for segment in sorted(by_segment):
        rels = by_segment[segment]
        rels.sort()
        part_files = {rel: files[rel] for rel in rels}
        part_sizes = {rel: sizes[rel] for rel in rels if rel in sizes}
        part_keys = {rel: keys[rel] for rel in rels if rel in keys}
        old = old_parts.get(segment)
        if old is not None and old[0] == part_files and old[1] == part_sizes and old[2] == part_keys:
            parts[segment] = old
            continue
        parts[segment] = (
            part_files,
            part_sizes,
            part_keys,
            _encode(part_files)[1:-1],
            _encode(part_sizes)[1:-1],
            _encode(part_keys)[1:-1],
            "".join(f"{rel}\0{digest}\n" for rel, digest in part_files.items()),
        )
    texts: dict[str, tuple[object, str]] = {}
    for key in sorted(groups):
        group = groups[key]
        known = old_groups.get(key)
        texts[key] = known if known is not None and known[0] is group else (group, _encode({key: group})[1:-1])
    ordered = parts.values()
    build_id = hashlib.sha256("".join(p[6] for p in ordered).encode()).hexdigest()[:16]
    build = _encode({**info, "id": build_id})
    text = "".join(
        (
            '{"version":1,"build":',
            build,
            ',"files":{',
            ",".join(p[3] for p in ordered if p[3]),
            '},"groups":{',
            ",".join(t for _, t in texts.values()),
            '},"sizes":{',
            ",".join(p[4] for p in ordered if p[4]),
            '},"keys":{',
            ",".join(p[5] for p in ordered if p[5]),
            "}}",
        )
    )
    _PARTS[where], _GROUPS[where] = parts, texts
    while len(_PARTS) > MAX_MANIFESTS:
        oldest = next(iter(_PARTS))
        del _PARTS[oldest], _GROUPS[oldest]
    return text, build_id
