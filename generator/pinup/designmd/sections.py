"""The canonical DESIGN.md sections, their aliases and schema keys (from the spec config)."""

from __future__ import annotations

#: canonical `##` sections, in the order the spec expects them.
CANONICAL_ORDER: tuple[str, ...] = (
    "Overview",
    "Colors",
    "Typography",
    "Layout",
    "Elevation & Depth",
    "Shapes",
    "Components",
    "Do's and Don'ts",
)
ORDER_INDEX: dict[str, int] = {name: index for index, name in enumerate(CANONICAL_ORDER)}

#: exact, case-sensitive aliases.
ALIASES: dict[str, str] = {
    "Brand & Style": "Overview",
    "Layout & Spacing": "Layout",
    "Elevation": "Elevation & Depth",
}

#: the top-level YAML keys the schema knows, in the reference's order.
SCHEMA_KEYS: tuple[str, ...] = (
    "version",
    "name",
    "description",
    "omitted",
    "colors",
    "typography",
    "rounded",
    "spacing",
    "components",
)

TYPOGRAPHY_PROPERTIES: tuple[str, ...] = (
    "fontFamily",
    "fontSize",
    "fontWeight",
    "lineHeight",
    "letterSpacing",
    "fontFeature",
    "fontVariation",
)

COMPONENT_SUB_TOKENS: tuple[str, ...] = (
    "backgroundColor",
    "textColor",
    "typography",
    "rounded",
    "padding",
    "size",
    "height",
    "width",
)

#: maximum group nesting inside a token section, and maximum reference chain depth.
MAX_TOKEN_NESTING_DEPTH = 20
MAX_REFERENCE_DEPTH = 10


def resolve_alias(heading: str) -> str:
    """The canonical name for an alias, else the heading unchanged."""
    return ALIASES.get(heading, heading)


def canonical(heading: str) -> str | None:
    """The canonical section name for a heading, or None when it is not a spec section."""
    name = resolve_alias(heading)
    return name if name in ORDER_INDEX else None
