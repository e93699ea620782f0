"""interactive-states: interactive components declared without hover, focus or disabled states."""

from __future__ import annotations

from pinup.designmd.builder import Model, RawFinding

#: words in a component's name that make it interactive
_INTERACTIVE = frozenset(
    "button btn link input field textarea select dropdown checkbox radio switch toggle tab chip slider menu-item".split()
)
#: state -> the suffixes a component for that state may have
_STATES = {
    "hover": ("hover",),
    "focus": ("focus", "focus-visible", "focused"),
    "disabled": ("disabled",),
}
_STATE_SUFFIXES = frozenset(
    {s for suffixes in _STATES.values() for s in suffixes}
    | {"active", "pressed", "selected", "checked", "error", "dark"}
)


def _is_interactive(name: str) -> bool:
    words = name.split("-")
    return any(w in _INTERACTIVE for w in words) or "menu-item" in name


def _listed(items: list[str], last: str) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {last} {items[-1]}"


def check(model: Model) -> list[RawFinding]:
    """An interactive component (a name with button, link, input, select, checkbox, switch, tab, chip, …)
    with no `<name>-hover`, `<name>-focus` (or `-focus-visible`, `-focused`) or `<name>-disabled`
    component, in a DESIGN.md that designs states as such components (it has at least one): the states
    users need to see are not designed yet for this one."""
    findings: list[RawFinding] = []
    names = set(model.components)
    if not any(name.rsplit("-", 1)[-1] in _STATE_SUFFIXES - {"dark", "error"} for name in names):
        return findings  # states are not modelled as components here: nothing to compare with
    for name in model.components:
        if name.rsplit("-", 1)[-1] in _STATE_SUFFIXES or "-focus-" in f"{name}-" or not _is_interactive(name):
            continue
        missing = [state for state, suffixes in _STATES.items() if not any(f"{name}-{s}" in names for s in suffixes)]
        if not missing:
            continue
        wanted = _listed([f"components.{name}-{state}" for state in missing], "and")
        findings.append(
            RawFinding(
                "info",
                f"components.{name}",
                f"'{name}' is interactive but has no {_listed(missing, 'or')} state; add {wanted} "
                "with the colours it takes then.",
            )
        )
    return findings
