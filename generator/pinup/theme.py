"""The chrome theme shared by the site and the boards: DESIGN.md tokens -> `--pinup-*` CSS variables.

Pages built by pinup should look like the brand they document, but stay readable
whatever the brand's palette is. So roles (background, surface, text, primary,
border...) are picked from token names, every text pairing is checked against
WCAG 2 contrast, and pairings that fail are replaced automatically. A dark theme
comes from `*-dark` tokens when the DESIGN.md has them and is derived otherwise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING
from urllib.parse import quote_plus

from pinup.designmd.colors import rgb_contrast as contrast
from pinup.designmd.colors import rgb_luminance as luminance

if TYPE_CHECKING:  # pragma: no cover
    from pinup.designmd.model import Color, DesignSystem, Typography

RGB = tuple[int, int, int]

#: body text must reach this contrast against background and surface (WCAG AA).
MIN_TEXT_CONTRAST = 4.5

SANS_STACK = (
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Liberation Sans", Arimo, '
    '"Noto Sans", sans-serif'
)
SERIF_STACK = 'ui-serif, Georgia, Gelasio, Cambria, Caladea, "Times New Roman", Times, "Liberation Serif", Tinos, serif'
MONO_STACK = (
    'ui-monospace, SFMono-Regular, Menlo, Monaco, Consolas, "Liberation Mono", Cousine, "Courier New", monospace'
)
CONDENSED_STACK = '"Arial Narrow", "Liberation Sans Narrow", "Roboto Condensed", "Helvetica Neue", Arial, sans-serif'
#: metric-compatible stand-ins (same advance widths), added after the family they copy when a stack names it
METRIC_CLONES: dict[str, tuple[str, ...]] = {
    "arial": ("Liberation Sans", "Arimo"),
    "helvetica": ("Liberation Sans", "Arimo"),
    "helvetica neue": ("Liberation Sans", "Arimo"),
    "times new roman": ("Liberation Serif", "Tinos"),
    "times": ("Liberation Serif", "Tinos"),
    "courier new": ("Liberation Mono", "Cousine"),
    "courier": ("Liberation Mono", "Cousine"),
    "georgia": ("Gelasio",),
    "calibri": ("Carlito",),
    "cambria": ("Caladea",),
    "arial narrow": ("Liberation Sans Narrow",),
}
_CONDENSED_HINTS = ("condensed", "narrow", "compressed", "din", "futura")
GENERIC_FAMILIES = {
    "serif",
    "sans-serif",
    "monospace",
    "cursive",
    "fantasy",
    "system-ui",
    "ui-serif",
    "ui-sans-serif",
    "ui-monospace",
    "ui-rounded",
    "emoji",
    "math",
    "fangsong",
}
#: families every platform has (or that are CSS keywords): never requested from Google Fonts.
SYSTEM_FAMILIES = GENERIC_FAMILIES | {
    "-apple-system",
    "blinkmacsystemfont",
    "segoe ui",
    "helvetica",
    "helvetica neue",
    "arial",
    "georgia",
    "times",
    "times new roman",
    "courier",
    "courier new",
    "menlo",
    "monaco",
    "consolas",
    "sf pro",
    "sf pro display",
    "sf pro text",
    "sf mono",
    "verdana",
    "tahoma",
    "cambria",
    "inherit",
    "initial",
}
_SERIF_HINTS = (
    "serif",
    "georgia",
    "times",
    "garamond",
    "playfair",
    "merriweather",
    "lora",
    "tiempos",
    "freight",
    "baskerville",
    "caslon",
    "didot",
    "bodoni",
    "crimson",
    "libre",
    "source serif",
)

# Candidate token names per role, best first. Exact names are tried before substrings.
ROLE_NAMES: dict[str, tuple[str, ...]] = {
    "bg": ("background", "bg", "canvas", "page", "base", "surface-background", "neutral-0", "white", "surface"),
    "surface": (
        "surface",
        "surface-container",
        "surface-1",
        "card",
        "container",
        "surface-variant",
        "background-secondary",
        "secondary-background",
        "neutral-50",
        "neutral-100",
    ),
    "text": (
        "on-background",
        "on-surface",
        "text",
        "text-primary",
        "foreground",
        "fg",
        "ink",
        "body",
        "content",
        "neutral-900",
        "black",
    ),
    "muted": (
        "on-surface-variant",
        "text-secondary",
        "text-muted",
        "muted-foreground",
        "muted",
        "secondary-text",
        "text-tertiary",
        "subtle",
        "neutral-600",
        "neutral-500",
    ),
    "primary": ("primary", "brand", "accent", "primary-500", "brand-primary", "action", "link"),
    "on-primary": ("on-primary", "on-brand", "on-accent", "primary-foreground"),
    "border": ("border", "outline", "divider", "stroke", "outline-variant", "border-subtle", "line", "separator"),
}
_SUBSTRINGS: dict[str, tuple[str, ...]] = {
    "bg": ("background", "canvas"),
    "surface": ("surface", "card", "container"),
    "text": ("text", "foreground", "ink"),
    "muted": ("muted", "secondary-text", "subtle", "tertiary"),
    "primary": ("primary", "brand", "accent"),
    "on-primary": ("on-primary",),
    "border": ("border", "outline", "divider", "stroke"),
}


# --- colour maths on 8-bit sRGB (tiny, so the theme never waits on a parser) ---------------


def _rgb_to_hex(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(max(0, min(255, round(c))) for c in rgb))


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """`a` moved toward `b` by fraction t (0 = a, 1 = b)."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _chroma(rgb: RGB) -> int:
    return max(rgb) - min(rgb)


WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)


def best_on(bg: RGB) -> RGB:
    """White or near-black, whichever reads better on `bg`."""
    ink = (17, 17, 17)
    return WHITE if contrast(WHITE, bg) >= contrast(ink, bg) else ink


def ensure_contrast(fg: RGB, backgrounds: list[RGB], target: float = MIN_TEXT_CONTRAST) -> RGB:
    """Nudge `fg` toward black or white until it reaches `target` on every background."""
    if all(contrast(fg, b) >= target for b in backgrounds):
        return fg
    avg = sum(luminance(b) for b in backgrounds) / len(backgrounds)
    pole = BLACK if avg > 0.18 else WHITE
    for step in range(1, 21):
        cand = mix(fg, pole, step / 20)
        if all(contrast(cand, b) >= target for b in backgrounds):
            return cand
    return pole


# --- role picking ---------------------------------------------------------------------------


def _opaque(color: Color) -> RGB:
    """Alpha colours are composited on white: good enough to pick chrome roles."""
    rgb = (color.r, color.g, color.b)
    if color.a is not None and color.a < 1:
        return mix(WHITE, rgb, color.a)
    return rgb


def _pick(role: str, names: dict[str, RGB]) -> str | None:
    for cand in ROLE_NAMES[role]:
        if cand in names:
            return cand
    for sub in _SUBSTRINGS[role]:
        for name in names:
            if sub in name and (role in ("text", "muted", "on-primary") or not name.startswith("on-")):
                return name
    return None


@dataclass(slots=True)
class Palette:
    """The chrome colours of one mode; every text pairing here is readable."""

    bg: RGB
    surface: RGB
    text: RGB
    muted: RGB
    primary: RGB
    on_primary: RGB
    border: RGB
    link: RGB
    sources: dict[str, str] = field(default_factory=dict)  # role -> token name it came from

    def css(self) -> dict[str, str]:
        return {
            "--pinup-bg": _rgb_to_hex(self.bg),
            "--pinup-surface": _rgb_to_hex(self.surface),
            "--pinup-text": _rgb_to_hex(self.text),
            "--pinup-muted": _rgb_to_hex(self.muted),
            "--pinup-primary": _rgb_to_hex(self.primary),
            "--pinup-on-primary": _rgb_to_hex(self.on_primary),
            "--pinup-border": _rgb_to_hex(self.border),
            "--pinup-link": _rgb_to_hex(self.link),
            "--pinup-focus": _rgb_to_hex(self.link),
            "--pinup-code-bg": _rgb_to_hex(mix(self.surface, self.text, 0.06)),
        }


@dataclass(slots=True)
class Theme:
    """Everything `theme_css` decides, kept so pages can explain it (e.g. the fallback note)."""

    light: Palette
    dark: Palette
    dark_from_tokens: bool
    fallbacks: list[str]
    font_body: str
    font_heading: str
    font_mono: str
    font_size: str
    radius: str
    google_fonts_url: str | None = None
    dark_default: bool = False  # the DESIGN.md says its dark surfaces are the default look


def _build_palette(names: dict[str, RGB], mode: str, fallbacks: list[str], base: Palette | None) -> Palette:
    """Choose roles from `names`; derive what is missing (from `base` for dark mode) and fix contrast."""
    picked = {role: _pick(role, names) for role in ROLE_NAMES}
    if picked["surface"] == picked["bg"]:
        picked["surface"] = None
    sources = {k: v for k, v in picked.items() if v}
    dark = mode == "dark"

    def get(role: str) -> RGB | None:
        name = picked[role]
        return names[name] if name else None

    bg: RGB
    found_bg = get("bg")
    if found_bg is not None:
        bg = found_bg
    elif dark:
        tint = base.primary if base else (90, 90, 110)
        bg = mix((16, 16, 20), tint, 0.06)
    else:
        light_ones = sorted(names.values(), key=luminance, reverse=True)
        bg = light_ones[0] if light_ones and luminance(light_ones[0]) > 0.8 else WHITE
    text = get("text")
    if text is None:
        if dark:
            text = (236, 236, 240)
        else:
            others = sorted(names.values(), key=lambda c: contrast(c, bg), reverse=True)
            text = others[0] if others and contrast(others[0], bg) >= MIN_TEXT_CONTRAST else best_on(bg)
    if contrast(text, bg) < MIN_TEXT_CONTRAST:
        better = [c for c in names.values() if contrast(c, bg) >= 7]
        if better:
            text = max(better, key=lambda c: contrast(c, bg))
            fallbacks.append(
                f"{mode}: body text contrast was below {MIN_TEXT_CONTRAST}:1; used a darker palette colour"
            )
        else:
            bg, text = ((18, 18, 20), (237, 237, 240)) if dark else (WHITE, (26, 26, 26))
            fallbacks.append(f"{mode}: body text contrast was below {MIN_TEXT_CONTRAST}:1; used a safe neutral pairing")
        sources.pop("text", None)
    surface = get("surface") or mix(bg, text, 0.05 if not dark else 0.07)
    if contrast(text, surface) < MIN_TEXT_CONTRAST:
        surface = mix(bg, text, 0.04)
        sources.pop("surface", None)
    muted = get("muted") or mix(text, bg, 0.35)
    muted = ensure_contrast(muted, [bg, surface])
    primary = get("primary")
    if primary is None:
        if dark and base is not None:
            primary = ensure_contrast(base.primary, [bg], 3.0)
        else:
            chromatic = sorted(names.values(), key=_chroma, reverse=True)
            primary = chromatic[0] if chromatic and _chroma(chromatic[0]) > 40 else text
    on_primary = get("on-primary")
    if on_primary is None or contrast(on_primary, primary) < MIN_TEXT_CONTRAST:
        on_primary = best_on(primary)
        if contrast(on_primary, primary) < MIN_TEXT_CONTRAST:
            primary = ensure_contrast(primary, [on_primary])
    border = get("border") or mix(bg, text, 0.18)
    link = ensure_contrast(primary, [bg, surface])
    return Palette(bg, surface, text, muted, primary, on_primary, border, link, sources)


def _split_names(colors: dict[str, Color]) -> tuple[dict[str, RGB], dict[str, RGB]]:
    light: dict[str, RGB] = {}
    dark: dict[str, RGB] = {}
    for name, color in colors.items():
        key = name.lower()
        if key.endswith("-dark"):
            dark[key[: -len("-dark")]] = _opaque(color)
        elif key.startswith("dark-"):
            dark[key[len("dark-") :]] = _opaque(color)
        else:
            light[key] = _opaque(color)
    return light, dark


# --- fonts ----------------------------------------------------------------------------------

_FAMILY_OK = re.compile(r"[^A-Za-z0-9 _.\-]")


def _family_names(family: str | None) -> list[str]:
    if not family:
        return []
    out = []
    for part in family.split(","):
        name = _FAMILY_OK.sub("", part.strip().strip("'\"")).strip()
        if name:
            out.append(name)
    return out


@lru_cache(maxsize=512)
def font_stack(family: str | None, kind: str = "sans") -> str:
    """A safe CSS font-family list: the token's families, then a system fallback stack.

    Names are stripped to letters, digits, spaces, `_ . -`, so a DESIGN.md cannot
    inject CSS through a font name.
    """
    names = _with_clones(_family_names(family))
    lowered = " ".join(n.lower() for n in names)
    if kind == "mono" or any(h in lowered for h in ("mono", "code", "courier", "consolas")):
        fallback = MONO_STACK
    elif any(h in lowered for h in _SERIF_HINTS) and "sans" not in lowered:
        fallback = SERIF_STACK
    elif any(h in lowered for h in _CONDENSED_HINTS):
        fallback = CONDENSED_STACK
    else:
        fallback = SANS_STACK
    quoted = [n if n.lower() in GENERIC_FAMILIES or n.startswith("-") else f'"{n}"' for n in names]
    if names and names[-1].lower() in GENERIC_FAMILIES:
        return ", ".join(quoted)
    return ", ".join([*quoted, fallback])


def _with_clones(names: list[str]) -> list[str]:
    """Add the metric-compatible clones of the stack's system fonts (Arial -> Liberation Sans, Arimo)."""
    present = {n.lower() for n in names}
    out: list[str] = []
    for name in names:
        out.append(name)
        for clone in METRIC_CLONES.get(name.lower(), ()):
            if clone.lower() not in present:
                present.add(clone.lower())
                out.append(clone)
    return out


def _pick_typography(typography: dict[str, Typography], exact: tuple[str, ...], subs: tuple[str, ...]) -> str | None:
    keys = {k.lower(): k for k in typography}
    for cand in exact:
        if cand in keys:
            return keys[cand]
    for sub in subs:
        for low, key in keys.items():
            if sub in low:
                return key
    return None


def google_fonts_url(design: DesignSystem) -> str | None:
    """A Google Fonts css2 URL for the non-system families the typography uses (opt-in only)."""
    weights: dict[str, set[int]] = {}
    for level in design.typography.values():
        names = _family_names(level.fontFamily)
        if not names or names[0].lower() in SYSTEM_FAMILIES:
            continue
        w = int(level.fontWeight) if level.fontWeight else 400
        weights.setdefault(names[0], set()).add(max(100, min(900, round(w / 100) * 100)))
    if not weights:
        return None
    parts = []
    for name, ws in sorted(weights.items()):
        ws.add(400)
        parts.append(f"family={quote_plus(name)}:wght@{';'.join(str(w) for w in sorted(ws))}")
    return "https://fonts.googleapis.com/css2?" + "&".join(parts) + "&display=swap"


# --- which mode is the brand's own --------------------------------------------------------

#: code spans, bold spans and words ending in `-dark` (token names); the word is tried only where a
#: word starts, as `\S+-dark` tried at every character scanned the rest of the word each time.
_CODE_SPAN = re.compile(r"`[^`]*`|\*\*[^*]*\*\*|(?<!\S)\S+-dark\b")
_DARK_FIRST = re.compile(r"\bdark[- ]first\b")
_DEFAULT_WORDS = re.compile(r"\b(default|primary|signature|main|native)\b")
_DARK_PLACE = re.compile(r"\bdark (mode|theme|surfaces?|canvas|ui|look|background)\b")


def describes_dark_default(design: DesignSystem) -> bool:
    """True when the description or the Overview/Colors prose says dark surfaces are the default.

    Read sentence by sentence ("Dark mode is the default", "dark-first", "the dark canvas,
    which is the primary look"); token names (`background-dark`) do not count, and a
    description that calls the brand dark without mentioning light counts too
    ("dark surfaces, vivid green").
    """
    description = (design.description or "").lower()
    if _DARK_FIRST.search(description) or (
        re.search(r"\bdark\b", description) and not re.search(r"\blight\b", description)
    ):
        return True
    prose = " ".join(s.body for s in design.sections if s.canonical in ("Overview", "Colors"))
    text = _CODE_SPAN.sub(" ", prose.lower())
    for sentence in re.split(r"(?<=[.!?:;])\s+|\n\s*\n", text):
        if _DARK_FIRST.search(sentence):
            return True
        if _DARK_PLACE.search(sentence) and _DEFAULT_WORDS.search(sentence):
            return True
    return False


# --- public API -------------------------------------------------------------------------------


def build_theme(design: DesignSystem, *, fonts: str = "system") -> Theme:
    """Decide the chrome: roles for light and dark, fonts, radius, and what fell back."""
    light_names, dark_names = _split_names(design.colors)
    fallbacks: list[str] = []
    light = _build_palette(light_names, "light", fallbacks, None)
    dark_from_tokens = bool(dark_names)
    # dark roles without a *-dark token are derived, not copied from light
    dark = _build_palette(dark_names, "dark", fallbacks, light)

    typo = design.typography
    body_key = _pick_typography(
        typo,
        ("body-md", "body", "body-medium", "body-lg", "body-large", "paragraph", "text", "body-sm"),
        ("body", "paragraph", "text"),
    )
    if body_key is None and typo:
        body_key = next(iter(typo))
    head_key = _pick_typography(
        typo,
        (
            "headline-lg",
            "headline-md",
            "headline",
            "heading",
            "h1",
            "display-md",
            "display-lg",
            "display",
            "title-lg",
            "title",
        ),
        ("headline", "heading", "display", "title", "h1", "h2"),
    )
    mono_key = _pick_typography(typo, ("code", "mono", "monospace"), ("mono", "code"))
    body_family = typo[body_key].fontFamily if body_key else None
    head_family = typo[head_key].fontFamily if head_key else body_family
    font_size = "16px"
    size = typo[body_key].fontSize if body_key else None
    if size is not None:
        px = size.value * (16 if size.unit in ("rem", "em") else 1) if size.unit in ("px", "rem", "em") else 16
        font_size = f"{max(14, min(20, round(px)))}px"

    radius = "8px"
    rounded = {k.lower(): v for k, v in design.rounded.items()}
    for cand in ("md", "default", "base", "medium", "sm", "lg"):
        dim = rounded.get(cand)
        if dim is not None and dim.unit in ("px", "rem", "em"):
            px = dim.value * (16 if dim.unit != "px" else 1)
            radius = f"{max(0, min(16, round(px)))}px"
            break

    return Theme(
        light=light,
        dark=dark,
        dark_from_tokens=dark_from_tokens,
        fallbacks=fallbacks,
        font_body=font_stack(body_family),
        font_heading=font_stack(head_family),
        font_mono=font_stack(typo[mono_key].fontFamily if mono_key else None, "mono"),
        font_size=font_size,
        radius=radius,
        google_fonts_url=google_fonts_url(design) if fonts == "google" else None,
        dark_default=describes_dark_default(design),
    )


def _block(selector: str, props: dict[str, str]) -> str:
    body = ";".join(f"{k}:{v}" for k, v in props.items())
    return f"{selector}{{{body}}}"


def theme_css(design: DesignSystem, *, fonts: str = "system") -> str:
    """The `--pinup-*` custom properties for light (`:root`) and dark (`[data-theme=dark]`).

    `fonts="google"` prepends an `@import` of the brand's Google Fonts (opt-in: it
    makes the page fetch from the network); the default uses system stacks only.
    """
    theme = build_theme(design, fonts=fonts)
    return css_for_theme(theme)


def css_for_theme(
    theme: Theme, *, auto_dark: bool = True, dark_selectors: tuple[str, ...] = ("[data-theme=dark]",)
) -> str:
    """Serialise a decided `Theme` as CSS (safe to inline in a <style> element).

    `auto_dark` follows the OS preference until the page picks a theme; embedders
    (the MkDocs plugin) turn it off and pass their own dark selectors instead.
    """
    common = {
        "--pinup-radius": theme.radius,
        "--pinup-radius-sm": f"calc({theme.radius} / 2)",
        "--pinup-radius-lg": f"calc({theme.radius} * 1.5)",
        "--pinup-font-body": theme.font_body,
        "--pinup-font-heading": theme.font_heading,
        "--pinup-font-mono": theme.font_mono,
        "--pinup-font-size": theme.font_size,
    }
    light = {**common, **theme.light.css(), "color-scheme": "light"}
    dark = {**theme.dark.css(), "color-scheme": "dark"}
    parts = []
    if theme.google_fonts_url:
        parts.append(f'@import url("{theme.google_fonts_url}");')
    parts.append(_block(":root", light))
    parts.append(_block(",".join(dark_selectors), dark))
    if auto_dark:
        parts.append("@media (prefers-color-scheme: dark){" + _block(":root:not([data-theme=light])", dark) + "}")
    return "\n".join(parts).replace("<", "\\3c ") + "\n"
