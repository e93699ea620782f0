"""The DESIGN.md tokens drift compares with, named as pinup's exports name them.

Why the exporters: a finding tells a developer what to write instead, so the CSS custom property is
the one `pinup export --format css-vars` writes and the Tailwind name the one `--format css-tailwind`
writes (read from their own `declarations`, in the design's token order), never a name made up here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pinup.designmd.colordiff import to_oklab
from pinup.designmd.exporters import css_vars, tailwind_css

if TYPE_CHECKING:
    from pinup.designmd.model import DesignSystem

#: Tailwind v4 theme namespace -> the utility prefix that uses it
_UTILITIES = {"--color-": "bg-", "--radius-": "rounded-", "--spacing-": "p-", "--text-": "text-", "--font-": "font-"}
#: CSS pixels in one rem or em, the browsers' default font size (what a near-match of `1rem` to `16px` assumes)
PX_PER_EM = 16.0


class Token:
    """One token drift can point to: its path, its value and its exported names."""

    __slots__ = ("path", "value", "css_var", "tailwind_var", "px", "lab", "alpha", "family")

    def __init__(
        self,
        path: str,
        value: str,
        css_var: str | None,
        tailwind_var: str | None,
        *,
        px: float = 0.0,
        lab: tuple[float, float, float] = (0.0, 0.0, 0.0),
        alpha: float = 1.0,
        family: str = "",
    ) -> None:
        self.path = path
        self.value = value
        self.css_var = css_var
        self.tailwind_var = tailwind_var
        # what literals are compared with: pixels (sizes), OKLab and alpha (colours), a lowercase first family
        self.px = px
        self.lab = lab
        self.alpha = alpha
        self.family = family

    def utility(self, prop: str | None = None) -> str | None:
        """The Tailwind utility class using this token (`bg-primary`, `text-primary`, `rounded-md`)."""
        if self.tailwind_var is None:
            return None
        for namespace, prefix in _UTILITIES.items():
            if self.tailwind_var.startswith(namespace):
                name = self.tailwind_var[len(namespace) :]
                if namespace == "--color-":
                    prefix = _color_utility(prop)
                elif namespace == "--spacing-" and prop:
                    prefix = {"margin": "m-", "gap": "gap-", "inset": "inset-"}.get(prop.split("-")[0], "p-")
                return prefix + name
        return None


class Match:
    """What a literal is: `equal` or `near` a token (with the distance), or `none`."""

    __slots__ = ("kind", "token", "distance")

    def __init__(self, kind: str, token: Token | None = None, distance: float = 0.0) -> None:
        self.kind = kind
        self.token = token
        self.distance = distance


def _color_utility(prop: str | None) -> str:
    if prop in ("color", "text-decoration", "text-decoration-color", "caret-color"):
        return "text-"
    if prop and (prop.startswith("border") or prop.startswith("outline")):
        return "border-"
    if prop in ("fill", "stroke"):
        return f"{prop}-"
    return "bg-"


def to_px(value: float, unit: str) -> float:
    """A length in CSS pixels; rem and em at the default 16px (unitless JS numbers are pixels, as React reads them)."""
    return value * PX_PER_EM if unit in ("rem", "em") else value


class TokenIndex:
    """The design's colours, spacing, radii, font sizes and font families, in DESIGN.md order."""

    def __init__(self, design: DesignSystem) -> None:
        #: (kind, literal text) -> its match, filled in by `match.match`
        self.matches: dict[tuple[str, str], Match | None] = {}
        plain = css_vars.declarations(design)
        typo_vars = css_vars.typography_declarations(design)
        tailwind = tailwind_css.declarations(design)
        n_colors, n_spacing = len(design.colors), len(design.spacing)
        typography = list(design.typography.items())
        with_family = [(n, t) for n, t in typography if t.fontFamily is not None]
        with_size = [(n, t) for n, t in typography if t.fontSize is not None]
        self.colors = [
            Token(
                f"colors.{name}",
                c.hex,
                plain[i][0],
                tailwind[i][0],
                lab=to_oklab(c),
                alpha=1.0 if c.a is None else c.a,
            )
            for i, (name, c) in enumerate(design.colors.items())
        ]
        tail = len(tailwind) - len(design.rounded) - n_spacing  # radii, then spacing, close the Tailwind list
        self.spacing = [
            Token(
                f"spacing.{name}",
                d.css(),
                plain[n_colors + i][0],
                tailwind[tail + len(design.rounded) + i][0],
                px=to_px(d.value, d.unit),
            )
            for i, (name, d) in enumerate(design.spacing.items())
            if d.unit in ("px", "rem", "em")
        ]
        self.radii = [
            Token(
                f"rounded.{name}",
                d.css(),
                plain[n_colors + n_spacing + i][0],
                tailwind[tail + i][0],
                px=to_px(d.value, d.unit),
            )
            for i, (name, d) in enumerate(design.rounded.items())
        ]
        family_vars = [prop for prop, _ in typo_vars if prop.endswith("-font-family")]
        size_vars = [prop for prop, _ in typo_vars if prop.endswith("-font-size")]
        self.families = [
            Token(
                f"typography.{name}.fontFamily",
                t.fontFamily or "",
                family_vars[i],
                tailwind[n_colors + i][0],
                family=_first_family(t.fontFamily or ""),
            )
            for i, (name, t) in enumerate(with_family)
        ]
        sizes_at = n_colors + len(with_family)
        self.font_sizes = [
            Token(
                f"typography.{name}.fontSize",
                t.fontSize.css(),
                size_vars[i],
                tailwind[sizes_at + i][0],
                px=to_px(t.fontSize.value, t.fontSize.unit),
            )
            for i, (name, t) in enumerate(with_size)
            if t.fontSize is not None
        ]

    def __bool__(self) -> bool:
        return bool(self.colors or self.spacing or self.radii or self.families or self.font_sizes)

    def count(self) -> int:
        return len(self.colors) + len(self.spacing) + len(self.radii) + len(self.families) + len(self.font_sizes)


def _first_family(value: str) -> str:
    return value.split(",", 1)[0].strip().strip("\"'").strip().lower()
