"""`Rule`, the descriptor every lint rule has: its own module so extended.py need not import the registry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pinup.designmd.builder import Model, RawFinding


@dataclass(frozen=True)
class Rule:
    """A named check with a default severity; `extended` rules run only with `--extended`."""

    name: str
    severity: str
    description: str
    check: Callable[[Model], list[RawFinding]]
    extended: bool = False
