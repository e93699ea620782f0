"""When a board's built files can be kept: a fingerprint of everything they are made from.

Why: a build rendered every board page again, and the first one imported Jinja2, though most
builds change no board (a build with nothing changed, an edit of the DESIGN.md's prose that the
boards do not show, `pinup serve` after an edit of another board). Each board's files are a
group of the build's output (`OutputWriter.group`), kept while its fingerprint stays the same:
what the pages show of the DESIGN.md (its theme, tweak controls and name: `shown_fingerprint`,
with pinup's code and the user's templates), the options a board page shows, the token it
embeds, the feedback schema its limits come from, and the stamp (type, size, mtime, ctime,
inode) of every file and folder in the board's folder. The boards index is a group too,
fingerprinted by every board.yaml.

A stamp cannot tell an edit in the same clock tick from none (the kernel's timestamps are
coarse), so a file changed in the last two seconds is vouched for by its bytes too (a hash of
them beside its stamp): a build right after an edit renders the board, and the next one, still
within the two seconds, keeps it unless the bytes changed again. Folders need no such care:
their listings are walked every time. A file too large to hash cheaply (`RACY_MAX_BYTES`) while
it is that recent, or a link anywhere in the folder (its target's folder is not watched), leaves
the board without a fingerprint: it is rendered.
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from pinup.buildoptions import BuildOptions

#: how recent a change may be and still be told apart from the next one by its stamp
RACY_NS = 2_000_000_000
#: the largest recent file whose bytes are hashed rather than its board rendered (an image a
#: generated round just wrote is a few MB; hashing it costs less than rendering the board)
RACY_MAX_BYTES = 32 * 1024 * 1024


def shown_fingerprint(design: Any, templates: Path | str | None, theme: str | None = None) -> str:
    """What the board pages and the index show of the DESIGN.md (its theme, tweak controls and
    name) and the code and templates that render them. An edit of its prose changes none of it.
    `theme`: the design's `theme_css`, when the caller has it already."""
    from pinup.boards.context import site_name
    from pinup.codeprint import code_fingerprint
    from pinup.theme import theme_css
    from pinup.tweaks import tweakables

    digest = hashlib.sha256()
    for part in (
        theme if theme is not None else theme_css(design),
        repr(tweakables(design)),
        site_name(design),
        code_fingerprint(str(templates) if templates else None),
    ):
        digest.update(len(part).to_bytes(8, "big") + part.encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def common_fingerprint(shown: str, options: BuildOptions) -> str:
    """What every board page and the index are made from besides their own folder (`shown`: see
    `shown_fingerprint`)."""
    from importlib.util import find_spec

    parts = [
        shown,
        f"inline={options.inline}",
        f"api={options.api_url or ''}",
        f"results={options.results}",
    ]
    schema = find_spec("pinup_feedback.schema")  # the page's field limits (`pinup.boards.limits`)
    origin = schema.origin if schema is not None else None
    parts.append(_stamp(origin) if origin else "no-schema")
    return "\n".join(parts)


def board_fingerprint(folder: Path, common: str, token: str | None) -> str | None:
    """The fingerprint of one board's files, or None when stamps cannot vouch for its folder."""
    parts = [common, f"token={token or ''}"]
    try:
        if not _walk(str(folder), parts, time.time_ns()):
            return None
    except OSError:
        return None
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def index_fingerprint(folders: list[Path], common: str) -> str | None:
    """The fingerprint of the boards index: every board.yaml's stamp (the index shows only what they say)."""
    parts = [common]
    now = time.time_ns()
    try:
        for folder in folders:
            path = folder / "board.yaml"
            st = os.lstat(path)
            if not _plain(st) or not _vouch(str(path), st, now, parts, folder.name):
                return None
    except OSError:
        return None
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def _walk(folder: str, parts: list[str], now: int) -> bool:
    """Append the stamp of `folder` and of everything in it (and the bytes' hash of every recent
    file); False on a link, or on a recent file too large to hash."""
    st = os.lstat(folder)
    if not _plain(st):
        return False
    parts.append(f".:{_stat_line(st)}")
    with os.scandir(folder) as listing:
        entries = sorted(listing, key=lambda entry: entry.name)
    for entry in entries:
        st = entry.stat(follow_symlinks=False)
        if not _plain(st):
            return False
        if entry.is_dir(follow_symlinks=False):
            parts.append(f"{entry.name}:{_stat_line(st)}")
            parts.append("{")
            if not _walk(entry.path, parts, now):
                return False
            parts.append("}")
        elif not _vouch(entry.path, st, now, parts, entry.name):
            return False
    return True


def _vouch(path: str, st: os.stat_result, now: int, parts: list[str], name: str) -> bool:
    """Append the file's stamp, and the hash of its bytes when the stamp is too recent to vouch for
    them alone; False when it is recent and larger than `RACY_MAX_BYTES`."""
    line = f"{name}:{_stat_line(st)}"
    if _racy(st, now):
        if st.st_size > RACY_MAX_BYTES:
            return False
        # not through a link put in its place since the stat: the bytes must be this file's
        with open(os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)), "rb") as handle:
            line += f":{hashlib.sha256(handle.read()).hexdigest()}"
    parts.append(line)
    return True


def _plain(st: os.stat_result) -> bool:
    import stat

    return stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)


def _racy(st: os.stat_result, now: int) -> bool:
    return now - max(st.st_mtime_ns, st.st_ctime_ns) < RACY_NS


def _stat_line(st: os.stat_result) -> str:
    return f"{st.st_mode}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}"


def _stamp(path: str) -> str:
    try:
        return f"{path}:{_stat_line(os.stat(path))}"
    except OSError:
        return f"{path}:-"
