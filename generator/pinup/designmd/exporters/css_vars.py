"""`css-vars`: plain CSS custom properties on `:root`, with an optional prefix."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pinup.designmd.model import DesignSystem


def declarations(design: DesignSystem, *, prefix: str | None = None) -> list[tuple[str, str]]:
    """(`--property`, value) pairs: colours, then spacing, then rounded (the reference's order)."""
    lead = f"--{prefix}-" if prefix else "--"
    out = [(f"{lead}color-{n.replace('.', '-')}", c.hex.lower()) for n, c in design.colors.items()]
    out += [(f"{lead}spacing-{n.replace('.', '-')}", d.css()) for n, d in design.spacing.items()]
    out += [(f"{lead}rounded-{n.replace('.', '-')}", d.css()) for n, d in design.rounded.items()]
    return out


def render(design: DesignSystem, *, prefix: str | None = None) -> str:
    """`:root {` ... `}` followed by a blank line, as the reference prints it."""
    lines = [":root {"] + [f"  {prop}: {value};" for prop, value in declarations(design, prefix=prefix)]
    return "\n".join(lines) + "\n}\n\n"
