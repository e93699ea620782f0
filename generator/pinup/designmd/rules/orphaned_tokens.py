"""orphaned-tokens: colours that no component references (directly, by alias or by family)."""

from __future__ import annotations

import re
from functools import lru_cache

from pinup.designmd.builder import Model, RawFinding

_STANDARD_FAMILIES = frozenset({"primary", "secondary", "tertiary", "error", "surface", "background", "outline"})


def _cut_from(name: str, marker: str) -> str:
    r"""`re.sub(marker + r".*\Z", "", name, count=1)` in one pass: `.` stops at a newline, so only a
    marker on the last line can reach the end (the pattern tried every marker before it, each to the end)."""
    at = name.find(marker, name.rfind("\n") + 1)
    return name if at < 0 else name[:at]


@lru_cache(maxsize=4096)  # the same names in every lint of a file (a rebuild lints it again)
def family(name: str) -> str:
    """The colour family: `on-primary-container` -> `primary`, `surface-dim` -> `surface`."""
    name = re.sub(r"^on-", "", name, count=1)
    name = re.sub(r"^inverse-", "", name, count=1)
    name = re.sub(r"^on-", "", name, count=1)
    name = _cut_from(name, "-container")
    name = _cut_from(name, "-fixed")
    name = re.sub(r"-(dim|bright|tint|variant)\Z", "", name, count=1)
    return name


def check(model: Model) -> list[RawFinding]:
    """Only when there are components: warn for each colour that is not referenced, whose family is not
    referenced, and whose family is not a Material standard role."""
    if not model.components:
        return []
    used_ids: set[int] = set()
    for comp in model.components.values():
        for value in comp.properties.values():
            if getattr(value, "type", None) is not None and not isinstance(value, (str, int, float)):
                used_ids.add(id(value))
    referenced = {
        key
        for key, value in model.symbols.items()
        if id(value) in used_ids and not isinstance(value, (str, int, float, bool)) and value is not None
    }
    families = {family(path[7:]) for path in referenced if path.startswith("colors.")}
    findings: list[RawFinding] = []
    for name in model.colors:
        path = f"colors.{name}"
        if path in referenced:
            continue
        base = model.modes.siblings.get(path)  # a `-dark` value of a used token (modes only)
        if base is not None and (base in referenced or family(base[7:]) in families):
            continue
        fam = family(name)
        if fam in families or fam in _STANDARD_FAMILIES:
            continue
        findings.append(RawFinding("warning", path, f"'{name}' is defined but never referenced by any component."))
    return findings
