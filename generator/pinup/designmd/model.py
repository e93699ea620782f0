"""The DESIGN.md model: what every other part of pinup reads.

These pydantic models are the contract between the parser/model builder and
its consumers (lint, export, diff, the site and board builders, generation).
Values mirror the reference CLI's model (`@google/design.md` 0.4.0) so lint and
export can match it, and add what pinup needs on top: the raw source value of
each token and the source line of every token and section.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from pinup.designmd.colors import parse_css_color
from pinup.designmd.jsnum import js_number
from pinup.designmd.report import reference_finding

#: validators are built on first use, not at import: the build path makes these models
#: with `model_construct` from values the model builder has already checked, so a build
#: or a lint never builds one (building the first one in a process also loads pydantic's
#: plugin machinery: `importlib.metadata` and a scan of every installed package).
_DEFERRED = ConfigDict(defer_build=True)


class _Model(BaseModel):
    """The base of this module's models: deferred, and tokens are ready whenever another model is."""

    model_config = _DEFERRED

    @classmethod
    def __pydantic_on_complete__(cls) -> None:
        """Build the token models' serializers along with any model of this module.

        Tokens also sit in `Any` fields (a component's properties, the symbol table), which
        pydantic serialises through the value's own class: that serializer must exist by the
        time a model holding them is dumped, and a deferred class has only a placeholder.
        """
        for token in (Color, Dimension, Typography):
            if not token.__pydantic_complete__:
                token.model_rebuild()


class Color(_Model):
    """A colour converted to 8-bit sRGB, as the reference computes it."""

    type: Literal["color"] = "color"
    hex: str = Field(description="'#rrggbb', plus 2 alpha digits when alpha < 1 (lowercase)")
    r: int
    g: int
    b: int
    a: float | None = Field(None, description="None for hex without alpha and named colours")
    luminance: float = Field(description="WCAG 2.0 relative luminance from the 8-bit channels")
    raw: str | None = Field(None, description="the value as written in the source")


def parse_color(value: Any) -> Color | None:
    """Parse any CSS colour the spec allows into a `Color` (None when invalid)."""
    parsed = parse_css_color(value)
    if parsed is None:
        return None
    raw = value if isinstance(value, str) else None
    return Color(hex=parsed.hex, r=parsed.r, g=parsed.g, b=parsed.b, a=parsed.a, luminance=parsed.luminance, raw=raw)


class Dimension(_Model):
    """A number with a CSS unit; unit '' is a unitless lineHeight."""

    type: Literal["dimension"] = "dimension"
    value: float
    unit: str
    raw: str | None = None

    def css(self) -> str:
        """The value as CSS text, formatted as JavaScript would (`16px`, `0.5rem`)."""
        return f"{js_number(self.value)}{self.unit}"


class Typography(_Model):
    """One typography level; only properties that were valid are set."""

    type: Literal["typography"] = "typography"
    fontFamily: str | None = None
    fontSize: Dimension | None = None
    fontWeight: float | None = None
    lineHeight: Dimension | None = None
    letterSpacing: Dimension | None = None
    fontFeature: str | None = None
    fontVariation: str | None = None


TokenValue = Color | Dimension | Typography


class Component(_Model):
    """A component and its sub-tokens.

    `properties` holds resolved values (Color, Dimension, Typography objects, or
    raw scalars/strings/maps as the reference keeps them); `raw` holds each
    property as written (so `{colors.primary}` stays visible to the site).
    """

    properties: dict[str, Any] = Field(default_factory=dict)
    raw: dict[str, Any] = Field(default_factory=dict)
    unresolved_refs: list[Any] = Field(default_factory=list)


class Section(_Model):
    """A `##` section of the prose."""

    heading: str = Field(description="the heading text as the reference extracts it")
    canonical: str | None = Field(None, description="canonical name after aliases, or None if unknown")
    line: int = Field(description="1-based source line of the heading")
    body: str = Field("", description="the Markdown between this heading and the next `##` heading")


class Omission(_Model):
    """A section left out on purpose (`omitted`), so the linter does not report it missing."""

    section: str
    reason: str | None = None


class DesignSystem(_Model):
    """A parsed and resolved DESIGN.md.

    Maps keep the reference's order (JS object key order, then resolved
    references appended), which exports and findings depend on.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, defer_build=True)

    name: str | None = None
    description: str | None = None
    version: str | None = None
    colors: dict[str, Color] = Field(default_factory=dict)
    typography: dict[str, Typography] = Field(default_factory=dict)
    rounded: dict[str, Dimension] = Field(default_factory=dict)
    spacing: dict[str, Dimension] = Field(default_factory=dict)
    components: dict[str, Component] = Field(default_factory=dict)
    omitted: list[Omission] = Field(default_factory=list)
    unknown: dict[str, Any] = Field(default_factory=dict, description="unknown top-level keys and their raw values")
    symbols: dict[str, Any] = Field(
        default_factory=dict,
        description="'group.name' -> resolved token object or raw value (the reference's symbol table)",
    )
    raw_tokens: dict[str, Any] = Field(
        default_factory=dict, description="'group.name' -> the value as written, for every token leaf"
    )
    lines: dict[str, int] = Field(
        default_factory=dict,
        description="'group.name' (and 'group', 'components.x.prop') -> 1-based source line",
    )
    sections: list[Section] = Field(default_factory=list)
    themes: list[str] = Field(
        default_factory=list, description="the modes, default first (empty unless modes were read)"
    )
    default_theme: str | None = Field(None, description="the mode the token values are in ('light' unless declared)")
    modes: dict[str, dict[str, Color | Dimension]] = Field(
        default_factory=dict,
        description="non-default mode -> 'group.name' -> that token's value in the mode (only tokens that differ)",
    )
    mode_siblings: dict[str, str] = Field(
        default_factory=dict, description="'colors.x-dark' -> 'colors.x' for `-dark` tokens read as a dark value"
    )

    def mode_value(self, path: str, mode: str | None) -> Color | Dimension | None:
        """`path`'s value in `mode` (None or the default mode: the token's own value)."""
        if mode and mode != self.default_theme and path in self.modes.get(mode, {}):
            return self.modes[mode][path]
        value = self.symbols.get(path)
        return value if isinstance(value, (Color, Dimension)) else None

    preamble: str = Field("", description="Markdown body before the first `##` heading (front matter removed)")
    source: str = Field("", description="the full source text")


class Finding(_Model):
    """One lint finding, serialised exactly like the reference's."""

    severity: Literal["error", "warning", "info"]
    path: str | None = None
    message: str
    rule: str | None = None
    line: int | None = Field(None, description="1-based source line (pinup only; not in reference JSON)")

    def reference_dict(self) -> dict[str, Any]:
        """Keys in the reference's order, absent values omitted, no `line`."""
        return reference_finding(self.severity, self.path, self.message, self.rule)


class Summary(_Model):
    errors: int = 0
    warnings: int = 0
    infos: int = 0


class LintReport(_Model):
    """The result of linting one document: its model, findings and summary."""

    model_config = ConfigDict(arbitrary_types_allowed=True, defer_build=True)

    design: DesignSystem
    findings: list[Finding]
    summary: Summary
