"""Sites that look like the brand: cover, ramps, intended contrast pairs, components, dark default."""

from __future__ import annotations

from pathlib import Path

import pytest
from site_helpers import MINIMAL, build, write_workspace

from pinup.designmd.lint import lint_path, lint_text
from pinup.docsite.pages import build_site_model
from pinup.theme import contrast, describes_dark_default

ROOT = Path(__file__).resolve().parents[2]


def _site(slug: str):  # type: ignore[no-untyped-def]
    path = ROOT / ("site_src" if slug == "example" else f"brand_refs/{slug}") / "DESIGN.md"
    return build_site_model(lint_path(path, extended=True))


def test_overview_cover_is_built_from_the_brands_tokens() -> None:
    cover = _site("spotify").page("index").cover
    assert cover.strip[:3] == [("primary", "#1ed760"), ("primary-hover", "#3be477"), ("primary-active", "#1abc54")]
    assert all(not name.startswith("on-") and not name.endswith("-dark") for name, _ in cover.strip)
    assert cover.display_level == "display"
    assert "Spotify Mix UI Title" in cover.display_style and "font-weight:900" in cover.display_style
    assert cover.action_component == "button-primary" and "border-radius:500px" in cover.action_style


def test_colour_families_are_ramps_and_numbered_steps_are_in_order() -> None:
    families = {f.name: [s.name for s in f.swatches] for f in _site("example").page("colors").modes[0].families}
    assert families["primary"][:2] == ["primary", "on-primary"]
    assert "surface-variant" in families["surface"] and "on-surface-variant" in families["surface"]
    grays = '  gray-900: "#111111"\n  gray-100: "#eeeeee"\n  gray-500: "#777777"\n'
    text = MINIMAL.replace('  on-background: "#202124"\n', '  on-background: "#202124"\n' + grays)
    mode = build_site_model(lint_text(text)).page("colors").modes[0]
    ramps = {f.name: [s.name for s in f.swatches] for f in mode.families}
    assert ramps["gray"] == ["gray-100", "gray-500", "gray-900"]


def test_contrast_leads_with_the_intended_pairs() -> None:
    mode = _site("spotify").page("colors").modes[-1]  # light comes second: spotify is dark-first
    assert mode.key == "light"
    pairs = [(p.fg.name, p.bg.name) for p in mode.pairs]
    assert ("on-primary", "primary") in pairs and ("on-background", "background") in pairs
    assert ("on-surface-variant", "surface") in pairs
    assert ("on-primary", "background") not in pairs, "only pairings the DESIGN.md intends"
    assert not any(name == "pink" for name, _ in pairs), "'pink' is not a text colour (it contains 'ink')"
    assert mode.matrix is not None and len(mode.matrix.rows) * len(mode.matrix.cols) > len(pairs)


def test_the_full_matrix_is_folded_below_the_pairs(tmp_path: Path) -> None:
    build(write_workspace(tmp_path / "ws", MINIMAL), tmp_path / "site")
    html = (tmp_path / "site" / "colors.html").read_text()
    assert html.index("Contrast of the intended pairs") < html.index('<details class="pinup-matrix-box">')
    assert html.index('<details class="pinup-matrix-box">') < html.index('<table class="pinup-matrix">')


@pytest.mark.parametrize("slug", ["framer", "linear", "raycast", "spacex", "spotify", "supabase"])
def test_dark_first_brands_open_in_the_dark_theme(slug: str) -> None:
    site = _site(slug)
    assert site.dark_default and site.page("colors").modes[0].key == "dark"


@pytest.mark.parametrize("slug", ["example", "stripe", "airbnb", "cursor", "shopify", "ibm"])
def test_light_brands_open_in_the_light_theme(slug: str) -> None:
    assert not _site(slug).dark_default


def test_dark_default_reads_sentences_not_token_names() -> None:
    light = MINIMAL.replace(
        "Tiny is small.", "Buttons are dark enough for white text; `background-dark` is the default."
    )
    assert not describes_dark_default(lint_text(light).design)
    dark = MINIMAL.replace("Tiny is small.", "Dark mode is the default: a black canvas.")
    assert describes_dark_default(lint_text(dark).design)


def test_components_render_as_what_they_are() -> None:
    site = _site("spotify")
    groups = {g.name: g for g in site.page("components").groups}
    theme = site.extra["theme"]
    # the white secondary button is not shown on the white page
    secondary = groups["button-secondary"].variants[0]
    stage = tuple(int(secondary.stage[i : i + 2], 16) for i in (1, 3, 5))
    assert contrast((255, 255, 255), stage) >= 1.3 and stage != theme.light.bg  # type: ignore[arg-type]
    # inputs are fields: a border from the outline colour, the focus state shows its ring
    inputs = {v.label: v for v in groups["input"].variants}
    assert "border:1px solid #dedede" in inputs["default"].style
    assert "outline:2px solid" in inputs["focus"].style
    # usage prose and a copyable snippet with one rule per state
    assert groups["button-primary"].usage.startswith("primary fill, on-primary text")
    assert groups["button-primary"].html == '<button type="button" class="button-primary">Button primary</button>'
    css = groups["button-primary"].css
    assert ".button-primary {" in css and ".button-primary:hover {" in css and ".button-primary:active {" in css
    assert ".input:focus-visible {" in groups["input"].css


@pytest.mark.browser
def test_a_dark_first_brand_opens_dark_and_the_choice_still_wins(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    build(ROOT / "brand_refs" / "spotify", tmp_path / "site")
    context = browser.new_context(color_scheme="light")
    page = context.new_page()
    page.goto((tmp_path / "site" / "index.html").as_uri())
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(18, 18, 18)"
    assert page.locator("[data-theme-toggle]").get_attribute("aria-pressed") == "true"
    page.locator("[data-theme-toggle]").click()
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
    context.close()
