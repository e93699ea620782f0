"""`css-tailwind`: a Tailwind v4 `@theme` block, with the reference's token-name check."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from pinup.designmd.exporters import ExportError, mode_blocks
from pinup.designmd.jsnum import js_number

if TYPE_CHECKING:
    from pinup.designmd.model import DesignSystem

# fullmatch, not `$`: Python's `$` would accept a trailing newline that JavaScript rejects.
_NAME = re.compile(r"[a-zA-Z0-9][a-zA-Z0-9-]*")
_CSS_ESCAPES = str.maketrans({"\\": "\\\\", '"': '\\"', "\n": "\\a ", "\r": "\\d ", "\f": "\\c "})


def check_names(design: DesignSystem) -> None:
    """Raise INVALID_TOKEN_NAME for the first name Tailwind v4 cannot use (components are not checked)."""
    groups: Iterable[Iterable[str]] = (design.colors, design.typography, design.rounded, design.spacing)
    for group in groups:
        for name in group:
            if not _NAME.fullmatch(name):
                raise ExportError(
                    "INVALID_TOKEN_NAME",
                    f'Token name "{name}" is not a valid CSS identifier for Tailwind v4 export '
                    "(must match /^[a-zA-Z0-9][a-zA-Z0-9-]*$/).",
                )


def css_string(value: str) -> str:
    """A CSS string literal: quotes and backslashes escaped, newlines as `\\a `."""
    return '"' + value.translate(_CSS_ESCAPES) + '"'


def declarations(design: DesignSystem) -> list[tuple[str, str]]:
    """(`--property`, value) pairs in the reference's category order."""
    out = [(f"--color-{n}", c.hex) for n, c in design.colors.items()]
    typo = design.typography.items()
    out += [(f"--font-{n}", css_string(t.fontFamily)) for n, t in typo if t.fontFamily is not None]
    out += [(f"--text-{n}", t.fontSize.css()) for n, t in typo if t.fontSize is not None]
    out += [(f"--leading-{n}", t.lineHeight.css()) for n, t in typo if t.lineHeight is not None]
    out += [(f"--tracking-{n}", t.letterSpacing.css()) for n, t in typo if t.letterSpacing is not None]
    out += [(f"--font-weight-{n}", js_number(t.fontWeight)) for n, t in typo if t.fontWeight is not None]
    out += [(f"--radius-{n}", d.css()) for n, d in design.rounded.items()]
    out += [(f"--spacing-{n}", d.css()) for n, d in design.spacing.items()]
    return out


_MODE_PREFIX = {"colors": "--color-", "rounded": "--radius-", "spacing": "--spacing-"}


def render(design: DesignSystem, *, modes: bool = False) -> str:
    """`@theme {` ... `}` plus one newline; raises ExportError before writing anything.

    With `modes`, the tokens that change between modes follow as plain variables: a
    `:root` rule with their default values, then one rule set per other mode.
    """
    check_names(design)
    lines = ["@theme {"] + [f"  {prop}: {value};" for prop, value in declarations(design)] + ["}"]
    text = "\n".join(lines) + "\n"
    if not modes:
        return text

    def name_of(group: str, name: str) -> str:
        return _MODE_PREFIX[group] + name

    defaults = mode_blocks.default_declarations(design, name_of)
    if not defaults:
        return text
    root = ":root {\n" + "".join(f"  {prop}: {value};\n" for prop, value in defaults) + "}\n"
    return text + "".join("\n" + block for block in [root, *mode_blocks.blocks(design, name_of)])
