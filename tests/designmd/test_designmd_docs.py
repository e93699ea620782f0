"""Every lint rule (and every `rule` value a finding can carry) is documented in docs/designmd.md."""

from __future__ import annotations

from helpers_designmd import ROOT

from pinup.designmd.rules import RULES, extended_rules

SUB_RULES = ("unknown-omission", "redundant-omission", "declared-omission")


def test_every_rule_is_documented() -> None:
    text = (ROOT / "docs" / "designmd.md").read_text(encoding="utf-8")
    names = [r.name for r in RULES] + [r.name for r in extended_rules()] + list(SUB_RULES)
    missing = [name for name in names if f"`{name}`" not in text]
    assert missing == [], f"undocumented rules: {missing}"


def test_rules_have_docstrings_and_registry_order() -> None:
    assert [r.name for r in RULES] == [
        "broken-ref",
        "missing-primary",
        "contrast-ratio",
        "orphaned-tokens",
        "token-summary",
        "missing-sections",
        "missing-typography",
        "section-order",
        "unknown-key",
        "token-like-ignored",
        "omitted-rules",
    ]
    for rule in (*RULES, *extended_rules()):
        assert rule.check.__doc__, rule.name
        assert rule.extended == (rule in extended_rules())


def test_rules_can_be_switched_off() -> None:
    from pinup.designmd.lint import run
    from pinup.designmd.rules import select

    text = "---\ncolors:\n  accent: '#000'\n---\n"
    everything = {f.rule for f in run(text).findings}
    assert "missing-primary" in everything
    fewer = {f.rule for f in run(text, rules=select(disable=["missing-primary"])).findings}
    assert fewer == everything - {"missing-primary"}
    only = {f.rule for f in run(text, rules=select(enable=["token-summary"])).findings}
    assert only == {"token-summary"}
