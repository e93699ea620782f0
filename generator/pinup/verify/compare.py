"""The image maths of `pinup verify`: pixelmatch's anti-aliasing-aware pixel diff, and SSIM.

The pixel diff is pybind11-pixelmatch, a C++ port of mapbox/pixelmatch: the same colour
threshold and anti-aliasing test (tests/verify/test_compare.py checks its counts against the
pure-Python port), about a thousand times faster, which is what lets a person wait for a
whole page. SSIM (scikit-image) is the perceptual score beside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: pixelmatch's colour threshold (0..1): smaller is stricter; its own default
COLOR_THRESHOLD = 0.1
#: what a page shorter or narrower than the other is padded with
_PAD = (255, 255, 255)


class MissingMaths(Exception):
    """The image libraries are not installed; the message says how to install them."""


def check_installed() -> None:
    """MissingMaths unless the image libraries can be imported (found, not yet loaded: that is slow)."""
    from importlib.util import find_spec

    if any(find_spec(name) is None for name in ("numpy", "pybind11_pixelmatch", "skimage")):
        _libraries()  # raises with the install hint


def _libraries() -> tuple[Any, Any, Any]:
    try:
        import numpy
        import pybind11_pixelmatch
        from skimage.metrics import structural_similarity
    except ImportError:
        raise MissingMaths(
            "pinup verify needs pybind11-pixelmatch, scikit-image and Playwright: pip install 'pinup[verify]'"
        ) from None
    return numpy, pybind11_pixelmatch, structural_similarity


@dataclass(slots=True)
class PixelDiff:
    """Two images compared: how many pixels differ, the SSIM score and a picture of where."""

    width: int
    height: int
    differing: int
    ssim: float
    #: pixelmatch's picture: the first image faded, differing pixels red, anti-aliased ones yellow (PIL RGB)
    image: Any

    @property
    def share(self) -> float:
        """The differing pixels' share of all pixels, 0..1."""
        return self.differing / max(1, self.width * self.height)


def padded(image: Any, width: int, height: int) -> Any:
    """`image` on a white canvas of `width` x `height` (the same image when it already is that size)."""
    from PIL import Image

    if image.size == (width, height):
        return image
    canvas = Image.new("RGB", (width, height), _PAD)
    canvas.paste(image, (0, 0))
    return canvas


def compare(first: Any, second: Any) -> PixelDiff:
    """Compare two RGB images (the smaller padded with white to the larger's size)."""
    from PIL import Image, ImageOps

    numpy, pm, structural_similarity = _libraries()
    width, height = max(first.width, second.width), max(first.height, second.height)
    a, b = padded(first, width, height), padded(second, width, height)
    options = pm.Options()  # pixelmatch's defaults: anti-aliased pixels detected and not counted
    options.threshold = COLOR_THRESHOLD
    output = numpy.zeros((height, width, 4), dtype=numpy.uint8)
    differing = int(
        pm.pixelmatch(
            numpy.asarray(a.convert("RGBA")), numpy.asarray(b.convert("RGBA")), output=output, options=options
        )
    )
    picture = Image.fromarray(output, "RGBA").convert("RGB")  # the first image faded, differences in red
    gray_a, gray_b = ImageOps.grayscale(a), ImageOps.grayscale(b)
    if width < 7 or height < 7:  # SSIM's window is 7 px: a tiny image is equal or not
        ssim = 1.0 if not differing else 0.0
    else:
        ssim = float(structural_similarity(numpy.asarray(gray_a), numpy.asarray(gray_b), data_range=255))
    return PixelDiff(width=width, height=height, differing=differing, ssim=ssim, image=picture)
