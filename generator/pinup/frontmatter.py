"""`pinup schema`: a JSON Schema (draft 2020-12) of DESIGN.md front matter, for editors.

Why generated: every list in it (top-level keys, typography properties, component sub-tokens,
units, named colours, the reference syntax, the nesting limit) and every key's description is
read from the tables the model builder and linter use, and the `omitted` entries are the model's
own `Omission` class run through pydantic, so the schema cannot drift from what `pinup lint`
checks. It describes the front matter as written (strings such as `16px`), not the resolved model.

What it rejects is what the linter reports as an error (a value that is no colour, a dimension
in an unknown unit); what the linter only warns about (an unknown key, an unknown component
sub-token) it allows, so an editor never flags a file that lints clean.
"""

from __future__ import annotations

import re
from typing import Any

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
#: the dialects `pinup schema --draft` writes: the schema uses nothing draft 7 lacks (`$defs` is reached
#: by JSON pointer), so only `$schema` changes; draft 7 is for validators that know no later draft
DIALECTS = {"2020-12": SCHEMA_DIALECT, "7": "http://json-schema.org/draft-07/schema#"}
SCHEMA_ID = "urn:pinup:design-md:front-matter"


def _ecma(pattern: str) -> str:
    """A Python pattern as ECMA-262 (what JSON Schema uses): `\\Z` becomes `$`."""
    return pattern.replace("\\Z", "$")


def _units_alternation(units: frozenset[str]) -> str:
    return "|".join(re.escape(u) for u in sorted(units, key=lambda u: (-len(u), u)))


def _group(leaf: str, description: str) -> dict[str, Any]:
    """A token map whose values are leaves or nested groups (groups flatten to `group.name`)."""
    return {
        "type": "object",
        "description": description,
        "additionalProperties": {"anyOf": [{"$ref": f"#/$defs/{leaf}"}, {"$ref": f"#/$defs/{leaf}Group"}]},
    }


def _definitions() -> dict[str, Any]:
    from pydantic import TypeAdapter

    from pinup.designmd import colors, dimensions
    from pinup.designmd.model import Omission
    from pinup.designmd.sections import COMPONENT_SUB_TOKENS, TYPOGRAPHY_PROPERTIES

    reference = {
        "type": "string",
        "pattern": _ecma(dimensions._REFERENCE.pattern),
        "description": "A reference to another token by its dotted path, such as {colors.primary}.",
    }
    any_unit = _units_alternation(dimensions.CSS_UNITS)
    standard = _units_alternation(dimensions.STANDARD_UNITS)
    number = r"-?[0-9]*\.?[0-9]+"
    color = {
        "description": "A CSS colour: hex, a named colour, rgb(), hsl(), hwb(), lab(), lch(), oklab(), oklch() "
        "or color-mix(), or a reference to another colour.",
        "anyOf": [
            {"type": "string", "pattern": "^\\s*#([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})\\s*$"},
            {"type": "string", "pattern": _ecma(colors._FUNC.pattern.replace("[a-z-]", "[a-zA-Z-]"))},
            {"type": "string", "enum": sorted(colors.NAMED_COLORS)},
            {"$ref": "#/$defs/reference"},
        ],
    }
    dimension = {
        "description": f"A number with a unit: {', '.join(sorted(dimensions.STANDARD_UNITS))} "
        "(such as 16px or 0.5rem), or a reference.",
        "anyOf": [
            {"type": "string", "pattern": f"^{number}({standard})$"},
            {"$ref": "#/$defs/reference"},
        ],
    }
    spacing = {
        "description": "A spacing value: a dimension in any CSS unit (such as 8px), a number, or a reference.",
        "anyOf": [
            {"type": "string", "pattern": f"^{number}({any_unit})$"},
            {"type": "number"},
            {"type": "string"},
        ],
    }
    typography_properties: dict[str, Any] = {
        "fontFamily": {"type": "string", "description": "A font family name, such as Inter."},
        "fontSize": {"$ref": "#/$defs/dimension"},
        "fontWeight": {
            "description": "A numeric weight such as 400 or 700 (a number or a numeric string).",
            "anyOf": [{"type": "number"}, {"type": "string", "pattern": r"^\s*-?[0-9]*\.?[0-9]+\s*$"}],
        },
        "lineHeight": {
            "description": 'A dimension, or a unitless multiplier written as a string ("1.5").',
            "anyOf": [
                {"$ref": "#/$defs/dimension"},
                {"type": "string", "pattern": r"^[0-9]*\.?[0-9]+$"},
                {"type": "number"},
            ],
        },
        "letterSpacing": {"$ref": "#/$defs/dimension"},
        "fontFeature": {"type": "string", "description": "CSS font-feature-settings."},
        "fontVariation": {"type": "string", "description": "CSS font-variation-settings."},
    }
    assert tuple(typography_properties) == TYPOGRAPHY_PROPERTIES, "typography properties out of step with the linter"
    omission = TypeAdapter(Omission).json_schema()
    omission.pop("title", None)
    omission["description"] = "A section left out on purpose, with the reason."
    return {
        "reference": reference,
        "color": color,
        "colorGroup": _group("color", "A group of colour tokens (or a {light, dark} value when modes are used)."),
        "dimension": dimension,
        "dimensionGroup": _group("dimension", "A group of dimension tokens."),
        "spacing": spacing,
        "spacingGroup": _group("spacing", "A group of spacing tokens."),
        "typography": {
            "type": "object",
            "description": "One type style.",
            "properties": typography_properties,
        },
        "component": {
            "type": "object",
            "description": f"A component's sub-tokens: {', '.join(COMPONENT_SUB_TOKENS)}; usually references.",
            "properties": {
                token: {"anyOf": [{"$ref": "#/$defs/reference"}, {"type": ["string", "number", "boolean"]}]}
                for token in COMPONENT_SUB_TOKENS
            },
        },
        "omission": omission,
    }


def _top_level(definitions: dict[str, Any]) -> dict[str, Any]:
    from pinup.designmd.sections import SCHEMA_KEYS
    from pinup.spec import KEY_NOTES

    shapes: dict[str, dict[str, Any]] = {
        "version": {"type": ["string", "number"]},
        "name": {"type": "string"},
        "description": {"type": "string"},
        "omitted": {
            "type": "array",
            "items": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/omission"}]},
        },
        "colors": dict(definitions["colorGroup"]),
        "typography": {"type": "object", "additionalProperties": {"$ref": "#/$defs/typography"}},
        "rounded": dict(definitions["dimensionGroup"]),
        "spacing": dict(definitions["spacingGroup"]),
        "components": {"type": "object", "additionalProperties": {"$ref": "#/$defs/component"}},
    }
    assert tuple(shapes) == SCHEMA_KEYS, "front-matter keys out of step with the linter"
    return {key: {**shape, "description": KEY_NOTES[key]} for key, shape in shapes.items()}


def front_matter_schema(draft: str = "2020-12") -> dict[str, Any]:
    """The JSON Schema of a DESIGN.md's YAML front matter, in the dialect `draft` (a key of DIALECTS)."""
    definitions = _definitions()
    return {
        "$schema": DIALECTS[draft],
        "$id": SCHEMA_ID,
        "title": "DESIGN.md front matter",
        "description": "Design tokens in the YAML front matter of a DESIGN.md (generated by `pinup schema`).",
        "type": "object",
        "properties": _top_level(definitions),
        "$defs": definitions,
    }


def schema_text(draft: str = "2020-12") -> str:
    """The schema as indented JSON, with a final newline."""
    import json

    return json.dumps(front_matter_schema(draft), indent=2, ensure_ascii=False) + "\n"
