"""`Rule`, the descriptor every lint rule has: its own module so extended.py need not import the registry."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pinup.designmd.builder import Model, RawFinding

if TYPE_CHECKING:
    from collections.abc import Callable


class Rule:
    """A named check with a default severity; `extended` rules run only with `--extended`.

    A plain class rather than a dataclass: importing dataclasses costs `pinup lint` start-up time.
    """

    __slots__ = ("name", "severity", "description", "check", "extended")

    def __init__(
        self,
        name: str,
        severity: str,
        description: str,
        check: Callable[[Model], list[RawFinding]],
        extended: bool = False,
    ) -> None:
        self.name = name
        self.severity = severity
        self.description = description
        self.check = check
        self.extended = extended

    def __repr__(self) -> str:
        return f"Rule({self.name!r}, {self.severity!r}, extended={self.extended})"
