"""`pinup spec`: the DESIGN.md format, written for an agent that has to produce one.

Why generated: every list here (front-matter keys, sections and aliases, typography properties,
component sub-tokens, units, lint rules with their severities) is read from the modules the
parser and linter use, so the description cannot drift from what `pinup lint` checks. The
example at the end is linted in the tests and must come out clean.
"""

from __future__ import annotations

from typing import Any

#: what each front-matter key holds (a test checks that every schema key has an entry).
KEY_NOTES: dict[str, str] = {
    "version": 'Optional version of the design system, a string such as "1.0".',
    "name": "The design system's name.",
    "description": "One or two sentences about the brand and where the system is used.",
    "omitted": "Sections you leave out on purpose, so the linter does not report them missing.",
    "colors": "Colour tokens: name -> CSS colour.",
    "typography": "Type styles: name -> an object of font properties.",
    "rounded": "Corner radii: name -> dimension.",
    "spacing": "Spacing scale: name -> dimension.",
    "components": "Component tokens: name -> an object of sub-tokens, usually references.",
}

EXAMPLE = """---
version: "1.0"
name: Harbor
description: A calm, legible system for a ferry timetable app.
colors:
  primary: "#0b5cad"
  on-primary: "#ffffff"
  surface: "#f7f9fc"
  on-surface: "#1b2430"
typography:
  body-md:
    fontFamily: Inter
    fontSize: 16px
    fontWeight: 400
    lineHeight: "1.5"
  headline-lg:
    fontFamily: Inter
    fontSize: 32px
    fontWeight: 700
    lineHeight: "1.2"
rounded:
  sm: 4px
  md: 8px
spacing:
  unit: 8px
  md: 16px
components:
  button-primary:
    backgroundColor: "{colors.primary}"
    textColor: "{colors.on-primary}"
    typography: "{typography.body-md}"
    rounded: "{rounded.md}"
    padding: "{spacing.md}"
  card:
    backgroundColor: "{colors.surface}"
    textColor: "{colors.on-surface}"
    typography: "{typography.headline-lg}"
    rounded: "{rounded.sm}"
---

## Overview

Harbor is quiet and practical: departures first, decoration last.

## Colors

Deep harbour blue for actions, near-white surfaces, dark slate text.

## Typography

Inter throughout; one body size and one headline size.

## Layout

An 8px grid; cards are separated by 16px.

## Elevation & Depth

Flat surfaces; a hairline border instead of shadows.

## Shapes

Small radii: 4px on cards, 8px on buttons.

## Components

Primary buttons and timetable cards.

## Do's and Don'ts

Do keep text on primary at 4.5:1 contrast or more. Don't add a second accent colour.
"""


def rules() -> list[dict[str, Any]]:
    """Every lint rule pinup applies, in run order, from the rule registry."""
    from pinup.designmd.rules import RULES, extended_rules

    return [
        {
            "name": r.name,
            "severity": r.severity,
            "description": " ".join(r.description.split()),
            "extended": r.extended,
            "runsWith": "pinup lint --extended" if r.extended else "pinup lint",
        }
        for r in (*RULES, *extended_rules())
    ]


def rules_markdown() -> str:
    lines = ["| Rule | Severity | Runs with | What it checks |", "|---|---|---|---|"]
    for rule in rules():
        text = rule["description"].replace("|", "\\|")
        lines.append(f"| `{rule['name']}` | {rule['severity']} | `{rule['runsWith']}` | {text} |")
    return "\n".join(lines)


def spec_markdown() -> str:
    """The format, as Markdown."""
    from pinup.designmd.dimensions import STANDARD_UNITS
    from pinup.designmd.sections import (
        ALIASES,
        CANONICAL_ORDER,
        COMPONENT_SUB_TOKENS,
        MAX_REFERENCE_DEPTH,
        MAX_TOKEN_NESTING_DEPTH,
        SCHEMA_KEYS,
        TYPOGRAPHY_PROPERTIES,
    )

    aliases: dict[str, list[str]] = {}
    for alias, name in ALIASES.items():
        aliases.setdefault(name, []).append(alias)
    units = ", ".join(f"`{u}`" for u in sorted(STANDARD_UNITS))
    keys = "\n".join(f"| `{key}` | {KEY_NOTES[key]} |" for key in SCHEMA_KEYS)
    sections = "\n".join(
        f"{n}. `## {name}`"
        + (f" (also accepted: {', '.join(f'`## {a}`' for a in aliases[name])})" if name in aliases else "")
        for n, name in enumerate(CANONICAL_ORDER, 1)
    )
    return f"""# The DESIGN.md format

A DESIGN.md is one Markdown file: YAML front matter with the design tokens, between two `---`
lines at the very top, then Markdown prose in `##` sections that explains how to use them.
Tools read the tokens; people and agents read the prose. `pinup lint DESIGN.md` checks both.

## Front matter keys

| Key | What it holds |
|---|---|
{keys}

Any other top-level key is ignored by exports, and the linter warns when it looks like a typo
of a known key or like a token map.

## Tokens

- **Colours** (`colors.<name>`): a CSS colour: hex (`#0b5cad`, `#0b5cad80`), a named colour,
  `rgb()`, `hsl()`, `hwb()`, `lab()`, `lch()`, `oklab()`, `oklch()` or `color-mix(in srgb, …)`.
  Define `primary`; pair each background colour with an `on-<name>` text colour.
- **Typography** (`typography.<name>`): an object with {", ".join(f"`{p}`" for p in TYPOGRAPHY_PROPERTIES)}.
  `fontSize`, `lineHeight` and `letterSpacing` are dimension strings in {units}; `lineHeight` may
  also be a unitless number, written as a string (`"1.5"`): a bare YAML number there is ignored.
  `fontWeight` is a number such as `400`.
- **Radii and spacing** (`rounded.<name>`, `spacing.<name>`): dimensions such as `8px` or
  `0.5rem`. Radii use {units}.
- **Components** (`components.<name>`): an object whose keys are the sub-tokens
  {", ".join(f"`{t}`" for t in COMPONENT_SUB_TOKENS)}.
- **References**: a value `"{{colors.primary}}"` points at another token by its dotted path
  (quote it in YAML). Chains are followed at most {MAX_REFERENCE_DEPTH} deep; circular and broken
  references are errors. Token groups nest at most {MAX_TOKEN_NESTING_DEPTH} levels.

## Sections

Use `##` headings, in this order (each one is optional; list the ones you leave out under
`omitted`):

{sections}

## Example

````markdown
{EXAMPLE}````
"""


def spec_text(*, with_rules: bool = False, rules_only: bool = False) -> str:
    """Markdown: the format, the rules table, or both."""
    if rules_only:
        return rules_markdown() + "\n"
    text = spec_markdown()
    if with_rules:
        text += "\n## Lint rules\n\n" + rules_markdown() + "\n"
    return text


def spec_json(*, with_rules: bool = False, rules_only: bool = False) -> dict[str, Any]:
    """JSON: `{"spec": markdown}`, with `"rules"` when asked (`{"rules"}` alone with rules_only)."""
    if rules_only:
        return {"rules": rules()}
    out: dict[str, Any] = {"spec": spec_markdown()}
    if with_rules:
        out["rules"] = rules()
    return out
