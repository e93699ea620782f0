"""broken-ref: component references that resolve to nothing, and unknown component sub-tokens."""

from __future__ import annotations

from pinup.designmd.builder import Model, RawFinding
from pinup.designmd.sections import COMPONENT_SUB_TOKENS
from pinup.designmd.yamlload import js_string

_VALID = ", ".join(COMPONENT_SUB_TOKENS)


def check(model: Model) -> list[RawFinding]:
    """Error per unresolved `{ref}` in a component (broken, circular or too deep); warning per
    property that is not one of the 8 component sub-tokens."""
    findings: list[RawFinding] = []
    for name, comp in model.components.items():
        for ref in comp.unresolved:
            findings.append(
                RawFinding(
                    "error", f"components.{name}", f"Reference {js_string(ref)} does not resolve to any defined token."
                )
            )
        for prop in comp.properties:
            if prop not in COMPONENT_SUB_TOKENS:
                findings.append(
                    RawFinding(
                        "warning",
                        f"components.{name}.{prop}",
                        f"'{prop}' is not a recognized component sub-token. Valid sub-tokens: {_VALID}.",
                    )
                )
    return findings
