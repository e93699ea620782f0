"""The fingerprint of pinup's own code: what every cache of the builders is keyed by, besides its inputs.

A page model, a page or a board kept from an earlier build is reused only while this stays the
same, so an edit of any of pinup's files (or of the libraries whose output they hold) is a new key.
It is worked out once per `BuildCache` (`pinup serve` holds one: an edit of pinup itself needs a
restart, as its code is loaded already).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from pinup.buildcache import active

PACKAGE = Path(__file__).resolve().parent


def code_fingerprint(templates: str | None = None) -> str:
    """Size and mtime of every file of pinup itself (and of the user's templates).

    The whole package, not a list of the modules the site builder uses today: a page
    model or a page must never be reused after any code it may depend on was edited.
    The bundled data (`_data/`: brand files, read as inputs) is left out.
    """
    known = active().code
    found = known.get(templates)
    if found is None:
        found = known[templates] = _fingerprint(templates)
    return found


def _fingerprint(templates: str | None) -> str:
    h = hashlib.sha256()
    roots = [PACKAGE] + ([Path(templates)] if templates else [])
    for root in roots:
        skip = {str(PACKAGE / "_data")} if root == PACKAGE else set()
        for path, st in sorted(_files(str(root), skip), key=lambda found: found[0]):
            h.update(f"{path}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    h.update(_libraries().encode())
    return h.hexdigest()


#: the libraries whose work the cached page models and pages hold: the YAML and Markdown parsers
#: (what the lint read, the prose's HTML) and the template engine
LIBRARIES = ("ruamel/yaml", "markdown_it", "mdurl", "jinja2", "markupsafe")


def _libraries() -> str:
    """Where each of LIBRARIES is installed and when its folder last changed, without importing it.

    Installing another version replaces the package's files, which changes its folder's mtime: a
    cache entry made with the old version (a different rendering of the same prose) is not reused.
    """
    from importlib.machinery import PathFinder

    found = []
    for library in LIBRARIES:
        name, _, inner = library.partition("/")  # ruamel.yaml: a namespace package's part
        spec = PathFinder.find_spec(name)
        folders = list(spec.submodule_search_locations or []) if spec is not None else []
        for folder in sorted(os.path.join(f, inner) if inner else f for f in folders):
            try:
                found.append(f"{name}:{folder}:{os.stat(folder).st_mtime_ns}")
            except OSError:
                found.append(f"{name}:{folder}:-")
    return "\n".join(found)


def _files(root: str, skip: set[str]) -> list[tuple[str, os.stat_result]]:
    """Every file under `root` (but not under `skip`, nor `.pyc` files) with its stat.

    `os.scandir` rather than `Path.rglob`: this runs at the start of every build.
    """
    found: list[tuple[str, os.stat_result]] = []
    try:
        entries = list(os.scandir(root))
    except OSError:
        return found
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                if entry.path not in skip:
                    found += _files(entry.path, skip)
            elif entry.is_file() and not entry.name.endswith(".pyc"):
                found.append((entry.path, entry.stat()))
        except OSError:
            continue
    return found
