"""token-summary: an info line counting the tokens the model holds."""

from __future__ import annotations

from pinup.designmd.builder import Model, RawFinding


def _part(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def check(model: Model) -> list[RawFinding]:
    """Info `Design system defines N colors, …` (zero counts left out; nothing when all are zero)."""
    parts = []
    for count, word in (
        (len(model.colors), "color"),
        (len(model.typography), "typography scale"),
        (len(model.rounded), "rounding level"),
        (len(model.spacing), "spacing token"),
        (len(model.components), "component"),
    ):
        if count:
            parts.append(_part(count, word))
    if not parts:
        return []
    return [RawFinding("info", None, f"Design system defines {', '.join(parts)}.")]
