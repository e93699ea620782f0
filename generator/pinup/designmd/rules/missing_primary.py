"""missing-primary: colours are defined but none is named exactly `primary`."""

from __future__ import annotations

from pinup.designmd.builder import Model, RawFinding


def check(model: Model) -> list[RawFinding]:
    """Warn when the colour map is non-empty and has no `primary` key (nested `brand.primary` does not count)."""
    if model.colors and "primary" not in model.colors:
        return [
            RawFinding(
                "warning",
                "colors",
                "No 'primary' color defined. The agent will auto-generate key colors, reducing your control over the palette.",
            )
        ]
    return []
