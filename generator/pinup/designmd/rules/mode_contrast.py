"""mode-contrast (pinup, with modes): the contrast checks again in every other mode.

`contrast-ratio` (component textColor on backgroundColor) and `on-color-contrast`
(`on-X` on `X`) judge the default mode's values. A dark value can fail where the
light one passes, so each pair is checked again in each other mode in which both
of its colours have a value of their own. A pair where only one side has a mode
value (say `on-primary-dark` but no dark `primary-hover`) says nothing about what
the author intends in that mode, so it is not judged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pinup.designmd.builder import Model, RawFinding
from pinup.designmd.colors import CssColor, ratio
from pinup.designmd.dimensions import is_reference
from pinup.designmd.jsnum import to_fixed

if TYPE_CHECKING:
    from typing import Any

AA = 4.5


def _component_color(model: Model, raw: Any, default: Any, mode: str) -> tuple[Any, bool]:
    """A component property's colour in `mode`, and whether it differs from the default mode's."""
    if isinstance(raw, str) and is_reference(raw):
        value = model.modes.values.get(mode, {}).get(raw[1:-1])
        if isinstance(value, CssColor):
            return value, True
    return default, False


def _pairs(model: Model, mode: str) -> list[tuple[str, str, CssColor, CssColor]]:
    """(path, description, foreground, background) for each pair with both colours set in `mode`."""
    out: list[tuple[str, str, CssColor, CssColor]] = []
    for name, comp in model.components.items():
        raw, props = comp.raw, comp.properties
        bg, bg_own = _component_color(model, raw.get("backgroundColor"), props.get("backgroundColor"), mode)
        fg, fg_own = _component_color(model, raw.get("textColor"), props.get("textColor"), mode)
        if isinstance(bg, CssColor) and isinstance(fg, CssColor) and bg_own and fg_own:
            out.append((f"components.{name}", "textColor ({fg}) on backgroundColor ({bg})", fg, bg))
    values = model.modes.values.get(mode, {})
    for name in model.colors:
        head, dot, tail = name.rpartition(".")
        if not (tail.startswith("on-") and len(tail) > 3):
            continue
        base = f"{head}{dot}{tail[3:]}"
        if base not in model.colors:
            continue
        fg_path, bg_path = f"colors.{name}", f"colors.{base}"
        if fg_path not in values or bg_path not in values:
            continue
        fg = values.get(fg_path, model.colors[name])
        bg = values.get(bg_path, model.colors[base])
        out.append((fg_path, f"'{name}' ({{fg}}) on '{base}' ({{bg}})", fg, bg))
    return out


def check(model: Model) -> list[RawFinding]:
    """Each pair below WCAG AA (4.5:1) in a mode other than the default."""
    spec = model.modes.spec
    if spec is None:
        return []
    findings: list[RawFinding] = []
    for mode in spec.themes:
        if mode == spec.default:
            continue
        for path, what, fg, bg in _pairs(model, mode):
            value = ratio(fg, bg)
            if value < AA:
                text = what.format(fg=fg.hex, bg=bg.hex)
                findings.append(
                    RawFinding(
                        "warning",
                        path,
                        f"In {mode} mode, {text} has contrast ratio {to_fixed(value, 2)}:1, "
                        "below WCAG AA minimum of 4.5:1.",
                    )
                )
    return findings
