"""omitted-rules: checks the `omitted` list (unknown, redundant and declared omissions)."""

from __future__ import annotations

from pinup.designmd.builder import Model, RawFinding

_VALID = ("colors", "typography", "spacing", "rounded", "components")


def check(model: Model) -> list[RawFinding]:
    """Per `omitted` item: warning `unknown-omission` for a name that is not a token section, warning
    `redundant-omission` when that section has tokens, else info `declared-omission`."""
    findings: list[RawFinding] = []
    for item in model.omitted or []:
        section = item["section"]
        lc = section.lower()
        if lc not in _VALID:
            findings.append(
                RawFinding("warning", "omitted", f"unknown section name '{section}' in omitted key", "unknown-omission")
            )
        elif getattr(model, lc):
            findings.append(
                RawFinding(
                    "warning",
                    "omitted",
                    f"{lc} listed in omitted but {lc} tokens are defined \u2014 omitted declaration has no effect",
                    "redundant-omission",
                )
            )
        else:
            findings.append(
                RawFinding(
                    "info",
                    f"omitted.{lc}",
                    f"{lc} intentionally omitted \u2014 no {lc} tokens will be validated",
                    "declared-omission",
                )
            )
    return findings
