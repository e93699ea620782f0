"""`json-tailwind` / `tailwind`: a Tailwind v3 `theme.extend` object, as the reference prints it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pinup.designmd.exporters.jsjson import stringify
from pinup.designmd.jsnum import js_number

if TYPE_CHECKING:
    from pinup.designmd.model import DesignSystem


def theme(design: DesignSystem) -> dict[str, Any]:
    """The `{"theme": {"extend": ...}}` object; all five maps are always present."""
    colors = {name: color.hex for name, color in design.colors.items()}
    font_family: dict[str, Any] = {}
    font_size: dict[str, Any] = {}
    for name, typo in design.typography.items():
        if typo.fontFamily is not None:
            # One-element array: the reference does not split font stacks on commas.
            font_family[name] = [typo.fontFamily]
        if typo.fontSize is not None:
            meta: dict[str, str] = {}
            if typo.lineHeight is not None:
                meta["lineHeight"] = typo.lineHeight.css()
            if typo.letterSpacing is not None:
                meta["letterSpacing"] = typo.letterSpacing.css()
            if typo.fontWeight is not None:
                meta["fontWeight"] = js_number(typo.fontWeight)
            font_size[name] = [typo.fontSize.css(), meta]
    return {
        "theme": {
            "extend": {
                "colors": colors,
                "fontFamily": font_family,
                "fontSize": font_size,
                "borderRadius": {name: dim.css() for name, dim in design.rounded.items()},
                "spacing": {name: dim.css() for name, dim in design.spacing.items()},
            }
        }
    }


def render(design: DesignSystem) -> str:
    """Two-space indented JSON plus a newline, as `console.log(JSON.stringify(x, null, 2))`."""
    return stringify(theme(design), remember=True) + "\n"
