"""The mode blocks `--modes` adds to the CSS exports: one rule per non-default mode.

For each mode other than the default: `[data-theme="<mode>"] { … }`, and for a
`dark` (or `light`) mode also `@media (prefers-color-scheme: dark) {
:root:not([data-theme]) { … } }`, so the page follows the system setting unless
it sets `data-theme` itself (an explicit `data-theme="light"` keeps the default values).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pinup.designmd.model import Color, DesignSystem, Dimension

SCHEMES = ("light", "dark")


def _css(value: Color | Dimension) -> str:
    """A colour as lower-case hex, a dimension as CSS (told by `type`: either model's tokens)."""
    return value.hex.lower() if value.type == "color" else value.css()


def mode_declarations(
    design: DesignSystem, mode: str, name_of: Callable[[str, str], str | None]
) -> list[tuple[str, str]]:
    """(`--property`, value) for every token with its own value in `mode`, in token order.

    `name_of(group, name)` gives the property the format uses, or None to leave the token out.
    """
    values = design.modes.get(mode, {})
    out: list[tuple[str, str]] = []
    for group in ("colors", "spacing", "rounded"):
        for name in getattr(design, group):
            value = values.get(f"{group}.{name}")
            prop = name_of(group, name) if value is not None else None
            if value is not None and prop is not None:
                out.append((prop, _css(value)))
    return out


def _rule(selector: str, declarations: list[tuple[str, str]], indent: str = "") -> str:
    body = "".join(f"{indent}  {prop}: {value};\n" for prop, value in declarations)
    return f"{indent}{selector} {{\n{body}{indent}}}\n"


def blocks(design: DesignSystem, name_of: Callable[[str, str], str | None]) -> list[str]:
    """The `[data-theme]` and `@media (prefers-color-scheme)` rules of every non-default mode."""
    out: list[str] = []
    for mode in design.themes:
        if mode == design.default_theme:
            continue
        declarations = mode_declarations(design, mode, name_of)
        if not declarations:
            continue
        attr = mode.replace("\\", "\\\\").replace('"', '\\"')
        out.append(_rule(f'[data-theme="{attr}"]', declarations))
        if mode in SCHEMES:
            inner = _rule(":root:not([data-theme])", declarations, "  ")
            out.append(f"@media (prefers-color-scheme: {mode}) {{\n{inner}}}\n")
    return out


def default_declarations(design: DesignSystem, name_of: Callable[[str, str], str | None]) -> list[tuple[str, str]]:
    """The default-mode values of the tokens that have a value in some other mode."""
    moded = {path for values in design.modes.values() for path in values}
    out: list[tuple[str, str]] = []
    for group in ("colors", "spacing", "rounded"):
        for name, value in getattr(design, group).items():
            prop = name_of(group, name) if f"{group}.{name}" in moded else None
            if prop is not None:
                out.append((prop, _css(value)))
    return out
