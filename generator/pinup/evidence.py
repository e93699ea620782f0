"""Read the evidence an agent names when it resolves an item: `--commit`, `--pr`, `--evidence FILE`.

A screenshot is checked by its bytes (Pillow opens and decodes it; the extension says nothing), a
`pinup verify` report (its folder or its index.html) is kept as one self-contained HTML file, its
pictures beside it inlined as data URLs, so the stored report shows them wherever it is opened.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path

from pinup_feedback.evidence import MAX_BYTES, Evidence, EvidenceError, EvidenceFile, check

#: a picture the report names by a bare file name in its own folder (what `pinup verify` writes)
_SIBLING = re.compile(rb'src="([A-Za-z0-9][A-Za-z0-9._-]{0,120}\.(?:png|jpe?g))"')
_PICTURES = {"PNG": ("png", "image/png"), "JPEG": ("jpg", "image/jpeg")}


def load(commit: str | None, pr: str | None, path: str | None) -> Evidence | None:
    """The evidence, checked; None when none is given. EvidenceError says what is wrong."""
    if commit is None and pr is None and path is None:
        return None
    return check(Evidence(commit, pr, read_file(Path(path)) if path is not None else None))


def read_file(path: Path) -> EvidenceFile:
    if path.is_dir():
        path = path / "index.html"
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise EvidenceError(f"--evidence {str(path)!r} is {size} bytes; the limit is {MAX_BYTES // 2**20} MB")
        data = path.read_bytes()
    except OSError as exc:
        raise EvidenceError(f"--evidence {str(path)!r} cannot be read: {exc.strerror or exc}") from None
    if path.suffix.lower() in (".html", ".htm"):
        head = data[:4096].lstrip().lower()
        if not head.startswith((b"<!doctype html", b"<html")) or not _is_utf8(data):
            raise EvidenceError(f"--evidence {str(path)!r} is not an HTML page (UTF-8, starting with <!doctype html>)")
        return EvidenceFile(_inline_pictures(data, path.parent), "html", path.name)
    return EvidenceFile(data, _picture_kind(data, path), path.name)


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _picture_kind(data: bytes, path: Path) -> str:
    import io

    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            kind = image.format or ""
            image.load()  # a truncated or corrupt file fails here, not on the board
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        raise EvidenceError(
            f"--evidence {str(path)!r} is not a readable PNG or JPEG image (nor an HTML report)"
        ) from None
    if kind not in _PICTURES:
        raise EvidenceError(f"--evidence {str(path)!r} is a {kind or 'unknown'} image; give a PNG or JPEG screenshot")
    return _PICTURES[kind][0]


def _inline_pictures(html: bytes, folder: Path) -> bytes:
    """The report with each picture of its own folder as a data URL (others are left as they are);
    EvidenceError when the result would pass the size limit."""

    def inline(match: re.Match[bytes]) -> bytes:
        picture = folder / match[1].decode()
        try:
            data = picture.read_bytes()
        except OSError:
            return match[0]
        kind = "image/png" if picture.suffix.lower() == ".png" else "image/jpeg"
        return b'src="data:' + kind.encode() + b";base64," + base64.b64encode(data) + b'"'

    whole = _SIBLING.sub(inline, html)
    if len(whole) > MAX_BYTES:
        raise EvidenceError(
            f"the report in {str(folder)!r} with its pictures is {len(whole)} bytes; the limit is {MAX_BYTES // 2**20} MB"
        )
    return whole
