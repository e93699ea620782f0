"""The colors page: swatches with every representation, roles from the prose, contrast, CVD preview."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pinup.designmd.colors import rgb_contrast as contrast
from pinup.docsite.anchors import token_anchor
from pinup.docsite.markdown import parser_for
from pinup.docsite.models import (
    ColorFamily,
    ColorMode,
    ColorsPage,
    ContrastCell,
    ContrastMatrix,
    ContrastPair,
    Swatch,
)
from pinup.docsite.sources import Sources
from pinup.prosememo import keep, recall
from pinup.theme import best_on, describes_dark_default

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable

    from pinup.designmd.model import Color

#: Machado et al. (2009) full-severity matrices, applied in linear RGB (feColorMatrix's default).
SIMULATIONS: list[tuple[str, str, str]] = [
    (
        "protanopia",
        "Protanopia (no red cones)",
        "0.152286 1.052583 -0.204868 0 0 0.114503 0.786281 0.099216 0 0 -0.003882 -0.048116 1.051998 0 0 0 0 0 1 0",
    ),
    (
        "deuteranopia",
        "Deuteranopia (no green cones)",
        "0.367322 0.860646 -0.227968 0 0 0.280085 0.672501 0.047413 0 0 -0.011820 0.042940 0.968881 0 0 0 0 0 1 0",
    ),
    (
        "tritanopia",
        "Tritanopia (no blue cones)",
        "1.255528 -0.076749 -0.178779 0 0 -0.078411 0.930809 0.147602 0 0 0.004733 0.691367 0.303900 0 0 0 0 0 1 0",
    ),
]

_TEXT_HINTS = ("text", "ink", "foreground", "fg", "content")
_SURFACE_HINTS = ("background", "surface", "bg", "canvas", "container", "card", "paper", "base", "page")
_MAX_MATRIX = 10
#: "(`#1ed760`): Spotify green" -> "Spotify green": the value is shown beside the role already
_LEAD_VALUE = re.compile(r"^\(\s*#?[0-9a-fA-F]{3,8}\s*\)\s*[:—–-]?\s*")


def level(ratio: float) -> str:
    """WCAG 2 badge for normal text (AA 4.5, AAA 7) and large text (3)."""
    if ratio >= 7:
        return "AAA"
    if ratio >= 4.5:
        return "AA"
    if ratio >= 3:
        return "AA Large"
    return "Fail"


def _oklch(color: Color) -> str:
    try:
        from pinup.designmd.colors import to_oklch

        lightness, chroma, hue = to_oklch(color)
    except (ImportError, ValueError, TypeError):
        return ""
    return f"oklch({lightness * 100:.1f}% {chroma:.3f} {hue:.1f})"


def _rgb_text(color: Color) -> str:
    if color.a is not None and color.a < 1:
        return f"rgb({color.r} {color.g} {color.b} / {color.a:g})"
    return f"rgb({color.r} {color.g} {color.b})"


# --- roles from the prose -------------------------------------------------------------------


def prose_items(markdown: str, tokens: list[Any] | None = None) -> list[tuple[str, str, list[str]]]:
    """(label, plain text, code spans) for each list item or paragraph of the Colors prose."""
    if tokens is None:
        tokens = parser_for(markdown).parse(markdown)
    items: list[tuple[str, str, list[str]]] = []
    for tok in tokens:
        if tok.type != "inline" or not tok.children:
            continue
        label, in_strong = "", False
        text: list[str] = []
        codes: list[str] = []
        for child in tok.children:
            if child.type == "strong_open":
                in_strong = True
            elif child.type == "strong_close":
                in_strong = False
            elif child.type in ("text", "code_inline", "softbreak"):
                content = " " if child.type == "softbreak" else child.content
                if child.type == "code_inline":
                    codes.append(child.content.lower())
                if in_strong and not "".join(text).strip():
                    label += content
                else:
                    text.append(content)
        items.append((label, " ".join("".join(text).split()), codes))
    return items


@lru_cache(maxsize=4096)  # the same names and labels on every build of a site
def _norm(text: str) -> str:
    # `\(.*?\)` tried every "(" of a line with no ")" to the line's end; this one swallows the rest
    # of such a line (no later "(" on it can close either) and puts it back.
    text = re.sub(r"\([^)\n]*(\))?", lambda m: "" if m.group(1) else m.group(0), text.lower())
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text).split())


def color_roles(
    markdown: str,
    colors: dict[str, Color],
    tokens: list[Any] | Callable[[], list[Any]] | None = None,
    *,
    allow_html: bool | None = None,
) -> dict[str, str]:
    """Token name -> the sentence of the prose that describes it (best match first).

    `tokens`: the parsed `markdown`, or a function that parses it (called only when needed).
    `allow_html`: the parser setting `tokens` come from; when given, what the prose says is
    remembered by (setting, prose), so a token edit does not read unchanged prose again
    (`pinup.prosememo`: not in a new process either).
    """
    if allow_html is None:
        items = _role_items(markdown, tokens() if callable(tokens) else tokens)
    else:
        key = (allow_html, markdown)
        found = recall("roles", key)
        if found is None:
            parsed = tokens() if callable(tokens) else tokens
            found = keep("roles", key, _role_items(markdown, parsed))
        items = found
    roles: dict[str, str] = {}
    for name, color in colors.items():
        want = _norm(name.replace("-", " "))
        low = name.lower()
        hex6 = color.hex[:7].lower()
        best: tuple[int, str] | None = None
        for labels, padded_label, haystack, codes, body in items:
            if labels and want in labels:
                score = 5
            elif low in codes:
                score = 4
            elif hex6 in haystack:
                score = 3
            elif f" {want} " in padded_label:
                score = 2
            else:
                continue
            if best is None or score > best[0]:
                best = (score, body)
                if score == 5:
                    break
        if best:
            roles[name] = best[1][:280]
    return roles


_RoleItem = tuple[list[str], str, str, set[str], str]


def _role_items(markdown: str, tokens: list[Any] | None) -> list[_RoleItem]:
    """Each prose item with a description: (its labels, its padded label, its text, its code spans, the description)."""
    items: list[_RoleItem] = []
    for label, text, spans in prose_items(markdown, tokens):
        body = _LEAD_VALUE.sub("", text.lstrip(":—–- ")).lstrip(":—–- ").strip()
        if body:
            norm_label = _norm(label)
            labels = [_norm(part) for part in re.split(r"\band\b|,|/", norm_label)] if label else []
            items.append((labels, f" {norm_label} ", (label + " " + text).lower(), set(spans), body))
    return items


# --- contrast -------------------------------------------------------------------------------


def _is_text_like(name: str) -> bool:
    low = name.lower()
    return low.startswith("on-") or any(h in low for h in _TEXT_HINTS)  # a hint among the parts is in the name too


def _is_surface_like(name: str, names: set[str]) -> bool:
    low = name.lower()
    if low.startswith("on-"):
        return False
    return f"on-{low}" in names or any(h in low for h in _SURFACE_HINTS)


def contrast_matrix(swatches: list[Swatch], rgb: dict[str, tuple[int, int, int]]) -> ContrastMatrix | None:
    """Text-like colours against surface-like colours; falls back to darkest x lightest."""
    names = {s.name.lower() for s in swatches}
    rows = [s for s in swatches if _is_text_like(s.name)]
    cols = [s for s in swatches if _is_surface_like(s.name, names) and s not in rows]
    if not rows or not cols:
        by_lum = sorted(swatches, key=lambda s: sum(rgb[s.name]))
        half = max(1, len(by_lum) // 2)
        rows, cols = by_lum[:half][:6], by_lum[half:][-6:]
    rows, cols = rows[:_MAX_MATRIX], cols[:_MAX_MATRIX]
    if not rows or not cols:
        return None
    cells = [
        [ContrastCell(r.hex[:7], c.hex[:7], round(contrast(rgb[r.name], rgb[c.name]), 2), "") for c in cols]
        for r in rows
    ]
    for row in cells:
        for cell in row:
            cell.level = level(cell.ratio)
    return ContrastMatrix(rows, cols, cells)


# --- families (ramps) and the pairings a DESIGN.md intends ----------------------------------

_NUMBER = re.compile(r"-(\d+)$")


def _base(name: str, suffix: str) -> str:
    low = name.lower()
    return low[: -len(suffix)] if suffix and low.endswith(suffix) else low


def _step(name: str) -> int:
    found = _NUMBER.search(name)
    return int(found.group(1)) if found else 0


def color_families(swatches: list[Swatch], suffix: str = "") -> list[ColorFamily]:
    """Group by family: the first part of the name, with `on-` set aside (`on-primary` joins `primary`).

    Families of one colour are gathered at the end under "Other colors"; numbered
    steps (`gray-100`, `gray-900`) are put in order, so a ramp reads light to dark.
    """
    groups: dict[str, list[Swatch]] = {}
    for sw in swatches:
        base = _base(sw.name, suffix)
        core = base[3:] if base.startswith("on-") else base
        groups.setdefault(core.split("-", 1)[0] or core, []).append(sw)
    families: list[ColorFamily] = []
    singles: list[Swatch] = []
    for key, members in groups.items():
        if len(members) < 2:
            singles.extend(members)
            continue
        numbered = [_NUMBER.search(_base(m.name, suffix)) for m in members]
        if all(numbered):
            members = sorted(members, key=lambda m: _step(_base(m.name, suffix)))
        families.append(ColorFamily(key, key.replace("_", " ").capitalize(), members))
    if singles:
        families.append(ColorFamily("other", "Other colors" if families else "Colors", singles))
    return families


def intended_pairs(
    swatches: list[Swatch], rgb: dict[str, tuple[int, int, int]], suffix: str = ""
) -> list[ContrastPair]:
    """`on-X` on `X` (and `on-X-variant` on `X`), text colours on the page background and surface."""
    by_base = {_base(sw.name, suffix): sw for sw in swatches}
    pairs: list[ContrastPair] = []
    seen: set[tuple[str, str]] = set()

    def add(fg: Swatch | None, bg: Swatch | None, why: str) -> None:
        if fg is None or bg is None or fg is bg or (fg.name, bg.name) in seen:
            return
        seen.add((fg.name, bg.name))
        ratio = round(contrast(rgb[fg.name], rgb[bg.name]), 2)
        pairs.append(ContrastPair(fg, bg, ratio, level(ratio), why))

    for base, sw in by_base.items():
        if not base.startswith("on-"):
            continue
        target = base[3:]
        if target in by_base:
            add(sw, by_base[target], "text on its fill")
        for tail in ("-variant", "-muted", "-secondary", "-subtle"):
            if target.endswith(tail) and target[: -len(tail)] in by_base:
                add(sw, by_base[target[: -len(tail)]], "secondary text on its fill")
    page = by_base.get("background") or by_base.get("canvas") or by_base.get("bg")
    surface = by_base.get("surface")
    body = by_base.get("on-background") or by_base.get("on-surface")
    add(body, page, "body text on the page")
    for base, sw in by_base.items():
        if not base.startswith("on-") and any(h in base.split("-") for h in _TEXT_HINTS):
            add(sw, page, "text on the page")
            add(sw, surface, "text on surfaces")
    return pairs


def _swatch(name: str, color: Color, role: str, line: int | None) -> Swatch:
    return Swatch(
        name=name,
        anchor=token_anchor("colors", name),
        raw=str(color.raw if color.raw is not None else color.hex),
        hex=color.hex,
        rgb=_rgb_text(color),
        oklch=_oklch(color),
        css_var=f"var(--color-{name})",
        ref=f"{{colors.{name}}}",
        role=role,
        line=line,
        alpha=color.a,
        label_on="#ffffff" if best_on((color.r, color.g, color.b)) == (255, 255, 255) else "#000000",
    )


def build_colors(src: Sources) -> ColorsPage:
    design = src.design
    prose = src.section_markdown("Colors")
    roles = (
        color_roles(prose, design.colors, lambda: src.cache.tokens(prose), allow_html=src.allow_html)
        if prose.strip()
        else {}
    )
    light: list[Swatch] = []
    dark: list[Swatch] = []
    rgb: dict[str, tuple[int, int, int]] = {}
    for name, color in design.colors.items():
        sw = _swatch(name, color, roles.get(name, ""), design.lines.get(f"colors.{name}"))
        rgb[name] = (color.r, color.g, color.b)
        (dark if name.lower().endswith("-dark") or "-dark-" in name.lower() else light).append(sw)
    modes: list[ColorMode] = []
    if light:
        modes.append(
            ColorMode(
                "light",
                "Light" if dark else "Palette",
                light,
                contrast_matrix(light, rgb),
                color_families(light),
                intended_pairs(light, rgb),
            )
        )
    if dark:
        modes.append(
            ColorMode(
                "dark",
                "Dark (tokens ending in -dark)",
                dark,
                contrast_matrix(dark, rgb),
                color_families(dark, "-dark"),
                intended_pairs(dark, rgb, "-dark"),
            )
        )
        if describes_dark_default(design):
            modes.reverse()  # the brand's own look comes first
    return ColorsPage(
        slug="colors",
        title="Colors",
        template="colors.html",
        prose_html=src.markdown(prose),
        modes=modes,
        simulations=SIMULATIONS,
    )


__all__ = ["build_colors", "color_families", "color_roles", "contrast_matrix", "intended_pairs", "level", "SIMULATIONS"]
