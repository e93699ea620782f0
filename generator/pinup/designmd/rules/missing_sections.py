"""missing-sections: colours exist but there are no valid spacing / rounded tokens."""

from __future__ import annotations

from pinup.designmd.builder import Model, RawFinding

_FALLBACK = {
    "spacing": "Layout spacing will fall back to agent defaults.",
    "rounded": "Corner rounding will fall back to agent defaults.",
}


def omitted_names(model: Model) -> set[str]:
    """Lower-cased section names listed under `omitted`."""
    return {item["section"].lower() for item in model.omitted or []}


def check(model: Model) -> list[RawFinding]:
    """Info for `spacing` then `rounded` when not omitted, the map is empty and colours exist."""
    omitted = omitted_names(model)
    findings: list[RawFinding] = []
    for name in ("spacing", "rounded"):
        if name in omitted:
            continue
        if not getattr(model, name) and model.colors:
            findings.append(RawFinding("info", name, f"No '{name}' section defined. {_FALLBACK[name]}"))
    return findings
