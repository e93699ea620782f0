"""Real images for the attachment tests, made by Pillow: one with EXIF (a GPS position, a camera,
a comment) so a test can see the stored copy carries none of it."""

from __future__ import annotations

import io


def photo(fmt: str = "PNG", size: tuple[int, int] = (64, 48), color: str = "#1a73e8") -> bytes:
    """An image in `fmt` (PNG, JPEG or WEBP) with EXIF that names a place and a camera."""
    from PIL import Image

    image = Image.new("RGB", size, color)
    exif = Image.Exif()
    exif[0x010F] = "PinupTestCam"  # Make
    exif[0x0131] = "secret-editor"  # Software
    gps = {1: "N", 2: (48.0, 51.0, 24.0), 3: "E", 4: (2.0, 21.0, 8.0)}
    exif[0x8825] = gps  # GPSInfo
    out = io.BytesIO()
    image.save(out, fmt, exif=exif.tobytes())
    data = out.getvalue()
    assert b"PinupTestCam" in data  # the metadata is really there to be stripped
    return data


def noisy_png(min_bytes: int) -> bytes:
    """A PNG of random pixels at least `min_bytes` long (noise does not compress)."""
    import os

    from PIL import Image

    side = 64
    while True:
        image = Image.frombytes("RGB", (side, side), os.urandom(side * side * 3))
        out = io.BytesIO()
        image.save(out, "PNG")
        if out.tell() >= min_bytes:
            return out.getvalue()
        side *= 2


def has_metadata(data: bytes) -> bool:
    """True when any of the EXIF `photo` writes survives in `data`."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        exif = image.getexif()
        return bool(exif) or b"PinupTestCam" in data or b"secret-editor" in data
