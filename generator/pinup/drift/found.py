"""A hard-coded value found in code, and how it is reported (text, JSON, SARIF, baseline key)."""

from __future__ import annotations

from typing import Any

from pinup.drift.match import rule_of
from pinup.drift.scan import Literal
from pinup.drift.tokens import Match


class Drift:
    """A hard-coded value at a file position and what it matches."""

    __slots__ = ("path", "uri", "literal", "line", "column", "match")

    def __init__(self, path: str, uri: str, literal: Literal, line: int, column: int, found: Match) -> None:
        self.path = path
        self.uri = uri
        self.literal = literal
        self.line = line
        self.column = column
        self.match = found

    @property
    def rule(self) -> str:
        return rule_of(self.literal)

    @property
    def end_column(self) -> int:
        return self.column + len(self.literal.text)

    def message(self) -> str:
        """What it is and what to write instead: `#0b57d0 equals colors.primary: use var(--color-primary) …`."""
        value, found = self.literal.text, self.match
        token = found.token
        if token is None:
            return f"{value} matches no token"
        how = "equals" if found.kind == "equal" else "nearly equals"
        near = f", {_distance(self.literal.kind, found.distance)}" if found.kind == "near" else ""
        names = [f"var({token.css_var})"] if token.css_var else []
        utility = token.utility(self.literal.prop)
        if utility:
            names.append(f"Tailwind {utility}")
        hint = f": use {' or '.join(names)}" if names else ""
        return f"{value} {how} {token.path} ({token.value}{near}){hint}"

    def as_json(self) -> dict[str, Any]:
        token = self.match.token
        out: dict[str, Any] = {
            "file": self.uri,
            "line": self.line,
            "column": self.column,
            "rule": self.rule,
            "value": self.literal.text,
            "property": self.literal.prop,
            "match": self.match.kind,
            "token": token.path if token else None,
            "tokenValue": token.value if token else None,
            "cssVar": token.css_var if token else None,
            "tailwindVar": token.tailwind_var if token else None,
            "tailwindClass": token.utility(self.literal.prop) if token else None,
            "message": self.message(),
        }
        if self.match.kind == "near":
            out["distance"] = round(self.match.distance, 4)
        return out


def _distance(kind: str, distance: float) -> str:
    return f"ΔE {distance:.3f}" if kind == "color" else f"{distance:g}px off"
