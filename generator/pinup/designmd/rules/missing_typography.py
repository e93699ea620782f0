"""missing-typography: colours exist but there are no typography tokens."""

from __future__ import annotations

from pinup.designmd.builder import Model, RawFinding
from pinup.designmd.rules.missing_sections import omitted_names


def check(model: Model) -> list[RawFinding]:
    """Warn when typography is not omitted, has no entries, and colours are defined."""
    if "typography" in omitted_names(model):
        return []
    if not model.typography and model.colors:
        return [
            RawFinding(
                "warning",
                "typography",
                "No typography tokens defined. Agents will use default font choices, reducing your control "
                "over the design system's typographic identity.",
            )
        ]
    return []
