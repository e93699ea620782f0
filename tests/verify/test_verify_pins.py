"""Following pins from the variant's render into the implementation's (renders made with Pillow here)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from pinup.verify.approved import Approved, Pin
from pinup.verify.render import Rect, Shot, Viewport
from pinup.verify.run import check_pins


def approved(kind: str, pins: list[Pin]) -> Approved:
    return Approved("b", "Board", 1, "A", "", kind, "phone", Path("a.png"), pins=pins)


def page(square_at: tuple[int, int] | None, color: str = "#3d5a2a") -> Image.Image:
    image = Image.new("RGB", (375, 1200), "white")
    if square_at:
        x, y = square_at
        ImageDraw.Draw(image).rectangle((x, y, x + 39, y + 39), fill=color)
    return image


def test_an_image_pins_box_is_a_share_of_the_image_not_of_the_screen() -> None:
    pin = Pin(1, "the square", "major", None, (0.2, 0.5, 0.2, 0.05))  # 75, 600, 75 x 60 of a 375 x 1200 image
    before = Shot(image=page((90, 610)))
    [same] = check_pins(approved("image", [pin]), before, Shot(image=page((90, 610))), Viewport.of("phone"))
    [gone] = check_pins(approved("image", [pin]), before, Shot(image=page(None)), Viewport.of("phone"))
    assert same.status == "untouched" and same.variant_rect == Rect(75, 600, 75, 60) and same.in_variant is None
    assert gone.status == "changed" and gone.differing_share > 0.3


def test_a_selector_pin_follows_its_element_and_says_when_it_is_missing() -> None:
    pin = Pin(2, "the square", "minor", "#sq", (0.0, 0.0, 0.1, 0.1))
    variant = Shot(image=page((20, 20)), rects=[Rect(20, 20, 40, 40)])
    moved = Shot(image=page((300, 900)), rects=[Rect(300, 900, 40, 40)])
    recolored = Shot(image=page((20, 20), "#b3261e"), rects=[Rect(20, 20, 40, 40)])
    missing = Shot(image=page(None), rects=[None])
    phone = Viewport.of("phone")
    [followed] = check_pins(approved("html", [pin]), variant, moved, phone)
    assert followed.status == "untouched" and followed.moved == (280, 880) and followed.rect == Rect(300, 900, 40, 40)
    [changed] = check_pins(approved("html", [pin]), variant, recolored, phone)
    assert changed.status == "changed" and changed.moved is None
    [lost] = check_pins(approved("html", [pin]), variant, missing, phone)
    assert lost.status == "missing" and lost.in_implementation is False and lost.rect == Rect(20, 20, 40, 40)
