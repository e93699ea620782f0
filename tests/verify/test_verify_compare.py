"""The image maths: pybind11-pixelmatch counts as the reference pixelmatch port does; SSIM beside it."""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont
from pixelmatch.contrib.PIL import pixelmatch

from pinup.verify.compare import COLOR_THRESHOLD, compare

DIFF_RED = (255, 0, 0)  # pixelmatch marks differing pixels in this red


def drawing(shift: int = 0, text: str = "Log a sighting") -> Image.Image:
    image = Image.new("RGB", (160, 90), "white")
    draw = ImageDraw.Draw(image)
    draw.ellipse((10 + shift, 10, 60 + shift, 60), fill="#3d5a2a")  # anti-aliased edges
    draw.text((70, 30), text, fill="black", font=ImageFont.load_default(size=14))
    return image


def test_counts_match_the_pure_python_port_anti_aliasing_included() -> None:
    pairs = [(drawing(), drawing(shift=3)), (drawing(), drawing(text="Log a jay")), (drawing(), drawing())]
    for first, second in pairs:
        reference = pixelmatch(first, second, threshold=COLOR_THRESHOLD)
        assert compare(first, second).differing == reference
    assert compare(*pairs[0]).differing > 0 and compare(*pairs[2]).differing == 0


def test_anti_aliased_pixels_are_not_counted() -> None:
    """An edge moved by a fraction of a pixel: pixelmatch tells its shaded pixels from real changes."""
    big = Image.new("RGB", (400, 400), "white")
    ImageDraw.Draw(big).ellipse((40, 40, 360, 360), fill="black")
    moved = Image.new("RGB", (400, 400), "white")
    ImageDraw.Draw(moved).ellipse((42, 40, 362, 360), fill="black")
    first, second = big.resize((100, 100), Image.LANCZOS), moved.resize((100, 100), Image.LANCZOS)
    counted = compare(first, second).differing
    assert 0 < counted < pixelmatch(first, second, threshold=COLOR_THRESHOLD, includeAA=True)


def test_sizes_are_padded_and_the_picture_marks_differences() -> None:
    short, tall = drawing(), Image.new("RGB", (160, 120), "white")
    tall.paste(drawing(shift=20), (0, 0))
    result = compare(short, tall)
    assert (result.width, result.height) == (160, 120) and 0 < result.share < 1 and result.ssim < 1
    assert DIFF_RED in {result.image.getpixel((x, y)) for x in range(160) for y in range(120)}
    same = compare(drawing(), drawing())
    assert same.ssim == 1.0 and DIFF_RED not in {same.image.getpixel((x, y)) for x in range(160) for y in range(90)}
