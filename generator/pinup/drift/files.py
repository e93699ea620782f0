"""The files drift reads: what a path expands to, and which files it skips (with the reason)."""

from __future__ import annotations

import os

from pinup.drift.scan import SUFFIXES

#: files larger than this are skipped, as generated or vendored rather than written by hand
MAX_BYTES = 5 * 1024 * 1024
#: a NUL byte among the first bytes marks a binary file
_SNIFF = 8192
#: folders never walked into (besides hidden ones): installed packages
_SKIP_DIRS = frozenset({"node_modules"})


def suffix(path: str) -> str:
    return os.path.splitext(path)[1].lower()


def expand(paths: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """The supported files under `paths` (sorted within each folder), and the paths that are not there."""
    files: list[str] = []
    missing: list[tuple[str, str]] = []
    for path in paths:
        if os.path.isdir(path):
            found: list[str] = []
            for folder, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
                found += [os.path.join(folder, n) for n in names if suffix(n) in SUFFIXES and not n.startswith(".")]
            files += sorted(found)
        elif os.path.isfile(path):
            files.append(path)
        else:
            missing.append((path, "not found"))
    return files, missing


def read_text(path: str) -> tuple[str | None, str | None]:
    """(text, None), or (None, why it is skipped): unsupported, too large, binary, not UTF-8, unreadable."""
    if suffix(path) not in SUFFIXES:
        return None, "not a CSS, SCSS, Less, HTML, JS/TS, Vue or Svelte file"
    try:
        size = os.path.getsize(path)
        if size > MAX_BYTES:
            return None, f"larger than 5 MB ({size / 1024 / 1024:.1f} MB)"
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        return None, f"could not be read: {exc.strerror or exc}"
    if b"\0" in data[:_SNIFF]:
        return None, "binary"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 (byte {exc.start})"
    return text.removeprefix("\ufeff"), None
