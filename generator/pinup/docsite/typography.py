"""The typography page: a live specimen per level, set in its real font properties, with its CSS."""

from __future__ import annotations

from pinup.docsite.anchors import token_anchor
from pinup.docsite.css import style_attr, typography_declarations
from pinup.docsite.models import TypeLevel, TypographyPage
from pinup.docsite.sources import Sources


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


def build_typography(src: Sources) -> TypographyPage:
    design = src.design
    levels: list[TypeLevel] = []
    for name, level in design.typography.items():
        decl = typography_declarations(level)
        css = f".{token_anchor('typography', name)} {{\n" + "".join(f"  {k}: {v};\n" for k, v in decl) + "}"
        levels.append(TypeLevel(
            name=name,
            anchor=token_anchor("typography", name),
            style=style_attr(decl),
            css=css,
            props=_props(level),
            line=design.lines.get(f"typography.{name}"),
        ))
    return TypographyPage(
        slug="typography",
        title="Typography",
        template="typography.html",
        prose_html=src.section_html("Typography"),
        levels=levels,
    )
