"""DTCG export driven from DESIGN.md text: aliases, nesting, ratios, and nothing dropped without a word."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from exports_corpus import CORPUS, DTCG_IDS, DTCG_SOURCES

from pinup.designmd.exporters import render_result
from pinup.designmd.lint import lint_text

GROUP = {"colors": "color", "spacing": "spacing", "rounded": "rounded", "typography": "typography"}


def export(text: str) -> tuple[dict, list[str]]:
    result = render_result("dtcg", lint_text(text).design)
    return json.loads(result.text), result.warnings


def test_references_become_aliases() -> None:
    doc, warnings = export((CORPUS / "references.md").read_text(encoding="utf-8"))
    color = doc["color"]
    assert color["primary"]["$value"] == "{color.blue}"
    assert color["link"]["$value"] == "{color.primary}"
    assert color["first"]["$value"] == "{color.second}"
    # Broken, circular and cross-type references never resolve, so they are not tokens at all.
    assert not {"accent", "loop-a", "loop-b", "wrong-type"} & set(color)
    assert doc["spacing"]["inset"]["$value"] == "{rounded.md}"
    assert doc["rounded"]["from-spacing"]["$value"] == "{spacing.sm}"
    assert doc["typography"]["ref-size"]["$value"]["fontSize"] == "{spacing.sm}"
    button = doc["components"]["button"]
    assert button["padding"]["$value"] == "{spacing.gutter}"
    assert button["typography"]["$value"] == "{typography.body}"
    assert any("backgroundColor (unresolved reference {colors.accent})" in w for w in warnings)


def test_line_height_in_px_becomes_a_ratio() -> None:
    text = "---\ntypography:\n  display:\n    fontFamily: Inter\n    fontSize: 72px\n    lineHeight: 90px\n---\n"
    doc, warnings = export(text)
    value = doc["typography"]["display"]["$value"]
    assert value["lineHeight"] == 1.25
    assert value["letterSpacing"] == {"value": 0, "unit": "px"}
    assert warnings == []


def test_dotted_names_nest() -> None:
    doc, _ = export((CORPUS / "dotted.md").read_text(encoding="utf-8"))
    assert set(doc["color"]["brand"]) == {"50", "500", "900"}
    assert set(doc["color"]["neutral"]) == {"100", "900"}
    assert doc["color"]["text"]["$value"] == "{color.brand.900}"
    assert doc["spacing"]["stack"]["2"]["$value"] == {"value": 8, "unit": "px"}


def test_failed_parses_export_only_the_schema() -> None:
    for name in ("empty.md", "no-frontmatter.md", "bad-yaml.md", "crash.md", "empty-frontmatter.md"):
        doc, warnings = export((CORPUS / name).read_text(encoding="utf-8"))
        assert set(doc) == {"$schema"}, name
        assert warnings == []


def placed(doc: dict, group: str, name: str) -> bool:
    node = doc.get(group, {})
    for part in name.split("."):
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return isinstance(node, dict) and "$value" in node


@pytest.mark.parametrize("path", DTCG_SOURCES, ids=DTCG_IDS)
def test_every_token_is_exported_or_reported(path: Path) -> None:
    design = lint_text(path.read_bytes().decode("utf-8", errors="replace")).design  # as `pinup export` reads it
    result = render_result("dtcg", design)
    doc = json.loads(result.text)
    for section, group in GROUP.items():
        for name in getattr(design, section):
            if not placed(doc, group, name):
                assert any(w.startswith(f"{section}.{name}:") for w in result.warnings), f"{section}.{name}"
