"""unknown-key: a top-level key that looks like a typo of a schema key (Levenshtein ≤ 2)."""

from __future__ import annotations

from pinup.designmd.builder import Model, RawFinding
from pinup.designmd.dimensions import utf16_len
from pinup.designmd.sections import SCHEMA_KEYS


def _units(text: str) -> list[int]:
    data = text.encode("utf-16-le", "surrogatepass")
    return [int.from_bytes(data[i : i + 2], "little") for i in range(0, len(data), 2)]


def levenshtein(a: str, b: str) -> int:
    """Edit distance in UTF-16 code units, as the reference computes it."""
    ua, ub = _units(a), _units(b)
    previous = list(range(len(ub) + 1))
    for i, ca in enumerate(ua, 1):
        current = [i] + [0] * len(ub)
        for j, cb in enumerate(ub, 1):
            current[j] = previous[j - 1] if ca == cb else 1 + min(previous[j], current[j - 1], previous[j - 1])
        previous = current
    return previous[-1]


def suggestion(key: str) -> str | None:
    """The closest schema key at distance ≤ 2, or None."""
    best: str | None = None
    best_distance = 10**9
    length = utf16_len(key)
    lowered = key.lower()
    for known in SCHEMA_KEYS:
        if abs(length - len(known)) > 2:
            continue
        distance = levenshtein(lowered, known)
        if distance < best_distance:
            best_distance, best = distance, known
    return best if best_distance <= 2 else None


def check(model: Model) -> list[RawFinding]:
    """Warn for each unknown top-level key within edit distance 2 of a schema key (case-insensitive)."""
    findings: list[RawFinding] = []
    for key in model.unknown_keys:
        match = suggestion(key)
        if match is not None:
            findings.append(RawFinding("warning", key, f'Unknown key "{key}" \u2014 did you mean "{match}"?'))
    return findings
