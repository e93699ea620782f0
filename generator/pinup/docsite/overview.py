"""The overview page: name, description, the Overview prose and a summary of what the system holds."""

from __future__ import annotations

import re

from pinup.docsite.css import css_text, safe_value, style_attr, typography_declarations
from pinup.docsite.models import Cover, OverviewPage, Stat
from pinup.docsite.problems import fallback_name, find_problems
from pinup.docsite.sources import Sources
from pinup.theme import Theme

_H1 = re.compile(r"^\s*#\s+[^\n]*\n?")
_DISPLAY = (
    "display-lg",
    "display",
    "display-xl",
    "hero",
    "display-md",
    "headline-xl",
    "headline-lg",
    "h1",
    "headline",
    "heading",
    "title-lg",
    "title",
)
_STRIP_MAX = 14


def _cover(src: Sources) -> Cover:
    """Palette strip, display type and primary action, all from the DESIGN.md's tokens."""
    design = src.design
    strip = [
        (name, color.hex[:7])
        for name, color in design.colors.items()
        if not name.lower().endswith("-dark") and not name.lower().startswith("on-")
    ][:_STRIP_MAX]
    keys = {k.lower(): k for k in design.typography}
    level_key = next((keys[k] for k in _DISPLAY if k in keys), None)
    if level_key is None:
        level_key = next((k for k in design.typography if any(h in k.lower() for h in ("display", "headline"))), None)
    display = ""
    if level_key is not None:
        # the family, weight and tracking of the brand's display type; the size is the page's (it must fit 375 px)
        keep = ("font-family", "font-weight", "letter-spacing", "font-feature-settings", "font-variation-settings")
        display = style_attr([(k, v) for k, v in typography_declarations(design.typography[level_key]) if k in keep])
    names = list(design.components)
    preferred: tuple[str, ...] = ("button-primary", "primary-button", "button", "cta", "button-cta")
    button = next((n for n in preferred if n in names), None)
    button = button or next((n for n in names if n.startswith("button") and "dark" not in n), None)
    action = ""
    if button is not None:
        decl: list[tuple[str, str]] = []
        props = design.components[button].properties
        for key, css in (("rounded", "border-radius"), ("padding", "padding")):
            text = safe_value(css_text(props.get(key)))
            if text:
                decl.append((css, text))
        typo = props.get("typography")
        decl += [
            (k, v) for k, v in typography_declarations(typo) if k in ("font-family", "font-weight", "letter-spacing")
        ]
        action = style_attr(decl)
    return Cover(
        strip=strip,
        display_style=display,
        display_level=level_key or "",
        action_style=action,
        action_component=button or "",
    )


def build_overview(src: Sources, theme: Theme) -> OverviewPage:
    design = src.design
    preamble = _H1.sub("", design.preamble, count=1) if design.preamble.lstrip().startswith("# ") else design.preamble
    summary = src.report.summary
    stats = [
        Stat("Colors", len(design.colors), "colors"),
        Stat("Type levels", len(design.typography), "typography"),
        Stat("Spacing steps", len(design.spacing), "layout"),
        Stat("Radii", len(design.rounded), "shapes"),
        Stat("Components", len(design.components), "components"),
    ]
    has_dark = theme.dark_from_tokens
    problems = find_problems(src.report)
    return OverviewPage(
        slug="index",
        title="Overview",
        template="index.html",
        prose_html=src.section_html("Overview"),
        name=fallback_name(src.report, src.source_name),
        description=design.description or "",
        version=str(design.version) if design.version is not None else "",
        preamble_html=src.markdown(preamble),
        stats=stats,
        errors=summary.errors,
        warnings=summary.warnings,
        infos=summary.infos,
        theme_notes=list(theme.fallbacks),
        has_dark=has_dark,
        cover=_cover(src),
        dark_default=theme.dark_default,
        yaml_message=problems.yaml_message,
        yaml_line=problems.yaml_line,
    )
