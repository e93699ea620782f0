"""The light-weight result of one lint run, shared by lint (which makes it) and convert (which reads it).

Its own module so that convert.py need not import lint.py, which imports convert.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pinup.designmd.builder import Model, RawFinding
    from pinup.designmd.parser import ParsedDocument


class LintResult:
    """The light-weight result of one lint run (a plain class: dataclasses costs start-up time)."""

    __slots__ = ("doc", "model", "findings", "source")

    def __init__(self, doc: ParsedDocument, model: Model, findings: list[RawFinding], source: str) -> None:
        self.doc = doc
        self.model = model
        self.findings = findings
        self.source = source

    @property
    def summary(self) -> dict[str, int]:
        counts = {"errors": 0, "warnings": 0, "infos": 0}
        for finding in self.findings:
            counts[{"error": "errors", "warning": "warnings", "info": "infos"}[finding.severity]] += 1
        return counts
