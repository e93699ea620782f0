"""The typography page: a live specimen per level, set in its real font properties, with its CSS."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pinup.docsite.anchors import token_anchor
from pinup.docsite.css import style_attr, typography_declarations
from pinup.docsite.models import FontNote, TypeLevel, TypographyPage
from pinup.docsite.sources import Sources
from pinup.theme import GENERIC_FAMILIES, _family_names, font_stack

if TYPE_CHECKING:  # pragma: no cover
    from pinup.docsite.fonts import FontPlan


def _props(level: object) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for key in ("fontFamily", "fontSize", "fontWeight", "lineHeight", "letterSpacing", "fontFeature", "fontVariation"):
        value = getattr(level, key, None)
        if value is None:
            continue
        text = value.css() if hasattr(value, "css") else str(value)
        if isinstance(value, float) and value.is_integer():
            text = str(int(value))
        out.append((key, text))
    return out


def font_notes(src: Sources, plan: FontPlan | None) -> list[FontNote]:
    """The first family of each level: embedded from fonts/, or which fallback stack shows it."""
    embedded = plan.embedded if plan is not None else {}
    notes: dict[str, FontNote] = {}
    for name, level in src.design.typography.items():
        names = _family_names(level.fontFamily)
        if not names or names[0].lower() in GENERIC_FAMILIES or names[0].startswith("-"):
            continue
        family = names[0]
        if family not in notes:
            stack = font_stack(level.fontFamily)
            rest = stack.split(",", 1)[1].strip() if "," in stack else stack
            notes[family] = FontNote(family, embedded.get(family, ""), rest)
        notes[family].levels.append(name)
    return list(notes.values())


def build_typography(src: Sources, plan: FontPlan | None = None) -> TypographyPage:
    design = src.design
    levels: list[TypeLevel] = []
    for name, level in design.typography.items():
        decl = typography_declarations(level)
        css = f".{token_anchor('typography', name)} {{\n" + "".join(f"  {k}: {v};\n" for k, v in decl) + "}"
        levels.append(
            TypeLevel(
                name=name,
                anchor=token_anchor("typography", name),
                style=style_attr(decl),
                css=css,
                props=_props(level),
                line=design.lines.get(f"typography.{name}"),
            )
        )
    return TypographyPage(
        slug="typography",
        title="Typography",
        template="typography.html",
        prose_html=src.section_html("Typography"),
        levels=levels,
        fonts=font_notes(src, plan),
    )
