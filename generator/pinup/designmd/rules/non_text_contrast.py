"""non-text-contrast: borders, focus rings and icons below WCAG 1.4.11's 3:1 against their surface."""

from __future__ import annotations

import re

from pinup.designmd.builder import Model, RawFinding
from pinup.designmd.colors import CssColor, ratio
from pinup.designmd.jsnum import to_fixed

MINIMUM = 3.0
#: component properties that draw a boundary, a focus indicator or an icon
_PROPERTY = re.compile(r"border|outline|ring|focus|icon|stroke|indicator", re.IGNORECASE)
#: those drawn outside the component (focus rings, outlines): they sit on the page, not on the component
_OUTSIDE = re.compile(r"outline|ring|focus", re.IGNORECASE)
#: colour tokens meant for focus indicators, icons or input boundaries (not `outline`/`divider` hairlines)
_TOKEN = re.compile(r"^(?:focus(?:-ring)?|ring|icons?(?:-[a-z0-9-]+)?|[a-z0-9-]+-icon|(?:input|field|control)-border)$")
_SURFACES = ("surface", "background")


def _surface(model: Model, suffix: str) -> tuple[str, CssColor] | None:
    for name in _SURFACES:
        color = model.colors.get(name + suffix)
        if color is not None:
            return name + suffix, color
    return None


def _advice(surface: CssColor, current: CssColor) -> str:
    """The failing colour made darker (on a light surface) or lighter until it reaches 3:1, same hue."""
    from pinup.designmd.colordiff import to_oklab
    from pinup.designmd.colors import _oklab_to_rgb

    lightness, a, b = to_oklab(current)
    darker = surface.luminance > 0.18  # mid-grey: above it, dark marks stand out best
    low, high = (0.0, lightness) if darker else (lightness, 1.0)
    best: CssColor | None = None
    for _ in range(24):  # bisect the OKLab lightness for the colour closest to the current that passes
        middle = (low + high) / 2
        candidate = CssColor(*_oklab_to_rgb(middle, a, b), None)
        if ratio(candidate, surface) >= MINIMUM:
            best = candidate
            low, high = (middle, high) if darker else (low, middle)
        else:
            low, high = (low, middle) if darker else (middle, high)
    if best is None:
        return "use a colour with at least 3:1 against it"
    how = "darken" if darker else "lighten"
    return f"{how} it to {best.hex} ({to_fixed(ratio(best, surface), 2)}:1) or use another colour with at least 3:1"


def _named(where: str) -> str:
    return where if where == "backgroundColor" else f"'{where}'"


def check(model: Model) -> list[RawFinding]:
    """A component's border, icon or stroke colour below 3:1 against the component's backgroundColor (or the
    page's `surface`/`background`), its outline or focus-ring colour below 3:1 against the page, and colour tokens named for focus rings, icons or input borders
    below 3:1 against `surface`/`background` (WCAG 1.4.11 non-text contrast). `outline` and divider tokens
    are left alone: they are often decorative hairlines."""
    findings: list[RawFinding] = []
    page = _surface(model, "")
    for name, comp in model.components.items():
        own = comp.properties.get("backgroundColor")
        inside = ("backgroundColor", own) if isinstance(own, CssColor) else page
        for prop, value in comp.properties.items():
            if not isinstance(value, CssColor) or prop == "backgroundColor" or not _PROPERTY.search(prop):
                continue
            behind = (page or inside) if _OUTSIDE.search(prop) else inside
            if behind is None:
                continue
            contrast = ratio(value, behind[1])
            if contrast < MINIMUM:
                findings.append(
                    RawFinding(
                        "warning",
                        f"components.{name}.{prop}",
                        f"{prop} ({value.hex}) on {_named(behind[0])} ({behind[1].hex}) has contrast ratio "
                        f"{to_fixed(contrast, 2)}:1, below the 3:1 WCAG 1.4.11 asks of borders, focus "
                        f"indicators and icons; {_advice(behind[1], value)}.",
                    )
                )
    for token, color in model.colors.items():
        base, suffix = (token[:-5], "-dark") if token.endswith("-dark") else (token, "")
        if not _TOKEN.match(base):
            continue
        surface = _surface(model, suffix)
        if surface is None:
            continue
        contrast = ratio(color, surface[1])
        if contrast < MINIMUM:
            findings.append(
                RawFinding(
                    "warning",
                    f"colors.{token}",
                    f"'{token}' ({color.hex}) on '{surface[0]}' ({surface[1].hex}) has contrast ratio "
                    f"{to_fixed(contrast, 2)}:1, below the 3:1 WCAG 1.4.11 asks of focus indicators, icons "
                    f"and input borders; {_advice(surface[1], color)}.",
                )
            )
    return findings
