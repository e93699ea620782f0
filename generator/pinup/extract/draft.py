"""Write inferred tokens as a DESIGN.md draft: front matter, then `##` sections in canonical order."""

from __future__ import annotations

import json
import re

from pinup.extract.infer import Inferred, TypeStyle

_ONE_LINE = re.compile(r"\s+")


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


def _clean(text: str, limit: int = 120) -> str:
    """Page text as one short line of prose (titles can hold anything)."""
    line = _ONE_LINE.sub(" ", text).strip()
    line = line.replace("`", "'").replace("<", "‹").replace(">", "›")
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _typography_yaml(name: str, style: TypeStyle) -> list[str]:
    lines = [
        f"  {name}:",
        f"    fontFamily: {_quoted(style.font_family)}",
        f"    fontSize: {style.font_size}",
        f"    fontWeight: {style.font_weight}",
    ]
    if style.line_height:
        lines.append(f"    lineHeight: {style.line_height}")
    if style.letter_spacing:
        lines.append(f"    letterSpacing: {style.letter_spacing}")
    return lines


def front_matter(found: Inferred, name: str) -> list[str]:
    lines = [
        "---",
        'version: "draft"',
        f"name: {_quoted(name)}",
        f"description: {_quoted(f'Drafted by pinup extract from {_clean(found.url, 200)}; review every value.')}",
        "colors:",
    ]
    lines += [f"  {token}: {_quoted(color.hex)}" for token, color in found.colors.items()]
    if found.typography:
        lines.append("typography:")
        for token, style in found.typography.items():
            lines += _typography_yaml(token, style)
    if found.rounded:
        lines.append("rounded:")
        lines += [f"  {token}: {value}" for token, value in found.rounded.items()]
    if found.spacing:
        lines.append("spacing:")
        lines += [f"  {token}: {value}" for token, value in found.spacing.items()]
    lines.append("components:")
    for component, props in found.components.items():
        lines.append(f"  {component}:")
        lines += [f"    {key}: {_quoted(value) if value.startswith('{') else value}" for key, value in props.items()]
    lines.append("---")
    return lines


def prose(found: Inferred, name: str) -> list[str]:
    title = _clean(found.title) if found.title else "(no title)"
    out = [
        "",
        f"# {_clean(name)}",
        "",
        "## Overview",
        "",
        f"A draft drafted by `pinup extract` from {_clean(found.url, 200)} (page title: {title}), from the",
        f"computed styles of {found.elements} visible elements. Every value below is what the page",
        "shows most, not what its authors intended: check each one, rename what needs a better name,",
        "and describe the brand here in your own words.",
        "",
        "## Colors",
        "",
        "| Token | Value | Found as |",
        "|---|---|---|",
    ]
    out += [
        f"| `{token}` | `{color.hex}` | {found.color_notes.get(token, '')} |" for token, color in found.colors.items()
    ]
    if found.other_colors:
        seen = ", ".join(f"`{hex_}` ({count})" for hex_, count in found.other_colors)
        out += ["", f"Also on the page, not made tokens (elements using each): {seen}."]
    out += ["", "## Typography", ""]
    if found.typography:
        out += ["| Token | Family | Size | Weight | Characters set in it |", "|---|---|---|---|---|"]
        out += [
            f"| `{token}` | {_clean(s.font_family, 80)} | {s.font_size} | {s.font_weight} | {s.weight} |"
            for token, s in found.typography.items()
        ]
    else:
        out.append("The page shows no text.")
    out += ["", "## Layout", ""]
    if found.spacing:
        out.append(
            "The spacing scale holds the paddings, margins and gaps the page uses most, smallest first: "
            + ", ".join(f"`{k}` {v}" for k, v in found.spacing.items())
            + "."
        )
    else:
        out.append("The page sets no paddings, margins or gaps in pixels.")
    out += ["", "## Elevation & Depth", ""]
    if found.shadows:
        out.append("Shadows on the page, most used first:")
        out.append("")
        out += [f"- `{_clean(shadow, 160)}` ({count} elements)" for shadow, count in found.shadows]
    else:
        out.append("The page uses no shadows: depth comes from colour alone.")
    out += ["", "## Shapes", ""]
    if found.rounded:
        out.append("Corner radii, smallest first: " + ", ".join(f"`{k}` {v}" for k, v in found.rounded.items()) + ".")
    else:
        out.append("Corners are square.")
    out += ["", "## Components", ""]
    out += [
        f"- `{component}`: " + ", ".join(f"{k} {v}" for k, v in props.items()) + "."
        for component, props in found.components.items()
    ]
    out.append("")
    return out


def draft_text(found: Inferred, name: str | None = None) -> str:
    """The whole DESIGN.md draft."""
    chosen = _clean(name or found.title or "Extracted design system", 80) or "Extracted design system"
    return "\n".join(front_matter(found, chosen) + prose(found, chosen))
