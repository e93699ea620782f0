"""Draw the example board's PNG variant with Pillow (run once; the PNG is committed).

Usage: .venv/bin/python tests/boards/make_board_images.py
The drawing is deterministic, so re-running it reproduces the same image.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TARGET = ROOT / "site_src" / "boards" / "sighting-badge" / "variants" / "c-lichen-tag.png"

BACKGROUND = (243, 239, 228)  # colors.background
LICHEN = (233, 214, 107)  # colors.lichen
ON_LICHEN = (43, 37, 5)  # colors.on-lichen
PRIMARY = (61, 90, 42)  # colors.primary
OUTLINE = (123, 117, 103)  # colors.outline


def draw(path: Path = TARGET) -> Path:
    """Draw an 800x600 luggage-tag badge in the Mossbook palette."""
    from PIL import Image, ImageDraw, ImageFont

    img = Image.new("RGB", (800, 600), BACKGROUND)
    d = ImageDraw.Draw(img)
    # the tag: a rounded rectangle with a clipped corner and a punched hole
    d.rounded_rectangle((180, 150, 640, 430), radius=36, fill=LICHEN, outline=ON_LICHEN, width=6)
    d.polygon([(180, 150), (260, 150), (180, 230)], fill=BACKGROUND)
    d.line([(260, 150), (180, 230)], fill=ON_LICHEN, width=6)
    d.ellipse((232, 262, 272, 302), fill=BACKGROUND, outline=ON_LICHEN, width=6)
    # the string through the hole
    d.line([(252, 282), (120, 120), (90, 60)], fill=OUTLINE, width=5)
    # a check mark in primary green
    d.line([(340, 290), (385, 335), (470, 235)], fill=PRIMARY, width=22, joint="curve")
    try:
        font = ImageFont.truetype("DejaVuSans-Bold.ttf", 40)
    except OSError:
        font = ImageFont.load_default()
    d.text((410, 520), "Verified sighting", fill=ON_LICHEN, font=font, anchor="mm")
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path, format="PNG", optimize=True)
    return path


if __name__ == "__main__":
    print(draw())
