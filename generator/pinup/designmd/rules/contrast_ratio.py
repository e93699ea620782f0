"""contrast-ratio: component textColor on backgroundColor below WCAG AA (4.5:1)."""

from __future__ import annotations

from pinup.designmd.builder import Model, RawFinding
from pinup.designmd.colors import CssColor, ratio
from pinup.designmd.jsnum import to_fixed


def check(model: Model) -> list[RawFinding]:
    """Warn for each component whose resolved textColor/backgroundColor colours contrast < 4.5:1 (alpha ignored)."""
    findings: list[RawFinding] = []
    for name, comp in model.components.items():
        bg = comp.properties.get("backgroundColor")
        text = comp.properties.get("textColor")
        if not isinstance(bg, CssColor) or not isinstance(text, CssColor):
            continue
        value = ratio(bg, text)
        if value < 4.5:
            findings.append(
                RawFinding(
                    "warning",
                    f"components.{name}",
                    f"textColor ({text.hex}) on backgroundColor ({bg.hex}) has contrast ratio "
                    f"{to_fixed(value, 2)}:1, below WCAG AA minimum of 4.5:1.",
                )
            )
    return findings
