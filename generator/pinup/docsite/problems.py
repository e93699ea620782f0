"""What is wrong with a DESIGN.md, in the form every page's banner and the lint page need.

A site must never hide a problem: errors, a front matter that could not be read
(YAML problems) and pinup's extended findings (broken references, prose/token
drift, ...) are counted here so each page can raise a visible alert.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from pinup.designmd.model import Finding, LintReport

#: a `# heading` line and what follows its `#`; the trailing `#`s are trimmed in `_heading_text`, since
#: a lazy title before `\s*#*\s*$` retried the rest of the line at every character (cubic in spaces).
_H1 = re.compile(r"^[^\S\n]*+#\s++(.+)", re.M)


@lru_cache(maxsize=1)
def extended_rule_names() -> frozenset[str]:
    """Names of pinup's own rules (the ones `pinup lint --extended` adds, and the site's font check)."""
    from pinup.designmd.rules import extended_rules
    from pinup.docsite.fonts import RULE

    return frozenset(rule.name for rule in extended_rules()) | {RULE}


def is_extended(finding: Finding) -> bool:
    return finding.rule in extended_rule_names()


def is_document_problem(finding: Finding) -> bool:
    """The front matter could not be read (YAML syntax, no YAML, duplicate blocks).

    The linter reports those without a rule or a token path: they concern the whole file.
    """
    return finding.rule is None and finding.path is None


@dataclass(slots=True)
class Problems:
    """Counts for the banner; `alert` says whether every page must show it."""

    errors: int = 0
    warnings: int = 0
    extended: int = 0
    yaml_message: str = ""  # first line of the front-matter problem, "" when it was read
    yaml_line: int | None = None

    @property
    def alert(self) -> bool:
        return bool(self.errors or self.extended or self.yaml_message)


def find_problems(report: LintReport) -> Problems:
    found = Problems(errors=report.summary.errors, warnings=report.summary.warnings)
    for finding in report.findings:
        if is_extended(finding) and finding.severity != "info":
            found.extended += 1
        elif is_document_problem(finding) and not found.yaml_message:
            first = finding.message.strip().splitlines()[0] if finding.message.strip() else "unreadable"
            found.yaml_message = first.rstrip(" :") + "."
            found.yaml_line = finding.line
    return found


def fallback_name(report: LintReport, source_name: str = "DESIGN.md") -> str:
    """A title when the front matter gave no `name`: the document's `# heading`, else the file name."""
    design = report.design
    if design.name:
        return design.name
    match = _H1.search(design.preamble or "")
    if match:
        return _heading_text(match.group(1))
    return source_name


def _heading_text(line: str) -> str:
    """The title of a heading line: without closing `#`s and the spaces around them (one character at least)."""
    return (line.rstrip().rstrip("#").rstrip() or line[:1]).strip()
