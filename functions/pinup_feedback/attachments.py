"""Images a reviewer attaches to a pin or a comment: checked by their bytes, cleaned, named by content.

A board uploads each image on its own (`POST /api/attachments`, the raw bytes), then names the
uploaded files in the feedback body (`schema.AttachmentIn`): every request stays small enough for
a Lambda, each upload is durable before its 2xx, and the record is stored only once every file it
names is. Here each upload is:

- held to `MAX_BYTES`;
- recognised by its first bytes (PNG, JPEG or WebP) and then decoded by Pillow, so a file that
  only starts like an image is refused too; the name's extension and the declared type must agree
  with what the bytes are;
- re-encoded by Pillow without its metadata (EXIF with its GPS position, XMP, comments), so
  nothing the camera wrote is stored;
- named by the SHA-256 of the cleaned bytes: `attachments/<sha256>.<ext>` in the board's folder, a
  create-only name that the same image, uploaded again, finds already holding its bytes.

Pillow is imported only for an upload: the endpoint's start-up stays light.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from typing import Any

MAX_BYTES = 2 * 1024 * 1024
#: MIME type -> (the extension stored, the extensions a name may have)
TYPES: dict[str, tuple[str, tuple[str, ...]]] = {
    "image/png": ("png", (".png",)),
    "image/jpeg": ("jpg", (".jpg", ".jpeg", ".jpe", ".jfif")),
    "image/webp": ("webp", (".webp",)),
}
_PILLOW_FORMAT = {"image/png": "PNG", "image/jpeg": "JPEG", "image/webp": "WEBP"}
#: the most pixels an attachment may decode to (2 MB of JPEG or WebP can unpack to far more)
MAX_PIXELS = 40_000_000


class AttachmentRefused(Exception):
    """One attachment turned down: `status` (413 too large, 415 not what it claims, 422 otherwise)
    and a message that names the file."""

    def __init__(self, status: int, name: str, message: str) -> None:
        super().__init__(message)
        self.status, self.name, self.message = status, name, message

    def detail(self) -> dict[str, Any]:
        return {"file": self.name, "msg": self.message}


@dataclass(frozen=True, slots=True)
class CleanImage:
    """An attachment as stored: its bytes without metadata, and what the record says of it."""

    data: bytes
    type: str
    sha256: str
    width: int
    height: int

    @property
    def file(self) -> str:
        """Its name relative to the board's folder (local) or the board's key prefix (S3)."""
        return attachment_file(self.sha256, self.type)


def attachment_file(sha256: str, mime: str) -> str:
    return f"attachments/{sha256}.{TYPES[mime][0]}"


def sniff(data: bytes) -> str | None:
    """The MIME type the first bytes announce (PNG, JPEG, WebP), or None."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def _kind(mime: str) -> str:
    return mime.split("/")[1].upper()


def too_large(name: str) -> AttachmentRefused:
    return AttachmentRefused(413, name, f"{name} is over {MAX_BYTES // (1024 * 1024)} MB")


def clean(name: str, data: bytes, declared: str | None = None) -> CleanImage:
    """Check `data` is the image its bytes, its name and `declared` say, and re-encode it bare."""
    if len(data) > MAX_BYTES:
        raise too_large(name)
    mime = sniff(data)
    if mime is None:
        raise AttachmentRefused(415, name, f"{name} is not a PNG, JPEG or WebP image")
    suffix = "." + name.rsplit(".", 1)[1].lower() if "." in name else ""
    claimed = next((m for m, (_, exts) in TYPES.items() if suffix in exts), None)
    if suffix and claimed is None:
        raise AttachmentRefused(415, name, f"{name}: only PNG, JPEG and WebP images can be attached")
    if claimed is not None and claimed != mime:
        raise AttachmentRefused(415, name, f"{name} is named as {_kind(claimed)} but is a {_kind(mime)} image")
    if declared is not None and declared != mime:
        raise AttachmentRefused(415, name, f"{name} is sent as {declared} but is a {_kind(mime)} image")
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data), formats=[_PILLOW_FORMAT[mime]]) as image:
            if image.width * image.height > MAX_PIXELS:
                raise AttachmentRefused(413, name, f"{name} has too many pixels to show")
            image.load()
            out = _reencode(image, mime)
    except AttachmentRefused:
        raise
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, Image.DecompressionBombError):
        raise AttachmentRefused(415, name, f"{name} is not a readable {_kind(mime)} image") from None
    return CleanImage(out, mime, hashlib.sha256(out).hexdigest(), image.width, image.height)


def _reencode(image: Any, mime: str) -> bytes:
    """The pixels alone, in the same format: no EXIF, XMP, ICC profile, text chunks or comments
    carried over (Pillow writes only what it is given). The image's orientation is applied first,
    since the EXIF tag that held it is dropped."""
    from PIL import ImageOps

    upright = ImageOps.exif_transpose(image)
    buffer = io.BytesIO()
    if mime == "image/png":
        if upright.mode not in ("1", "L", "LA", "P", "RGB", "RGBA", "I", "I;16"):
            upright = upright.convert("RGBA")
        # zlib's level 3: a few times faster than the default 6 on photos and screenshots, for
        # files a tenth larger; the upload waits on it and the CPU is the endpoint's
        upright.save(buffer, "PNG", compress_level=3)
    elif mime == "image/jpeg":
        if upright.mode not in ("L", "RGB", "CMYK"):
            upright = upright.convert("RGB")
        upright.save(buffer, "JPEG", quality=90)
    else:
        if upright.mode not in ("RGB", "RGBA"):
            upright = upright.convert("RGBA")
        upright.save(buffer, "WEBP", quality=90)
    return buffer.getvalue()
