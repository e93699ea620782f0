"""A baseline: the drift a codebase has today, so CI fails only on drift added after it.

Lines move as code is edited, so an entry is (file, rule, value) with how many times it occurs;
a finding is new when its file has more of that value than the baseline recorded (the last
occurrences in the file count as the new ones).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pinup.drift.found import Drift

VERSION = 1


class BaselineError(Exception):
    """The baseline file cannot be read; `str()` says why."""


def _key(drift: Drift) -> tuple[str, str, str]:
    return drift.uri, drift.rule, drift.literal.text


def to_json(drifts: list[Drift]) -> str:
    counts = Counter(_key(d) for d in drifts)
    entries = [
        {"file": file, "rule": rule, "value": value, "count": count}
        for (file, rule, value), count in sorted(counts.items())
    ]
    return json.dumps({"version": VERSION, "drift": entries}, indent=2, ensure_ascii=False) + "\n"


def load(path: str) -> Counter[tuple[str, str, str]]:
    try:
        with open(path, encoding="utf-8") as handle:
            data: Any = json.load(handle)
    except FileNotFoundError:
        raise BaselineError(f'baseline "{path}" not found (write one with --write-baseline {path})') from None
    except OSError as exc:
        raise BaselineError(f'baseline "{path}" could not be read: {exc.strerror or exc}') from None
    except ValueError as exc:  # not JSON, or not UTF-8
        raise BaselineError(f'baseline "{path}" is not a pinup drift baseline: {exc}') from None
    try:
        if data["version"] != VERSION:
            raise ValueError(data["version"])
        return Counter({(e["file"], e["rule"], e["value"]): int(e["count"]) for e in data["drift"]})
    except (KeyError, TypeError, ValueError):
        raise BaselineError(f'baseline "{path}" is not a pinup drift baseline (version {VERSION})') from None


def new_drift(drifts: list[Drift], known: Counter[tuple[str, str, str]]) -> list[Drift]:
    """The drifts the baseline does not account for, in their order."""
    seen: Counter[tuple[str, str, str]] = Counter()
    out: list[Drift] = []
    for drift in drifts:
        key = _key(drift)
        seen[key] += 1
        if seen[key] > known[key]:
            out.append(drift)
    return out
