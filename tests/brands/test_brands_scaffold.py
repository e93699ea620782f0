"""pinup.scaffold: the sample board is built from the DESIGN.md's tokens and never trusts its text."""

from __future__ import annotations

from pathlib import Path

from pinup.scaffold import palette_from_text, plan_files

HOSTILE = """---
name: "<script>alert(1)</script> & Co"
colors:
  primary: "#ffff00"
  on-primary: "#fefefe"
  background: "#101010"
  on-background: "#151515"
typography:
  body:
    fontFamily: "Evil</style><script>x()</script>, serif"
    fontSize: 16px
rounded:
  md: 6px
spacing:
  md: 12px
---

## Overview

Hostile on purpose.
"""


def test_hostile_design_is_escaped_and_made_readable() -> None:
    files = plan_files(HOSTILE, "Fallback")
    for rel, text in files.items():
        if not rel.endswith(".html"):
            continue
        assert "<script" not in text, rel
        assert "</style><" not in text, rel
        assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co" in text, rel
    pal = palette_from_text(HOSTILE, "Fallback")
    # near-black text on a near-black page and white-ish text on yellow are replaced
    assert pal.text in {"#ffffff", "#111111"} and pal.text == "#ffffff"
    assert pal.on_primary == "#111111"
    assert pal.radius == "6px" and pal.space == "12px"
    assert pal.font_body.endswith("serif")


def test_board_yaml_quotes_the_name(tmp_path: Path) -> None:
    from pinup.boards.spec import parse_board_yaml

    files = plan_files(HOSTILE, "Fallback")
    path = tmp_path / "board.yaml"
    path.write_text(files["boards/first-board/board.yaml"], encoding="utf-8")
    spec = parse_board_yaml(path)
    assert spec.brief == "Which landing hero introduces <script>alert(1)</script> & Co best?"


def test_brand_workspaces_use_a_neutral_product_name() -> None:
    text = (Path(__file__).resolve().parents[2] / "brand_refs" / "nike" / "DESIGN.md").read_text(encoding="utf-8")
    files = plan_files(text, "Nike", product="Your product")
    html = files["boards/first-board/variants/a-centred-hero.html"]
    assert "Your product" in html and "<h1>Nike" not in html and "<title>Nike" not in html
    assert "#111111" in html  # Nike's primary


def test_font_stacks_quote_family_names_but_not_keywords() -> None:
    """CSS generic families and the two vendor system-font keywords only work unquoted."""
    text = HOSTILE.replace(
        '"Evil</style><script>x()</script>, serif"',
        "\"-apple-system, BlinkMacSystemFont, Segoe UI, 'Inter', UI-Monospace, fangsong, math, sans-serif\"",
    )
    pal = palette_from_text(text, "Fallback")
    assert pal.font_body == (
        '-apple-system, BlinkMacSystemFont, "Segoe UI", "Inter", UI-Monospace, fangsong, math, sans-serif'
    )
