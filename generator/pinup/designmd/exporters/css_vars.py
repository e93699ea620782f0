"""`css-vars`: plain CSS custom properties on `:root`, with an optional prefix.

Without `modes` the output is the reference's, byte for byte. With `modes` the
`:root` block also carries typography, and each other mode gets its own rules
(see `mode_blocks`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pinup.designmd.exporters import mode_blocks

if TYPE_CHECKING:
    from pinup.designmd.model import DesignSystem

_GROUP_PREFIX = {"colors": "color", "spacing": "spacing", "rounded": "rounded"}
_DIMENSIONS = (("fontSize", "font-size"), ("lineHeight", "line-height"), ("letterSpacing", "letter-spacing"))


def _lead(prefix: str | None) -> str:
    return f"--{prefix}-" if prefix else "--"


def declarations(design: DesignSystem, *, prefix: str | None = None) -> list[tuple[str, str]]:
    """(`--property`, value) pairs: colours, then spacing, then rounded (the reference's order)."""
    lead = _lead(prefix)
    out = [(f"{lead}color-{n.replace('.', '-')}", c.hex.lower()) for n, c in design.colors.items()]
    out += [(f"{lead}spacing-{n.replace('.', '-')}", d.css()) for n, d in design.spacing.items()]
    out += [(f"{lead}rounded-{n.replace('.', '-')}", d.css()) for n, d in design.rounded.items()]
    return out


def typography_declarations(design: DesignSystem, *, prefix: str | None = None) -> list[tuple[str, str]]:
    """`--typography-<level>-<property>` for every property a level sets (pinup's `--modes` addition)."""
    lead = _lead(prefix)
    out: list[tuple[str, str]] = []
    for name, typo in design.typography.items():
        base = f"{lead}typography-{name.replace('.', '-')}"
        if typo.fontFamily is not None:
            out.append((f"{base}-font-family", typo.fontFamily))
        for prop, css in _DIMENSIONS:
            dim = getattr(typo, prop)
            if dim is not None:
                out.append((f"{base}-{css}", dim.css()))
        if typo.fontWeight is not None:
            from pinup.designmd.jsnum import js_number

            out.append((f"{base}-font-weight", js_number(typo.fontWeight)))
    return out


def render(design: DesignSystem, *, prefix: str | None = None, modes: bool = False) -> str:
    """`:root {` ... `}` followed by a blank line, as the reference prints it; `modes` adds the rest."""
    decls = declarations(design, prefix=prefix)
    if modes:
        decls += typography_declarations(design, prefix=prefix)
    lines = [":root {"] + [f"  {prop}: {value};" for prop, value in decls]
    text = "\n".join(lines) + "\n}\n"
    if modes:
        lead = _lead(prefix)
        extra = mode_blocks.blocks(design, lambda group, name: f"{lead}{_GROUP_PREFIX[group]}-{name.replace('.', '-')}")
        text += "".join("\n" + block for block in extra)
    return text + "\n"
