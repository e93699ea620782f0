"""The DESIGN.md model: what every other part of pinup reads.

Slotted dataclasses, the contract between the parser/model builder and its consumers (lint,
export, diff, the site and board builders, generation). The model builder has checked every
value before it makes them, so nothing here validates again. Values mirror the reference CLI's
model (`@google/design.md` 0.4.0) so lint and export can match it, and add what pinup needs on
top: the raw source value of each token and the source line of every token and section.
Fields are keyword-only, so a field with a default (`type`) may come first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Literal

from pinup.designmd.colors import parse_css_color
from pinup.designmd.jsnum import js_number
from pinup.designmd.report import reference_finding

#: how pydantic reads these classes when it describes or serialises them (`TypeAdapter`, a JSON
#: Schema): the docstring under a field is its description. Read only by pydantic, which this
#: module never imports.
PYDANTIC_CONFIG: Final = {"use_attribute_docstrings": True}


@dataclass(slots=True, kw_only=True)
class Color:
    """A colour converted to 8-bit sRGB, as the reference computes it."""

    __pydantic_config__ = PYDANTIC_CONFIG

    type: Literal["color"] = "color"
    hex: str
    """'#rrggbb', plus 2 alpha digits when alpha < 1 (lowercase)."""
    r: int
    g: int
    b: int
    a: float | None = None
    """None for hex without alpha and named colours."""
    luminance: float
    """WCAG 2.0 relative luminance from the 8-bit channels."""
    raw: str | None = None
    """The value as written in the source."""


def parse_color(value: Any) -> Color | None:
    """Parse any CSS colour the spec allows into a `Color` (None when invalid)."""
    parsed = parse_css_color(value)
    if parsed is None:
        return None
    raw = value if isinstance(value, str) else None
    return Color(hex=parsed.hex, r=parsed.r, g=parsed.g, b=parsed.b, a=parsed.a, luminance=parsed.luminance, raw=raw)


@dataclass(slots=True, kw_only=True)
class Dimension:
    """A number with a CSS unit; unit '' is a unitless lineHeight."""

    __pydantic_config__ = PYDANTIC_CONFIG

    type: Literal["dimension"] = "dimension"
    value: float
    unit: str
    raw: str | None = None
    """The value as written in the source."""

    def css(self) -> str:
        """The value as CSS text, formatted as JavaScript would (`16px`, `0.5rem`)."""
        return f"{js_number(self.value)}{self.unit}"


@dataclass(slots=True, kw_only=True)
class Typography:
    """One typography level; only properties that were valid are set."""

    __pydantic_config__ = PYDANTIC_CONFIG

    type: Literal["typography"] = "typography"
    fontFamily: str | None = None
    fontSize: Dimension | None = None
    fontWeight: float | None = None
    lineHeight: Dimension | None = None
    letterSpacing: Dimension | None = None
    fontFeature: str | None = None
    fontVariation: str | None = None


#: how serious a finding is, as the reference names it
Severity = Literal["error", "warning", "info"]


@dataclass(slots=True, kw_only=True)
class Component:
    """A component and its sub-tokens."""

    __pydantic_config__ = PYDANTIC_CONFIG

    properties: dict[str, Any] = field(default_factory=dict)
    """Resolved values: `Color`, `Dimension`, `Typography`, or raw scalars/strings/maps as the reference keeps them."""
    raw: dict[str, Any] = field(default_factory=dict)
    """Each property as written (so `{colors.primary}` stays visible to the site)."""
    unresolved_refs: list[Any] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class Section:
    """A `##` section of the prose."""

    __pydantic_config__ = PYDANTIC_CONFIG

    heading: str
    """The heading text as the reference extracts it."""
    canonical: str | None = None
    """The canonical name after aliases, or None if unknown."""
    line: int
    """The 1-based source line of the heading."""
    body: str = ""
    """The Markdown between this heading and the next `##` heading."""


@dataclass(slots=True, kw_only=True)
class Omission:
    """A section left out on purpose (`omitted`), so the linter does not report it missing."""

    __pydantic_config__ = PYDANTIC_CONFIG

    section: str
    reason: str | None = None


@dataclass(slots=True, kw_only=True)
class DesignSystem:
    """A parsed and resolved DESIGN.md.

    Maps keep the reference's order (JS object key order, then resolved
    references appended), which exports and findings depend on.
    """

    __pydantic_config__ = PYDANTIC_CONFIG

    name: str | None = None
    description: str | None = None
    version: str | None = None
    colors: dict[str, Color] = field(default_factory=dict)
    typography: dict[str, Typography] = field(default_factory=dict)
    rounded: dict[str, Dimension] = field(default_factory=dict)
    spacing: dict[str, Dimension] = field(default_factory=dict)
    components: dict[str, Component] = field(default_factory=dict)
    omitted: list[Omission] = field(default_factory=list)
    unknown: dict[str, Any] = field(default_factory=dict)
    """Unknown top-level keys and their raw values."""
    symbols: dict[str, Any] = field(default_factory=dict)
    """'group.name' -> resolved token object or raw value (the reference's symbol table)."""
    raw_tokens: dict[str, Any] = field(default_factory=dict)
    """'group.name' -> the value as written, for every token leaf."""
    lines: dict[str, int] = field(default_factory=dict)
    """'group.name' (and 'group', 'components.x.prop') -> 1-based source line."""
    sections: list[Section] = field(default_factory=list)
    themes: list[str] = field(default_factory=list)
    """The modes, default first (empty unless modes were read)."""
    default_theme: str | None = None
    """The mode the token values are in ('light' unless declared)."""
    modes: dict[str, dict[str, Color | Dimension]] = field(default_factory=dict)
    """Non-default mode -> 'group.name' -> that token's value in the mode (only tokens that differ)."""
    mode_siblings: dict[str, str] = field(default_factory=dict)
    """'colors.x-dark' -> 'colors.x' for `-dark` tokens read as a dark value."""
    preamble: str = ""
    """The Markdown body before the first `##` heading (front matter removed)."""
    source: str = ""
    """The full source text."""

    def mode_value(self, path: str, mode: str | None) -> Color | Dimension | None:
        """`path`'s value in `mode` (None or the default mode: the token's own value)."""
        if mode and mode != self.default_theme and path in self.modes.get(mode, {}):
            return self.modes[mode][path]
        value = self.symbols.get(path)
        return value if isinstance(value, (Color, Dimension)) else None


@dataclass(slots=True, kw_only=True)
class Finding:
    """One lint finding, serialised exactly like the reference's."""

    __pydantic_config__ = PYDANTIC_CONFIG

    severity: Severity
    path: str | None = None
    message: str
    rule: str | None = None
    line: int | None = None
    """The 1-based source line (pinup only; not in the reference's JSON)."""

    def reference_dict(self) -> dict[str, Any]:
        """Keys in the reference's order, absent values omitted, no `line`."""
        return reference_finding(self.severity, self.path, self.message, self.rule)


@dataclass(slots=True, kw_only=True)
class Summary:
    """How many findings of each severity."""

    __pydantic_config__ = PYDANTIC_CONFIG

    errors: int = 0
    warnings: int = 0
    infos: int = 0


@dataclass(slots=True, kw_only=True)
class LintReport:
    """The result of linting one document: its model, findings and summary."""

    __pydantic_config__ = PYDANTIC_CONFIG

    design: DesignSystem
    findings: list[Finding]
    summary: Summary
