"""`pinup init`: write a new workspace (DESIGN.md plus a sample board) to disk.

The sample board's two HTML variants are drawn from the chosen DESIGN.md's own
tokens, so a freshly scaffolded workspace already looks like its brand when
built. Nothing is overwritten unless the caller says so.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pinup.theme import GENERIC_FAMILIES

BOARD_SLUG = "first-board"
VARIANT_FILES = {"A": "variants/a-centred-hero.html", "B": "variants/b-split-signup.html"}
#: characters allowed in a font stack copied into CSS (blocks `</style>`, `;`, `{`...)
_FONT_UNSAFE = re.compile(r"[^A-Za-z0-9 ,'\"._-]")


class ScaffoldError(Exception):
    """The workspace cannot be written (existing files, unwritable folder)."""


@dataclass
class Palette:
    """The handful of design values the sample variants need, already CSS-safe."""

    name: str
    bg: str = "#ffffff"
    surface: str = "#f6f6f6"
    text: str = "#111111"
    muted: str = "#555555"
    primary: str = "#1f4fd1"
    on_primary: str = "#ffffff"
    accent: str = "#1f4fd1"
    outline: str = "#dddddd"
    font_body: str = "system-ui, sans-serif"
    font_heading: str = "system-ui, sans-serif"
    radius: str = "8px"
    radius_card: str = "12px"
    space: str = "16px"
    extras: dict[str, str] = field(default_factory=dict)


@dataclass
class ScaffoldResult:
    """What `write_workspace` created."""

    root: Path
    files: list[Path]
    source: str


#: family keywords that must stay unquoted in CSS: the generic families, plus the two vendor
#: keywords for the system UI font, which a browser does not recognise once quoted
_GENERIC_FONTS = GENERIC_FAMILIES | {"-apple-system", "blinkmacsystemfont"}


def _safe_font(stack: str | None, fallback: str) -> str:
    """A CSS font-family list: unsafe characters dropped, every real family name quoted."""
    if not stack:
        return fallback
    names = [_FONT_UNSAFE.sub("", part).strip().strip("'\"").strip() for part in stack.split(",")]
    quoted = [n if n.lower() in _GENERIC_FONTS else f'"{n}"' for n in names if n]
    return ", ".join(quoted) or fallback


def _pick(colors: dict[str, Any], *names: str) -> Any | None:
    for name in names:
        if name in colors:
            return colors[name]
    return None


def palette_from_text(text: str, fallback_name: str) -> Palette:
    """Read the tokens the sample variants use, with readable fallbacks."""
    from pinup.designmd.colors import contrast_ratio
    from pinup.designmd.lint import lint_text

    design = lint_text(text).design
    colors = design.colors
    pal = Palette(name=design.name or fallback_name)

    def hex_of(*names: str) -> str | None:
        color = _pick(colors, *names)
        return color.hex[:7] if color is not None else None

    pal.bg = hex_of("background", "surface") or pal.bg
    pal.surface = hex_of("surface", "surface-container", "background") or pal.surface
    pal.text = hex_of("on-background", "on-surface") or pal.text
    pal.muted = hex_of("on-surface-variant", "on-background", "on-surface") or pal.muted
    pal.primary = hex_of("primary") or (next(iter(colors.values())).hex[:7] if colors else pal.primary)
    pal.on_primary = hex_of("on-primary") or pal.on_primary
    pal.accent = hex_of("accent", "secondary", "tertiary", "primary") or pal.primary
    pal.outline = hex_of("outline", "outline-variant") or pal.outline

    from pinup.designmd.colors import parse_css_color

    def readable(fg: str, bg: str) -> str:
        a, b = parse_css_color(fg), parse_css_color(bg)
        if a is None or b is None or contrast_ratio(a, b) >= 4.5:
            return fg
        white, black = parse_css_color("#ffffff"), parse_css_color("#111111")
        return "#ffffff" if contrast_ratio(white, b) >= contrast_ratio(black, b) else "#111111"

    pal.text = readable(pal.text, pal.bg)
    pal.muted = readable(pal.muted, pal.bg)
    pal.on_primary = readable(pal.on_primary, pal.primary)

    typo = design.typography
    body = _pick(typo, "body", "body-md", "body-lg", "paragraph")
    heading = _pick(typo, "display", "headline", "headline-lg", "heading", "title", "h1")
    pal.font_body = _safe_font(body.fontFamily if body else None, pal.font_body)
    pal.font_heading = _safe_font(heading.fontFamily if heading else None, pal.font_body)
    button = design.components.get("button-primary")
    button_radius = button.properties.get("rounded") if button is not None else None
    radius = button_radius if hasattr(button_radius, "css") else _pick(design.rounded, "md", "DEFAULT", "sm")
    card = _pick(design.rounded, "lg", "xl", "md")
    space = _pick(design.spacing, "md", "base", "sm")
    pal.radius = radius.css() if radius is not None else pal.radius
    pal.radius_card = card.css() if card is not None else pal.radius_card
    pal.space = space.css() if space is not None else pal.space
    return pal


def _css(p: Palette) -> str:
    return f"""
:root {{ --bg: {p.bg}; --surface: {p.surface}; --text: {p.text}; --muted: {p.muted};
  --primary: {p.primary}; --on-primary: {p.on_primary}; --accent: {p.accent}; --outline: {p.outline};
  --radius: {p.radius}; --radius-card: {p.radius_card}; --space: {p.space}; }}
* {{ box-sizing: border-box; }}
body {{ margin: 0; background: var(--bg); color: var(--text); font: 16px/1.5 {p.font_body}; }}
h1, h2, h3 {{ font-family: {p.font_heading}; line-height: 1.15; margin: 0 0 calc(var(--space) * .75); }}
p {{ margin: 0 0 var(--space); }}
.muted {{ color: var(--muted); }}
.button {{ display: inline-block; padding: calc(var(--space) * .6) calc(var(--space) * 1.25);
  border-radius: var(--radius); background: var(--primary); color: var(--on-primary);
  text-decoration: none; border: 0; font: inherit; font-weight: 600; cursor: pointer; }}
.button.secondary {{ background: transparent; color: var(--text); box-shadow: inset 0 0 0 1px var(--outline); }}
.card {{ background: var(--surface); border: 1px solid var(--outline); border-radius: var(--radius-card);
  padding: calc(var(--space) * 1.25); }}
.pill {{ display: inline-block; padding: 2px 10px; border-radius: 999px; border: 1px solid var(--accent);
  font-size: 13px; font-weight: 600; }}
""".strip()


def _page(title: str, css: str, body: str) -> str:
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>
{css}
</style>
</head>
<body>
{body}
</body>
</html>
"""


def variant_centred(p: Palette) -> str:
    """Variant A: a centred hero with three feature cards below."""
    name = html.escape(p.name)
    extra = """
main { max-width: 960px; margin: 0 auto; padding: calc(var(--space) * 4) var(--space); text-align: center; }
.hero h1 { font-size: clamp(32px, 6vw, 56px); }
.actions { display: flex; gap: var(--space); justify-content: center; flex-wrap: wrap; margin-bottom: calc(var(--space) * 3); }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: var(--space); text-align: left; }
"""
    body = f"""<main>
  <section class="hero">
    <span class="pill">New</span>
    <h1>{name}, all in one calm place</h1>
    <p class="muted">A short promise in one sentence, so the reader knows what they get and why it matters.</p>
    <div class="actions">
      <a class="button" href="#start">Get started</a>
      <a class="button secondary" href="#tour">Take the tour</a>
    </div>
  </section>
  <section class="grid" aria-label="Highlights">
    <div class="card"><h3>Fast to start</h3><p class="muted">Set up in minutes with sensible defaults.</p></div>
    <div class="card"><h3>Made to share</h3><p class="muted">Invite your team and decide together.</p></div>
    <div class="card"><h3>Yours to shape</h3><p class="muted">Every colour and size comes from the design tokens.</p></div>
  </section>
</main>"""
    return _page(f"{p.name}: centred hero", _css(p) + extra, body)


def variant_split(p: Palette) -> str:
    """Variant B: copy on the left, a sign-up card on the right."""
    name = html.escape(p.name)
    extra = """
main { max-width: 1080px; margin: 0 auto; padding: calc(var(--space) * 4) var(--space);
  display: grid; grid-template-columns: 1.2fr 1fr; gap: calc(var(--space) * 3); align-items: center; }
@media (max-width: 720px) { main { grid-template-columns: 1fr; } }
h1 { font-size: clamp(30px, 5vw, 48px); }
ul { padding-left: 1.2em; margin: 0 0 var(--space); }
label { display: block; font-size: 14px; font-weight: 600; margin-bottom: 4px; }
input { width: 100%; padding: calc(var(--space) * .6); border-radius: var(--radius); border: 1px solid var(--outline);
  background: var(--bg); color: var(--text); font: inherit; margin-bottom: var(--space); }
.card .button { width: 100%; }
"""
    body = f"""<main>
  <section>
    <h1>{name}: plan less, make more</h1>
    <p class="muted">Two lines of supporting copy that explain the offer without jargon.</p>
    <ul class="muted">
      <li>Free for small teams</li>
      <li>Works offline</li>
      <li>Cancel any time</li>
    </ul>
  </section>
  <form class="card" aria-label="Sign up" onsubmit="return false">
    <h2>Create your account</h2>
    <label for="email">Work email</label>
    <input id="email" type="email" placeholder="you@example.com" autocomplete="email">
    <label for="team">Team name</label>
    <input id="team" type="text" placeholder="Design crew">
    <button class="button" type="submit">Start free</button>
  </form>
</main>"""
    return _page(f"{p.name}: split sign-up", _css(p) + extra, body)


def board_yaml(p: Palette) -> str:
    """The sample board.yaml (format in docs/boards.md); strings are JSON-quoted, which is valid YAML."""
    brief = json.dumps(f"Which landing hero introduces {p.name} best?", ensure_ascii=False)
    return f"""# A sample review board made by `pinup init`. Edit the variants or add your own,
# then run `pinup build` and `pinup serve` to collect feedback.
title: First board
brief: {brief}
round: 1
device: desktop
variants:
  - id: A
    label: Centred hero
    file: {VARIANT_FILES["A"]}
    description: A centred headline and two buttons, with three feature cards below.
  - id: B
    label: Split sign-up
    file: {VARIANT_FILES["B"]}
    description: Copy and benefits on the left, a sign-up form card on the right.
"""


def plan_files(design_text: str, name: str, *, product: str | None = None) -> dict[str, str]:
    """Relative path -> content for a new workspace.

    `product` is the name the sample copy talks about; brand references pass a
    neutral placeholder so the mock-ups never read as the real brand's pages.
    """
    pal = palette_from_text(design_text, name)
    if product:
        pal.name = product
    board = f"boards/{BOARD_SLUG}"
    return {
        "DESIGN.md": design_text,
        f"{board}/board.yaml": board_yaml(pal),
        f"{board}/{VARIANT_FILES['A']}": variant_centred(pal),
        f"{board}/{VARIANT_FILES['B']}": variant_split(pal),
    }


def write_workspace(
    root: Path, design_text: str, *, name: str, source: str, force: bool = False, product: str | None = None
) -> ScaffoldResult:
    """Write the workspace files; refuse to overwrite anything unless `force`."""
    files = plan_files(design_text, name, product=product)
    targets = {rel: root / rel for rel in files}
    if root.exists() and not root.is_dir():
        raise ScaffoldError(f"{root} exists and is not a directory.")
    existing = [str(path) for path in targets.values() if path.exists()]
    if existing and not force:
        listed = "\n  ".join(existing)
        raise ScaffoldError(f"Refusing to overwrite existing files (use --force):\n  {listed}")
    written: list[Path] = []
    try:
        for rel, content in files.items():
            path = targets[rel]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")
            written.append(path)
    except OSError as exc:
        raise ScaffoldError(f"Cannot write {exc.filename or root}: {exc.strerror or exc}") from exc
    return ScaffoldResult(root=root, files=written, source=source)
