"""The components page: each component rendered live from its resolved tokens, variants side by side."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pinup.docsite.anchors import token_anchor
from pinup.docsite.css import css_text, safe_value, style_attr, typography_declarations
from pinup.docsite.models import ComponentGroup, ComponentsPage, ComponentVariant, PropRow
from pinup.docsite.sources import Sources
from pinup.theme import build_theme

if TYPE_CHECKING:  # pragma: no cover
    from pinup.theme import Theme

_ELEMENTS: list[tuple[tuple[str, ...], str]] = [
    (("button", "btn", "cta", "fab"), "button"),
    (("input", "field", "textfield", "textarea", "search", "select"), "input"),
    (("divider", "separator", "rule", "hr"), "hr"),
    (("code",), "code"),
    (("link", "nav", "tab", "breadcrumb"), "a"),
    (("chip", "badge", "tag", "pill", "label", "tooltip", "avatar", "toggle"), "span"),
]
_BOX_PROPS = {
    "backgroundColor": "background-color",
    "textColor": "color",
    "rounded": "border-radius",
    "padding": "padding",
    "height": "min-height",
    "width": "width",
    "size": "width",
    "borderColor": "border-color",
    "borderWidth": "border-width",
    "opacity": "opacity",
    "boxShadow": "box-shadow",
    "shadow": "box-shadow",
}


def element_for(name: str) -> str:
    """Pick the HTML element a component is most likely to be, from its name."""
    parts = name.lower().replace("_", "-").split("-")
    for hints, element in _ELEMENTS:
        if any(h in parts for h in hints) or any(name.lower().startswith(h) for h in hints):
            return element
    return "div"


def group_components(names: list[str]) -> dict[str, list[str]]:
    """Base component -> [base, variants...]: `button-primary-hover` and `button-primary-dark`
    belong to `button-primary` (the shortest name that is a prefix at a `-` boundary)."""
    known = set(names)

    def root(name: str) -> str:
        parts = name.split("-")
        for cut in range(1, len(parts)):
            prefix = "-".join(parts[:cut])
            if prefix in known:
                return prefix
        return name

    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(root(name), []).append(name)
    return {base: sorted(members, key=lambda m: (m != base, names.index(m))) for base, members in groups.items()}


def _display(value: Any) -> str:
    if value is None:
        return ""
    kind = getattr(value, "type", None)
    if kind == "color":
        return value.hex
    if kind == "dimension":
        return value.css()
    if kind == "typography":
        return "; ".join(f"{k}: {v}" for k, v in typography_declarations(value))
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_display(v)}" for k, v in value.items())
    return str(value)


def _raw_text(value: Any) -> str:
    if isinstance(value, (dict, list)):
        import json

        return json.dumps(value, ensure_ascii=False)
    return "" if value is None else str(value)


def _declarations(props: dict[str, Any], element: str) -> list[tuple[str, str]]:
    decl: list[tuple[str, str]] = []
    for key, value in props.items():
        if key == "typography":
            decl.extend(typography_declarations(value))
            continue
        css_prop = _BOX_PROPS.get(key)
        if css_prop is None:
            continue
        text = safe_value(css_text(value))
        if text is None:
            continue
        if element == "hr" and key == "backgroundColor":
            decl.append(("border-color", text))
        if element == "hr" and key == "height":
            decl.append(("border-top-width", text))
            continue
        decl.append((css_prop, text))
    if "borderColor" in props and "borderWidth" not in props:
        decl.append(("border-width", "1px"))
        decl.append(("border-style", "solid"))
    return decl


def build_components(src: Sources, theme: Theme | None = None) -> ComponentsPage:
    """`theme` is the site's theme when the caller already built it (it is only read here)."""
    design = src.design
    theme = theme or build_theme(design)
    light_stage = "#{:02x}{:02x}{:02x}".format(*theme.light.bg)
    dark_stage = "#{:02x}{:02x}{:02x}".format(*theme.dark.bg)
    names = list(design.components)
    groups: list[ComponentGroup] = []
    for base, members in group_components(names).items():
        base_comp = design.components[base]
        variants: list[ComponentVariant] = []
        for member in members:
            comp = design.components[member]
            inherited_keys = set(base_comp.properties) - set(comp.properties) if member != base else set()
            props = {**(base_comp.properties if member != base else {}), **comp.properties}
            raw = {**(base_comp.raw if member != base else {}), **comp.raw}
            element = element_for(base)
            rows = [
                PropRow(
                    name=key,
                    raw=_raw_text(raw.get(key, value)),
                    resolved=_display(value),
                    swatch=value.hex if getattr(value, "type", None) == "color" else None,
                    inherited=key in inherited_keys,
                )
                for key, value in props.items()
            ]
            is_dark = "dark" in member.lower().split("-")
            label = member[len(base) + 1:] if member != base else "default"
            variants.append(ComponentVariant(
                name=member,
                anchor=token_anchor("components", member),
                label=label,
                element=element,
                style=style_attr(_declarations(props, element)),
                stage=dark_stage if is_dark else light_stage,
                dark=is_dark,
                props=rows,
                line=design.lines.get(f"components.{member}"),
            ))
        groups.append(ComponentGroup(base, token_anchor("components", base) + "-group", variants))
    return ComponentsPage(
        slug="components",
        title="Components",
        template="components.html",
        prose_html=src.section_html("Components"),
        groups=groups,
    )
