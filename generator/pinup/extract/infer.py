"""Tokens inferred from a page's computed styles: colours by role, the type scale, spacing, radii.

Every choice is by weight, so what the page shows most wins: a background counts by the area it
paints, a text colour and a type style by the characters set in it, a border, radius or spacing by
how many elements use it. Colours within `SAME_COLOR` of each other (OKLab distance) count as one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from pinup.designmd.colordiff import delta_e_ok as distance
from pinup.designmd.colors import CssColor, parse_css_color, ratio, to_oklch
from pinup.extract.sample import Element, PageSample

#: OKLab distance under which two colours are the same colour (anti-aliasing, rounding of a mix)
SAME_COLOR = 0.02
#: OKLab distance a secondary or tertiary colour keeps from the colours chosen before it
DISTINCT_COLOR = 0.08
#: OKLCH chroma above which a colour is a brand colour rather than a neutral
CHROMATIC = 0.04
#: a canvas with no background of its own is white (the browser's default)
CANVAS = "#ffffff"
SPACING_NAMES = ("xs", "sm", "md", "lg", "xl", "2xl", "3xl", "4xl")
RADIUS_NAMES = ("sm", "md", "lg", "xl", "2xl")
#: a radius at least this large draws a pill or a circle
FULL_RADIUS = 999.0
_PX = re.compile(r"^(-?\d+(?:\.\d+)?)px$")


@dataclass(slots=True)
class ColorUse:
    """One colour of the page and how much of it there is."""

    color: CssColor
    #: painted area (backgrounds), characters (text) or elements (borders)
    weight: float = 0.0
    elements: int = 0


@dataclass(slots=True)
class TypeStyle:
    """A type scale level as CSS values (`line_height`, `letter_spacing` empty when `normal`)."""

    font_family: str
    font_size: str
    font_weight: int
    line_height: str
    letter_spacing: str
    #: characters set in it
    weight: int = 0


@dataclass(slots=True)
class Inferred:
    """Everything `draft` writes, in order, with what it was inferred from."""

    title: str
    url: str
    elements: int
    #: token name -> colour, in the order the draft lists them
    colors: dict[str, CssColor] = field(default_factory=dict)
    #: token name -> a sentence on where the colour was found
    color_notes: dict[str, str] = field(default_factory=dict)
    #: colours seen but not made tokens (hex -> elements)
    other_colors: list[tuple[str, int]] = field(default_factory=list)
    typography: dict[str, TypeStyle] = field(default_factory=dict)
    spacing: dict[str, str] = field(default_factory=dict)
    rounded: dict[str, str] = field(default_factory=dict)
    #: box-shadow values, most used first, with how many elements use each
    shadows: list[tuple[str, int]] = field(default_factory=list)
    #: component name -> sub-token -> value (token references)
    components: dict[str, dict[str, str]] = field(default_factory=dict)


def chroma(c: CssColor) -> float:
    return to_oklch(c)[1]


def opaque(css: str) -> CssColor | None:
    """The colour of a computed value, or None when it is missing, unparsable or not fully opaque."""
    parsed = parse_css_color(css) if css else None
    if parsed is None or (parsed.a is not None and parsed.a < 1):
        return None
    return parsed


class _Tally:
    """Colour uses merged within `SAME_COLOR`; the first colour seen names a group."""

    def __init__(self) -> None:
        self.uses: list[ColorUse] = []

    def add(self, color: CssColor, weight: float) -> None:
        for use in self.uses:
            if use.color.hex == color.hex or distance(use.color, color) < SAME_COLOR:
                use.weight += weight
                use.elements += 1
                return
        self.uses.append(ColorUse(color, weight, 1))

    def ranked(self) -> list[ColorUse]:
        return sorted(self.uses, key=lambda u: (-u.weight, u.color.hex))


def _px(value: str) -> float | None:
    match = _PX.match(value.strip())
    return float(match.group(1)) if match else None


def _dimension(px: float) -> str:
    text = f"{px:.2f}".rstrip("0").rstrip(".")
    return f"{text}px"


def _family(css: str) -> str:
    names = [part.strip().strip("\"'").strip() for part in css.split(",")]
    return ", ".join(n for n in names if n)


def _page_background(sample: PageSample) -> CssColor:
    for element in sample.elements[:2]:  # <html>, then <body>
        found = opaque(element.background)
        if found is not None and element.tag == "body":
            return found
    for element in sample.elements[:1]:
        found = opaque(element.background)
        if found is not None:
            return found
    parsed = parse_css_color(CANVAS)
    assert parsed is not None
    return parsed


def _best_text_on(background: CssColor, candidates: Iterable[CssColor]) -> CssColor:
    """The candidate that reads best on `background` (white or black when none reaches 4.5:1)."""
    best = max(candidates, key=lambda c: ratio(c, background), default=None)
    if best is not None and ratio(best, background) >= 4.5:
        return best
    white, black = parse_css_color("#ffffff"), parse_css_color("#000000")
    assert white is not None and black is not None
    return white if ratio(white, background) >= ratio(black, background) else black


def _text_on(elements: Iterable[Element]) -> CssColor | None:
    tally = _Tally()
    for element in elements:
        color = opaque(element.color)
        if color is not None:
            tally.add(color, max(element.text, 1))
    ranked = tally.ranked()
    return ranked[0].color if ranked else None


def _same(a: CssColor, b: CssColor) -> bool:
    return a.hex == b.hex or distance(a, b) < SAME_COLOR


def infer_colors(sample: PageSample, out: Inferred) -> None:
    """Colours by role: background, surface, primary (the main action), secondary, tertiary, outline."""
    elements = sample.elements
    background = _page_background(sample)
    texts, fills, borders = _Tally(), _Tally(), _Tally()
    for element in elements:
        text = opaque(element.color)
        if text is not None and element.text:
            texts.add(text, element.text)
        fill = opaque(element.background)
        if fill is not None and element.tag not in ("html", "body"):
            fills.add(fill, element.area)
        border = opaque(element.border)
        if border is not None:
            borders.add(border, 1)
    on_background = _text_on(e for e in elements if e.text) or _best_text_on(background, ())
    out.colors["background"] = background
    out.colors["on-background"] = on_background
    out.color_notes["background"] = "the page's own background"
    out.color_notes["on-background"] = "the most used text colour"

    # The main action: the most painted chromatic fill of buttons and links; else the most used
    # chromatic text of links; else the most used chromatic colour anywhere.
    actions = _Tally()
    for element in elements:
        fill = opaque(element.background)
        if element.interactive and fill is not None and chroma(fill) > CHROMATIC:
            actions.add(fill, element.area)
    primary: CssColor | None = None
    on_primary: CssColor | None = None
    if actions.uses:
        primary = actions.ranked()[0].color
        primary_elements = [
            e for e in elements if e.interactive and (f := opaque(e.background)) is not None and _same(f, primary)
        ]
        found = _text_on(primary_elements)
        on_primary = found if found is not None and ratio(found, primary) >= 3 else None
        out.color_notes["primary"] = f"the fill of {len(primary_elements)} button(s) or link(s)"
    else:
        links = _Tally()
        for element in elements:
            text = opaque(element.color)
            if element.interactive and text is not None and chroma(text) > CHROMATIC:
                links.add(text, max(element.text, 1))
        chromatic = [u for u in (links.ranked() or fills.ranked() + texts.ranked()) if chroma(u.color) > CHROMATIC]
        if chromatic:
            primary = chromatic[0].color
            out.color_notes["primary"] = "the most used brand colour of links and text"
    if primary is None:
        primary = on_background
        out.color_notes["primary"] = "no brand colour was found: the text colour stands in"
    out.colors["primary"] = primary
    out.colors["on-primary"] = on_primary or _best_text_on(primary, (background, on_background))
    out.color_notes["on-primary"] = "text on the primary colour"

    chosen = [background, on_background, primary]
    accents = [
        u for u in sorted(fills.ranked() + texts.ranked(), key=lambda u: -u.elements) if chroma(u.color) > CHROMATIC
    ]
    for role in ("secondary", "tertiary"):
        pick = next((u for u in accents if all(distance(u.color, c) >= DISTINCT_COLOR for c in chosen)), None)
        if pick is None:
            break
        chosen.append(pick.color)
        out.colors[role] = pick.color
        out.colors[f"on-{role}"] = _best_text_on(pick.color, (background, on_background))
        out.color_notes[role] = f"a brand colour on {pick.elements} element(s)"
        out.color_notes[f"on-{role}"] = f"text on the {role} colour"

    neutral_fills = [u for u in fills.ranked() if chroma(u.color) <= CHROMATIC and not _same(u.color, background)]
    if neutral_fills:
        surface = neutral_fills[0].color
        chosen.append(surface)
        out.colors["surface"] = surface
        found = _text_on(e for e in elements if (f := opaque(e.background)) is not None and _same(f, surface))
        out.colors["on-surface"] = (
            found if found is not None and ratio(found, surface) >= 4.5 else _best_text_on(surface, (on_background,))
        )
        out.color_notes["surface"] = f"the most painted panel or card fill ({neutral_fills[0].elements} element(s))"
        out.color_notes["on-surface"] = "text on the surface colour"
    if borders.uses:
        outline = borders.ranked()[0]
        chosen.append(outline.color)
        out.colors["outline"] = outline.color
        out.color_notes["outline"] = f"the most used border colour ({outline.elements} element(s))"
    named = list(out.colors.values())
    seen: list[tuple[str, int]] = []
    for use in sorted(fills.uses + texts.uses + borders.uses, key=lambda u: -u.elements):
        if all(not _same(use.color, c) for c in named) and all(hex_ != use.color.hex for hex_, _ in seen):
            seen.append((use.color.hex, use.elements))
    out.other_colors = seen[:12]


def _style_of(element: Element) -> TypeStyle | None:
    size = _px(element.font_size)
    if size is None or not element.font_family:
        return None
    try:
        weight = int(float(element.font_weight))
    except ValueError:
        weight = 400
    line = _px(element.line_height)
    spacing = _px(element.letter_spacing)
    return TypeStyle(
        font_family=_family(element.font_family),
        font_size=_dimension(size),
        font_weight=weight,
        line_height=_dimension(line) if line is not None else "",
        letter_spacing=f"{spacing / size:.3f}".rstrip("0").rstrip(".") + "em" if spacing else "",
    )


def _top_style(elements: Iterable[Element]) -> TypeStyle | None:
    counts: Counter[tuple[str, str, int, str, str]] = Counter()
    for element in elements:
        style = _style_of(element)
        if style is not None:
            key = (style.font_family, style.font_size, style.font_weight, style.line_height, style.letter_spacing)
            counts[key] += max(element.text, 1)
    if not counts:
        return None
    (family, size, weight, line, letter), chars = max(counts.items(), key=lambda kv: (kv[1], kv[0][1]))
    return TypeStyle(family, size, weight, line, letter, chars)


def infer_typography(sample: PageSample, out: Inferred) -> None:
    """The type scale: headings by level, body text, labels of controls, code."""
    texted = [e for e in sample.elements if e.text]
    body = _top_style(e for e in texted if e.tag not in ("h1", "h2", "h3", "h4", "h5", "h6", "code", "pre", "kbd"))
    body_px = _px(body.font_size) if body else None
    levels: list[tuple[str, TypeStyle | None]] = []
    h1 = _top_style(e for e in texted if e.tag == "h1")
    h1_px = _px(h1.font_size) if h1 else None
    levels.append(("display" if h1_px is not None and h1_px >= 44 else "headline-lg", h1))
    levels.append(("headline-md", _top_style(e for e in texted if e.tag == "h2")))
    levels.append(("headline-sm", _top_style(e for e in texted if e.tag == "h3")))
    levels.append(("title", _top_style(e for e in texted if e.tag in ("h4", "h5", "h6"))))
    if body is not None and body_px is not None:
        plain = [e for e in texted if not e.tag.startswith("h") and not e.interactive]
        larger = _top_style(e for e in plain if (p := _px(e.font_size)) is not None and p > body_px)
        smaller = _top_style(e for e in plain if (p := _px(e.font_size)) is not None and p < body_px)
        levels += [("body-lg", larger), ("body-md", body), ("body-sm", smaller)]
    levels.append(("label-md", _top_style(e for e in texted if e.interactive)))
    levels.append(("mono", _top_style(e for e in texted if e.tag in ("code", "pre", "kbd", "samp"))))
    seen: set[tuple[str, str, int, str, str]] = set()
    for name, style in levels:
        if style is None:
            continue
        key = (style.font_family, style.font_size, style.font_weight, style.line_height, style.letter_spacing)
        if key in seen and name not in ("body-md", "label-md"):
            continue
        seen.add(key)
        out.typography[name] = style


def _scale(values: Counter[float], names: tuple[str, ...]) -> dict[str, str]:
    """The most used values, smallest first, named in order (`names` says how many at most)."""
    common = [value for value, _ in values.most_common(len(names))]
    return {name: _dimension(value) for name, value in zip(names, sorted(common), strict=False)}


def infer_layout(sample: PageSample, out: Inferred) -> None:
    """Spacing (paddings, margins, gaps), radii and shadows, by how many elements use each."""
    spaces: Counter[float] = Counter()
    radii: Counter[float] = Counter()
    shadows: Counter[str] = Counter()
    full = 0
    for element in sample.elements:
        for value in element.spaces:
            px = _px(value)
            if px is not None and 0 < px <= 160:
                spaces[round(px)] += 1
        radius = element.radius.strip()
        px = _px(radius)
        if radius.endswith("%") and radius != "0%":
            full += 1
        elif px is not None and px >= FULL_RADIUS:
            full += 1
        elif px is not None and px > 0:
            radii[round(px, 1)] += 1
        if element.shadow and element.shadow != "none":
            shadows[element.shadow] += 1
    out.spacing = _scale(spaces, SPACING_NAMES)
    out.rounded = _scale(radii, RADIUS_NAMES)
    if full:
        out.rounded["full"] = "9999px"
    out.shadows = shadows.most_common(4)


def _ref_for(value: str, tokens: dict[str, str], group: str) -> str | None:
    for name, token in tokens.items():
        if token == value:
            return f"{{{group}.{name}}}"
    return None


def infer_components(sample: PageSample, out: Inferred) -> None:
    """A primary button and a card, when the page has them, made of references to the tokens."""
    primary = out.colors["primary"]
    buttons = [
        e for e in sample.elements if e.interactive and (f := opaque(e.background)) is not None and _same(f, primary)
    ]
    button: dict[str, str] = {"backgroundColor": "{colors.primary}", "textColor": "{colors.on-primary}"}
    if "label-md" in out.typography:
        button["typography"] = "{typography.label-md}"
    if buttons:
        radius = Counter(round(px, 1) for e in buttons if (px := _px(e.radius)) is not None and px > 0)
        if radius:
            top = radius.most_common(1)[0][0]
            ref = "{rounded.full}" if top >= FULL_RADIUS else _ref_for(_dimension(top), out.rounded, "rounded")
            if ref:
                button["rounded"] = ref
        pads = Counter(round(px) for e in buttons if (px := _px(e.spaces[0] if e.spaces else "")) is not None and px)
        if pads:
            ref = _ref_for(_dimension(pads.most_common(1)[0][0]), out.spacing, "spacing")
            if ref:
                button["padding"] = ref
    out.components["button-primary"] = button
    page: dict[str, str] = {"backgroundColor": "{colors.background}", "textColor": "{colors.on-background}"}
    if "body-md" in out.typography:
        page["typography"] = "{typography.body-md}"
    out.components["page"] = page
    for role in ("secondary", "tertiary"):
        if role in out.colors:
            out.components[f"button-{role}"] = {
                "backgroundColor": f"{{colors.{role}}}",
                "textColor": f"{{colors.on-{role}}}",
            }
    if "surface" in out.colors:
        card: dict[str, str] = {"backgroundColor": "{colors.surface}", "textColor": "{colors.on-surface}"}
        if "md" in out.rounded or "lg" in out.rounded:
            card["rounded"] = "{rounded.lg}" if "lg" in out.rounded else "{rounded.md}"
        out.components["card"] = card
    if "outline" in out.colors:
        out.components["divider"] = {"backgroundColor": "{colors.outline}", "height": "1px"}


def infer(sample: PageSample) -> Inferred:
    """All of it, from one page."""
    out = Inferred(title=sample.title, url=sample.url, elements=len(sample.elements))
    infer_colors(sample, out)
    infer_typography(sample, out)
    infer_layout(sample, out)
    infer_components(sample, out)
    return out
