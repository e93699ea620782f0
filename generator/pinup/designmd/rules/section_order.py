"""section-order: the first pair of canonical `##` sections that is out of the spec's order."""

from __future__ import annotations

from pinup.designmd.builder import Model, RawFinding
from pinup.designmd.sections import CANONICAL_ORDER, ORDER_INDEX, resolve_alias

_EXPECTED = ", ".join(CANONICAL_ORDER)


def check(model: Model) -> list[RawFinding]:
    """Warn once (no path) at the first adjacent pair of known sections whose order decreases."""
    known = [(resolve_alias(h.text), h.line) for h in model.sections]
    known = [(name, line) for name, line in known if name in ORDER_INDEX]
    for (current, _), (following, line) in zip(known, known[1:], strict=False):
        if ORDER_INDEX[current] > ORDER_INDEX[following]:
            return [
                RawFinding(
                    "warning",
                    None,
                    f"Section '{current}' appears before '{following}', which is out of order. Expected order: {_EXPECTED}",
                    line=line,
                )
            ]
    return []
