"""Unit tests on the site's page models, the theme and the output writer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from site_helpers import MINIMAL

from pinup.designmd.lint import lint_text
from pinup.docsite.anchors import lint_target, token_anchor
from pinup.docsite.colors import color_roles, level
from pinup.docsite.components import element_for, group_components
from pinup.docsite.guidance import split_guidance
from pinup.docsite.markdown import render_markdown
from pinup.docsite.models import ColorsPage, ComponentsPage, DownloadsPage, ExtrasPage, LintPage, TypographyPage
from pinup.docsite.pages import build_site_model
from pinup.theme import build_theme, contrast, font_stack, theme_css

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def example():  # type: ignore[no-untyped-def]
    from pinup.designmd.lint import lint_path

    return build_site_model(lint_path(ROOT / "site_src" / "DESIGN.md"))


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


# --- theme ---------------------------------------------------------------------------------


def test_theme_css_has_every_contract_variable() -> None:
    css = theme_css(lint_text(MINIMAL).design)
    for var in (
        "--pinup-bg",
        "--pinup-surface",
        "--pinup-text",
        "--pinup-muted",
        "--pinup-primary",
        "--pinup-on-primary",
        "--pinup-border",
        "--pinup-radius",
        "--pinup-font-body",
        "--pinup-font-heading",
        "--pinup-font-mono",
    ):
        assert f"{var}:" in css
    assert ":root{" in css and "[data-theme=dark]{" in css
    assert "--pinup-primary:#1a73e8" in css
    assert "googleapis" not in css


def test_theme_uses_brand_roles_and_fonts() -> None:
    theme = build_theme(lint_text(MINIMAL).design)
    assert _hex(theme.light.bg) == "#ffffff"
    assert _hex(theme.light.text) == "#202124"
    assert theme.font_body.startswith('"Inter", system-ui')
    assert theme.fallbacks == []


def test_readability_fallback_when_body_text_contrast_is_low() -> None:
    text = MINIMAL.replace('on-background: "#202124"', 'on-background: "#dddddd"')
    theme = build_theme(lint_text(text).design)
    assert theme.fallbacks, "low contrast must be reported"
    for palette in (theme.light, theme.dark):
        assert contrast(palette.text, palette.bg) >= 4.5
        assert contrast(palette.muted, palette.bg) >= 4.5
        assert contrast(palette.link, palette.bg) >= 4.5
        assert contrast(palette.on_primary, palette.primary) >= 4.5


def test_dark_theme_from_dark_tokens_or_derived(example) -> None:  # type: ignore[no-untyped-def]
    theme = example.extra["theme"]
    assert theme.dark_from_tokens
    assert _hex(theme.dark.bg) == "#0f120d"
    derived = build_theme(lint_text(MINIMAL).design)
    assert not derived.dark_from_tokens
    assert sum(derived.dark.bg) < 120 and contrast(derived.dark.text, derived.dark.bg) >= 4.5


def test_font_stack_strips_css_injection() -> None:
    stack = font_stack("Evil;} body{background:url(http://x)} , serif")
    assert ";" not in stack and "{" not in stack and "(" not in stack
    assert stack.endswith("serif")
    assert "googleapis" in theme_css(lint_text(MINIMAL).design, fonts="google")


# --- colors --------------------------------------------------------------------------------


def test_color_swatches_have_every_representation(example) -> None:  # type: ignore[no-untyped-def]
    page = example.page("colors")
    assert isinstance(page, ColorsPage)
    assert [m.key for m in page.modes] == ["light", "dark"]
    primary = next(s for s in page.modes[0].swatches if s.name == "primary")
    assert primary.hex == "#3d5a2a" and primary.rgb == "rgb(61 90 42)"
    assert primary.oklch.startswith("oklch(") and primary.css_var == "var(--color-primary)"
    assert primary.ref == "{colors.primary}" and primary.anchor == "colors-primary"
    assert "call to action" in primary.role
    assert all(s.name.endswith("-dark") or "-dark-" in s.name for s in page.modes[1].swatches)


def test_contrast_matrix_pairs_text_with_surfaces(example) -> None:  # type: ignore[no-untyped-def]
    matrix = example.page("colors").modes[0].matrix
    rows = [s.name for s in matrix.rows]
    cols = [s.name for s in matrix.cols]
    assert "on-primary" in rows and "primary" in cols and "on-primary" not in cols
    cell = matrix.cells[rows.index("on-surface")][cols.index("surface")]
    assert cell.level == "AAA" and cell.ratio > 7
    assert level(4.5) == "AA" and level(3.2) == "AA Large" and level(2.9) == "Fail"


def test_color_roles_from_prose() -> None:
    design = lint_text(MINIMAL).design
    roles = color_roles("- **Primary (#1a73e8):** the call to action.\n- **Background:** paper.", design.colors)
    assert roles["primary"] == "the call to action."
    assert roles["background"] == "paper."
    assert "on-primary" not in roles


# --- typography, components, guidance -----------------------------------------------------------


def test_typography_levels_have_css(example) -> None:  # type: ignore[no-untyped-def]
    page = example.page("typography")
    assert isinstance(page, TypographyPage) and len(page.levels) == 10
    display = page.levels[0]
    assert "font-size:56px" in display.style and "font-weight:600" in display.style
    assert display.css.startswith(".typography-display {")


def test_component_grouping_and_live_styles(example) -> None:  # type: ignore[no-untyped-def]
    groups = group_components(
        [
            "button-primary",
            "button-primary-hover",
            "button-primary-dark",
            "button-primary-dark-hover",
            "badge",
            "badge-info",
            "page-dark",
        ]
    )
    assert groups == {
        "button-primary": [
            "button-primary",
            "button-primary-hover",
            "button-primary-dark",
            "button-primary-dark-hover",
        ],
        "badge": ["badge", "badge-info"],
        "page-dark": ["page-dark"],
    }
    assert element_for("button-primary") == "button" and element_for("input") == "input"
    assert element_for("card") == "div" and element_for("chip") == "span"
    page = example.page("components")
    assert isinstance(page, ComponentsPage)
    button = next(g for g in page.groups if g.name == "button-primary")
    default, hover = button.variants[0], button.variants[1]
    assert "background-color:#3d5a2a" in default.style and "color:#ffffff" in default.style
    assert "border-radius:8px" in default.style
    assert hover.label == "hover" and "background-color:#324a22" in hover.style
    inherited = {r.name for r in hover.props if r.inherited}
    assert "typography" in inherited and "backgroundColor" not in inherited
    raw = {r.name: r.raw for r in default.props}
    assert raw["backgroundColor"] == "{colors.primary}"
    dark = next(v for v in button.variants if v.name == "button-primary-dark")
    assert dark.dark and dark.stage == "#0f120d"


def test_guidance_cards(example) -> None:  # type: ignore[no-untyped-def]
    page = example.page("guidelines")
    assert len(page.dos) == 5 and len(page.donts) == 5
    dos, donts, _ = split_guidance("- Do use pairs.\n- Don't mix.\n- Avoid shadows.\n\n### Don't\n\n- Shout.\n")
    assert dos == ["Do use pairs."] and donts == ["Don't mix.", "Avoid shadows.", "Shout."]


# --- markdown, downloads, lint, extras -----------------------------------------------------------


def test_markdown_escapes_raw_html_unless_allowed() -> None:
    text = "Hello <script>alert(1)</script> [x](javascript:alert(1))"
    safe = render_markdown(text)
    assert "<script>" not in safe and "&lt;script&gt;" in safe and 'href="javascript' not in safe
    assert "<script>alert(1)</script>" in render_markdown(text, allow_html=True)


def test_markdown_headings_in_prose_get_unique_ids_and_tables_still_render() -> None:
    html = render_markdown("### Usage\n\ntext\n\n### Usage\n\n| a | b |\n| - | - |\n| 1 | ~~2~~ |\n")
    assert '<h3 id="h-usage">Usage</h3>' in html and '<h3 id="h-usage-2">Usage</h3>' in html
    assert "<table>" in html and "<s>2</s>" in html
    # a DESIGN.md whose sections use ### headings builds (search links point at those ids)
    site = build_site_model(lint_text(MINIMAL.replace("## Colors\n", "## Colors\n\n### Brand\n\nThe core hues.\n", 1)))
    assert 'id="h-brand"' in site.page("colors").prose_html


def test_downloads_use_the_exporters_and_explain_failures() -> None:
    site = build_site_model(lint_text(MINIMAL))
    page = site.page("downloads")
    assert isinstance(page, DownloadsPage)
    by_name = {f.filename: f for f in page.files}
    assert set(by_name) == {"DESIGN.md", "tokens.json", "tokens.css", "tailwind.config.json", "tailwind.css"}
    tokens = json.loads(by_name["tokens.json"].content)
    assert tokens  # DTCG from pinup.designmd.exporters
    assert b"@theme" in by_name["tailwind.css"].content
    bad = build_site_model(lint_text(MINIMAL.replace("  primary: ", "  brand_primary: ")))
    failing = {f.filename: f for f in bad.page("downloads").files}["tailwind.css"]
    assert failing.content is None and failing.error and "INVALID_TOKEN_NAME" in failing.error


def test_lint_page_links_findings_to_tokens() -> None:
    report = lint_text(MINIMAL.replace("{colors.primary}", "{colors.nope}"))
    site = build_site_model(report)
    page = site.page("lint")
    assert isinstance(page, LintPage) and page.errors == report.summary.errors >= 1
    broken = next(f for f in page.findings if f.severity == "error")
    assert broken.page == "components" and broken.anchor == "component-button-primary"
    assert lint_target("colors.primary") == ("colors", "colors-primary")
    assert lint_target("spacing.sm") == ("layout", "spacing-sm")
    assert lint_target(None) == ("lint", "")
    assert token_anchor("rounded", "Full Round") == "rounded-full-round"


def test_unknown_sections_and_groups_are_kept() -> None:
    text = MINIMAL.replace(
        "---\n\n## Overview",
        'motion:\n  fast: 120ms\n  brand: "#ff0000"\n---\n\n## Voice\n\nWarm and *brief*.\n\n## Overview',
    )
    site = build_site_model(lint_text(text))
    extras = site.page("extras")
    assert isinstance(extras, ExtrasPage)
    assert [s.heading for s in extras.sections] == ["Voice"]
    assert "<em>brief</em>" in extras.sections[0].html
    group = extras.groups[0]
    assert group.name == "motion" and {r.key for r in group.rows} == {"fast", "brand"}
    assert next(r for r in group.rows if r.key == "brand").swatch == "#ff0000"
    assert any(e.page == "extras" for e in site.search)


def test_search_index_covers_tokens_and_prose(example) -> None:  # type: ignore[no-untyped-def]
    kinds = {e.kind for e in example.search}
    assert {"page", "color", "typography", "spacing", "rounded", "component", "prose"} <= kinds
    assert any(e.title == "primary" and e.anchor == "colors-primary" for e in example.search)
    assert any("moss hunters" in e.text for e in example.search)


def test_downloads_carry_the_dark_mode() -> None:
    """The site uses pinup's additions: the mode-aware exports (the CLI needs --modes for them)."""
    from pinup.build import lint_design

    site = build_site_model(lint_design(Path(__file__).resolve().parents[2] / "site_src" / "DESIGN.md"))
    by_name = {f.filename: f for f in site.page("downloads").files}
    css = by_name["tokens.css"].content.decode()
    assert '[data-theme="dark"]' in css and "prefers-color-scheme: dark" in css
    assert '"mode"' in by_name["tokens.json"].content.decode()
    assert b"@theme" in by_name["tailwind.css"].content


def test_models_compare_pickle_and_print_as_dataclasses(example) -> None:  # type: ignore[no-untyped-def]
    """Every page model is a slotted dataclass: it pickles (page keys, the site cache), compares by value
    and prints its fields."""
    import dataclasses
    import pickle
    from typing import Any

    from pinup.docsite import models

    twin = pickle.loads(pickle.dumps(example))
    assert twin == example and twin is not example and not (twin != example)
    colors = next(page for page in twin.pages if isinstance(page, ColorsPage))
    colors.modes[0].swatches[0].hex = "#010203"  # one value three levels down
    assert twin != example
    assert example.pages[0] != "a page" and example.pages[0] != object()
    with pytest.raises(TypeError):
        hash(example.pages[0])
    checked = set()
    seen: list[Any] = [example]
    while seen:  # every model reachable from the example's site model
        obj = seen.pop()
        if isinstance(obj, (list, tuple)):
            seen.extend(obj)
        elif isinstance(obj, dict):
            seen.extend(obj.values())
        elif isinstance(obj, models.Model):
            cls = type(obj)
            assert dataclasses.is_dataclass(cls) and not hasattr(obj, "__dict__"), cls
            values = {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
            shown = ", ".join(f"{name}={value!r}" for name, value in values.items())
            assert repr(obj) == f"{cls.__qualname__}({shown})"
            assert cls(**values) == obj
            checked.add(cls)
            seen.extend(values.values())
    assert len(checked) >= 15
