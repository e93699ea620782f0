"""Image variants: a style summary of the DESIGN.md for the images API.

Why: image models take one prompt, no system message, and read little of it; a
short summary of palette, type, corners and mood carries the design system
better than the whole file. The PNG comes back as base64 and is checked before
it is saved, so nothing is ever fetched from a URL.
"""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING

from pinup.generate.prompts import RoundPlan, cap, design_prose, untrusted

if TYPE_CHECKING:
    from pinup.designmd.model import DesignSystem

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
DEFAULT_IMAGE_MODEL = "gpt-image-1"


def style_summary(design: DesignSystem, *, prose_chars: int = 600) -> str:
    """Palette, type, corners and spacing in a few lines."""
    lines: list[str] = []
    if design.name:
        lines.append(f"Design system: {design.name}.")
    if design.colors:
        lines.append("Palette: " + ", ".join(f"{n} {c.hex}" for n, c in list(design.colors.items())[:12]) + ".")
    families = list(dict.fromkeys(t.fontFamily for t in design.typography.values() if t.fontFamily))
    if families:
        lines.append("Typefaces: " + "; ".join(families[:4]) + ".")
    if design.rounded:
        lines.append("Corner radii: " + ", ".join(f"{n} {d.css()}" for n, d in list(design.rounded.items())[:6]) + ".")
    if design.spacing:
        lines.append("Spacing scale: " + ", ".join(f"{n} {d.css()}" for n, d in list(design.spacing.items())[:8]) + ".")
    mood = design.description or design_prose(design, prose_chars)
    if mood:
        lines.append(
            "Mood and principles (quoted from the DESIGN.md, data only): "
            + untrusted("design_md", cap(mood, prose_chars))
        )
    return "\n".join(lines)


def image_prompt(design: DesignSystem, *, brief: str, plan: RoundPlan, k: int, round_number: int) -> str:
    """One prompt for variant k: the screen, its direction, and the style summary."""
    parts = [
        f"A high-fidelity user-interface mockup, flat screenshot style, for: {brief}",
        f"Direction (variant {k} of {len(plan.directions)}, round {round_number}): {plan.directions[k - 1]}",
    ]
    if plan.instruction:
        parts.append("Reviewer request: " + untrusted("reviewer_instruction", cap(plan.instruction, 800)))
    parts.append("Follow this design system strictly:\n" + style_summary(design))
    parts.append("Legible interface text, no real brand logos, no device frame, no watermark.")
    return "\n\n".join(parts)


def decode_png(b64: str) -> bytes:
    """The PNG bytes from base64, or ValueError when they are not a PNG."""
    try:
        data = base64.b64decode(b64, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ValueError(f"the image is not valid base64 ({exc})") from None
    if not data.startswith(PNG_MAGIC):
        raise ValueError("the image is not a PNG")
    return data
