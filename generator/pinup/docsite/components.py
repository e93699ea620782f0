"""The components page: each component rendered live from its resolved tokens, variants side by side."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pinup.designmd.colors import rgb_contrast as contrast
from pinup.docsite.anchors import slugify, token_anchor
from pinup.docsite.colors import prose_items
from pinup.docsite.css import css_text, safe_value, style_attr, typography_declarations
from pinup.docsite.models import ComponentGroup, ComponentsPage, ComponentVariant, PropRow
from pinup.docsite.sources import Sources
from pinup.prosememo import keep, recall
from pinup.theme import build_theme, mix

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable

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


@lru_cache(maxsize=1024)
def element_for(name: str) -> str:
    """Pick the HTML element a component is most likely to be, from its name (asked several times per component)."""
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
        hex_text: str = value.hex
        return hex_text
    if kind == "dimension":
        css: str = value.css()
        return css
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


#: variant label -> the CSS state selector it stands for, in the snippet
_STATES = {
    "hover": ":hover",
    "active": ":active",
    "pressed": ":active",
    "focus": ":focus-visible",
    "focused": ":focus-visible",
    "disabled": ":disabled",
    "selected": "[aria-selected=true]",
    "checked": ":checked",
    "visited": ":visited",
    "error": "[aria-invalid=true]",
    "invalid": ":invalid",
}
_RGB = tuple[int, int, int]


def _hex(rgb: _RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _rgb_of(value: Any) -> _RGB | None:
    return (value.r, value.g, value.b) if getattr(value, "type", None) == "color" else None


def _need(props: dict[str, Any], element: str) -> tuple[_RGB, float] | None:
    """What must stand out from the stage, and by how much (None: anything will do)."""
    if element == "input" and "borderColor" not in props:
        return None  # its border (from the outline colour) shows it
    fill = _rgb_of(props.get("backgroundColor"))
    if fill is not None:
        return fill, 1.3 if element == "button" else 1.05
    ink = _rgb_of(props.get("textColor"))
    return (ink, 3.0) if ink is not None else None


def stage_for(states: list[dict[str, Any]], stages: list[_RGB], element: str = "button") -> _RGB:
    """One stage for the states of a component, the first (the page's own first) on which all stand out.

    A white button on a white tile is invisible: a button's fill must differ from the
    stage by 1.3:1 at least (else its text colour, without a fill, by 3:1). Cards,
    chips and fields are meant to be subtle, so they only leave the page's stage when
    they would vanish on it (1.05:1). States share the stage so they compare side by
    side; when no stage is enough, the one with the best worst case wins.
    """
    needs = [n for n in (_need(props, element) for props in states) if n is not None]
    if not needs:
        return stages[0]
    for stage in stages:
        if all(contrast(subject, stage) >= need for subject, need in needs):
            return stage
    return max(stages, key=lambda st: min(contrast(subject, st) / need for subject, need in needs))


def _field_declarations(props: dict[str, Any], label: str, colors: dict[str, Any], ring: _RGB) -> list[tuple[str, str]]:
    """Inputs look like fields: a border from the tokens (else the outline colour) and a focus ring."""
    decl: list[tuple[str, str]] = []
    if "borderColor" not in props:
        outline = next((colors[n] for n in ("outline", "border", "input-border", "divider") if n in colors), None)
        outline_rgb = _rgb_of(outline)
        border = _hex(outline_rgb) if outline_rgb is not None else "#767676"
        error_rgb = _rgb_of(colors["error"]) if "error" in label.split("-") and "error" in colors else None
        if error_rgb is not None:
            border = _hex(error_rgb)
        decl += [("border", f"1px solid {border}")]
    if any(part in ("focus", "focused") for part in label.split("-")):
        decl += [("outline", f"2px solid {_hex(ring)}"), ("outline-offset", "1px")]
    return decl


def component_usage(
    markdown: str,
    names: list[str],
    tokens: list[Any] | Callable[[], list[Any]] | None = None,
    *,
    allow_html: bool | None = None,
) -> dict[str, str]:
    """Base component -> the sentence(s) of the Components prose that describe it.

    `tokens`: the parsed `markdown`, or a function that parses it (called only when needed).
    `allow_html`: the parser setting `tokens` come from; when given, the answer is remembered
    by (setting, prose, names), so a token edit does not read unchanged prose again
    (`pinup.prosememo`: not in a new process either).
    """
    if allow_html is None:
        return _usage(markdown, names, tokens() if callable(tokens) else tokens)
    key = (allow_html, markdown, tuple(names))
    found = recall("usage", key)
    if found is None:
        found = keep("usage", key, _usage(markdown, names, tokens() if callable(tokens) else tokens))
    return dict(found)


def _usage(markdown: str, names: list[str], tokens: list[Any] | None) -> dict[str, str]:
    items = prose_items(markdown, tokens)
    found: dict[str, str] = {}
    for name in names:
        low = name.lower()
        first = low.split("-")[0]
        best: tuple[int, str] | None = None
        for label, text, codes in items:
            body = text.lstrip(":—–- ").strip()
            if not body:
                continue
            norm = slugify(label.strip().rstrip(":")) if label else ""
            if norm == low:
                score = 3
            elif low in codes:
                score = 2
            elif norm and norm in (first, first + "s", first + "es"):
                score = 1
            else:
                continue
            if best is None or score > best[0]:
                best = (score, body)
        if best:
            found[name] = best[1][:600]
    return found


def _snippet(base: str, element: str, variants: list[tuple[str, list[tuple[str, str]]]]) -> tuple[str, str]:
    """(HTML, CSS) to copy: `.base {...}` and one rule per state (`:hover`, `:focus-visible`, ...)."""
    text = base.replace("-", " ").capitalize()
    html = {
        "button": f'<button type="button" class="{base}">{text}</button>',
        "input": f'<input type="text" class="{base}" placeholder="{text}">',
        "hr": f'<hr class="{base}">',
        "code": f'<code class="{base}">{base}()</code>',
        "a": f'<a class="{base}" href="#">{text}</a>',
        "span": f'<span class="{base}">{text}</span>',
    }.get(element, f'<div class="{base}">{text}</div>')
    rules: list[str] = []
    for label, decl in variants:
        if label == "default":
            selector = f".{base}"
        else:
            parts = label.split("-")
            state = next((_STATES[p] for p in parts if p in _STATES), None)
            if "dark" in parts:
                selector = f'[data-theme="dark"] .{base}' + (state or "")
            else:
                selector = f".{base}{state}" if state else f".{base}--{label}"
        body = "".join(f"  {k}: {v};\n" for k, v in decl)
        rules.append(f"{selector} {{\n{body}}}")
    return html, "\n".join(rules)


def build_components(src: Sources, theme: Theme | None = None) -> ComponentsPage:
    """`theme` is the site's theme when the caller already built it (it is only read here)."""
    design = src.design
    theme = theme or build_theme(design)
    light_stages = [
        theme.light.bg,
        theme.light.surface,
        mix(theme.light.bg, theme.light.text, 0.15),
        mix(theme.light.bg, theme.light.text, 0.3),
        theme.dark.bg,
        theme.light.text,
    ]
    dark_stages = [
        theme.dark.bg,
        theme.dark.surface,
        mix(theme.dark.bg, theme.dark.text, 0.15),
        mix(theme.dark.bg, theme.dark.text, 0.3),
        theme.light.bg,
        theme.dark.text,
    ]
    names = list(design.components)
    groups: list[ComponentGroup] = []
    prose = src.section_markdown("Components")
    bases = list(group_components(names))
    usage = (
        component_usage(prose, bases, lambda: src.cache.tokens(prose), allow_html=src.allow_html)
        if prose.strip()
        else {}
    )
    ring = theme.light.link
    for base, members in group_components(names).items():
        base_comp = design.components[base]
        variants: list[ComponentVariant] = []
        snippet_rules: list[tuple[str, list[tuple[str, str]]]] = []
        resolved: list[tuple[bool, dict[str, Any]]] = []
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
            label = member[len(base) + 1 :] if member != base else "default"
            decl = _declarations(props, element)
            if element == "input":
                decl += _field_declarations(props, label, design.colors, ring)
            own = _declarations(comp.properties, element) if member != base else decl
            snippet_rules.append((label, own))
            resolved.append((is_dark, props))
            variants.append(
                ComponentVariant(
                    name=member,
                    anchor=token_anchor("components", member),
                    label=label,
                    element=element,
                    style=style_attr(decl),
                    stage="",
                    dark=is_dark,
                    props=rows,
                    line=design.lines.get(f"components.{member}"),
                )
            )
        for dark_side, stages in ((False, light_stages), (True, dark_stages)):
            stage = _hex(stage_for([p for d, p in resolved if d == dark_side], stages, element_for(base)))
            for variant in variants:
                if variant.dark == dark_side:
                    variant.stage = stage
        html, css = _snippet(base, element_for(base), snippet_rules)
        groups.append(
            ComponentGroup(
                base,
                token_anchor("components", base) + "-group",
                variants,
                usage=usage.get(base, ""),
                html=html,
                css=css,
            )
        )
    return ComponentsPage(
        slug="components",
        title="Components",
        template="components.html",
        prose_html=src.section_html("Components"),
        groups=groups,
    )
