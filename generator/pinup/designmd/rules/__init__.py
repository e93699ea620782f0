"""The lint rules, one per module, in the reference's order, plus pinup's `--extended` checks.

Each rule is a plain function `check(model) -> list[RawFinding]`. `RULES` is the
ordered registry; `select()` switches rules on or off by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pinup.designmd.builder import Model, RawFinding
from pinup.designmd.rules import (
    broken_ref,
    contrast_ratio,
    missing_primary,
    missing_sections,
    missing_typography,
    omitted,
    orphaned_tokens,
    section_order,
    token_like_ignored,
    token_summary,
    unknown_key,
)
from pinup.designmd.rules.base import Rule as Rule  # re-exported: the registry's public type

if TYPE_CHECKING:
    from collections.abc import Iterable

#: the reference 0.4.0's 11 rule descriptors, in its order.
RULES: tuple[Rule, ...] = (
    Rule("broken-ref", "error", "Broken/circular references and unknown component sub-tokens.", broken_ref.check),
    Rule(
        "missing-primary",
        "warning",
        "Missing primary color — warns when colors are defined but no 'primary' exists.",
        missing_primary.check,
    ),
    Rule(
        "contrast-ratio",
        "warning",
        "WCAG contrast ratio — warns when component backgroundColor/textColor pairs fall below the AA minimum of 4.5:1.",
        contrast_ratio.check,
    ),
    Rule(
        "orphaned-tokens",
        "warning",
        "Orphaned tokens — tokens defined but never referenced by any component.",
        orphaned_tokens.check,
    ),
    Rule(
        "token-summary",
        "info",
        "Token count summary — emits an info diagnostic summarizing how many tokens are defined.",
        token_summary.check,
    ),
    Rule(
        "missing-sections",
        "info",
        "Missing sections — notes when optional sections (spacing, rounded) are absent.",
        missing_sections.check,
    ),
    Rule(
        "missing-typography",
        "warning",
        "Missing typography — warns when colors are defined but no typography tokens exist.",
        missing_typography.check,
    ),
    Rule(
        "section-order",
        "warning",
        "Section order — warns when sections are out of canonical order.",
        section_order.check,
    ),
    Rule(
        "unknown-key",
        "warning",
        "Unknown key — warns when a top-level YAML key looks like a typo of a known schema key.",
        unknown_key.check,
    ),
    Rule(
        "token-like-ignored",
        "warning",
        "Warns when a top-level YAML key looks like a design-token map but is not part of the recognized "
        "export schema and will be silently ignored.",
        token_like_ignored.check,
    ),
    Rule(
        "omitted-rules",
        "info",
        "Validates omitted sections and alerts on redundant or unknown entries.",
        omitted.check,
    ),
)


def extended_rules() -> tuple[Rule, ...]:
    """pinup's own checks (imported lazily; they never run by default)."""
    from pinup.designmd.rules.extended import EXTENDED_RULES

    return EXTENDED_RULES


def select(
    *, extended: bool = False, enable: Iterable[str] | None = None, disable: Iterable[str] | None = None
) -> list[Rule]:
    """The rules to run: the reference's, plus the extended ones when asked, filtered by name."""
    rules = list(RULES) + (list(extended_rules()) if extended else [])
    if enable is not None:
        wanted = set(enable)
        rules = [r for r in rules if r.name in wanted]
    if disable is not None:
        unwanted = set(disable)
        rules = [r for r in rules if r.name not in unwanted]
    return rules


def run_rules(model: Model, rules: Iterable[Rule]) -> list[RawFinding]:
    """Run rules in order; a finding without its own `rule` gets the rule's name."""
    findings: list[RawFinding] = []
    for rule in rules:
        for finding in rule.check(model):
            if finding.rule is None:
                finding.rule = rule.name
            findings.append(finding)
    return findings
