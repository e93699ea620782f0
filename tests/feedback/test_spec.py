"""`pinup spec`: generated from the parser's constants and the rule registry, so it cannot drift."""

from __future__ import annotations

import json

from click.testing import CliRunner
from package_helpers import example_sections

from pinup.cli import cli
from pinup.designmd.lint import lint_text
from pinup.designmd.rules import RULES, extended_rules
from pinup.designmd.sections import ALIASES, CANONICAL_ORDER, COMPONENT_SUB_TOKENS, SCHEMA_KEYS, TYPOGRAPHY_PROPERTIES
from pinup.spec import EXAMPLE, KEY_NOTES, spec_markdown


def invoke(*args: str) -> str:
    r = CliRunner().invoke(cli, ["spec", *args], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    return r.output


def test_every_rule_is_listed_with_its_severity() -> None:
    registry = [(r.name, r.severity, r.extended) for r in (*RULES, *extended_rules())]
    listed = json.loads(invoke("--rules-only", "--format", "json"))["rules"]
    assert [(r["name"], r["severity"], r["extended"]) for r in listed] == registry
    assert len(listed) >= 17 and all(r["description"] for r in listed)
    assert {"mode-value", "mode-contrast"} <= {r["name"] for r in listed}
    table = invoke("--rules-only")
    for name, severity, extended in registry:
        assert f"| `{name}` | {severity} | `pinup lint{' --extended' if extended else ''}` |" in table


def test_markdown_and_json_carry_the_same_spec() -> None:
    md = invoke()
    assert md == spec_markdown() and "## Lint rules" not in md
    data = json.loads(invoke("--format", "json", "--rules"))
    assert data["spec"] == spec_markdown() and len(data["rules"]) == len(RULES) + len(extended_rules())
    assert "## Lint rules" in invoke("--rules")


def test_the_spec_names_every_key_section_property_and_sub_token() -> None:
    md = spec_markdown()
    assert set(KEY_NOTES) == set(SCHEMA_KEYS)
    for word in (*SCHEMA_KEYS, *TYPOGRAPHY_PROPERTIES, *COMPONENT_SUB_TOKENS):
        assert f"`{word}`" in md
    for name in (*CANONICAL_ORDER, *ALIASES):
        assert f"`## {name}`" in md


def test_the_example_lints_clean_and_uses_every_section() -> None:
    report = lint_text(EXAMPLE, extended=True)
    assert [f.rule for f in report.findings] == ["token-summary"]
    assert example_sections() == list(CANONICAL_ORDER)
    typography = report.design.typography["body-md"]
    assert typography.lineHeight is not None and typography.fontSize is not None
