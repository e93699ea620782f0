"""The lint report page: every finding, linked to the token or section it concerns.

pinup's extended findings are always listed, in their own table beside the
reference linter's, so a site never hides a broken reference or prose drift.
"""

from __future__ import annotations

from pinup.docsite.anchors import lint_target
from pinup.docsite.models import FindingRow, LintPage
from pinup.docsite.problems import is_extended
from pinup.docsite.sources import Sources

_ORDER = {"error": 0, "warning": 1, "info": 2}


def build_lint(src: Sources) -> LintPage:
    report = src.report
    reference: list[FindingRow] = []
    extended: list[FindingRow] = []
    for finding in sorted(report.findings, key=lambda f: _ORDER.get(f.severity, 3)):
        page, anchor = lint_target(finding.path)
        (extended if is_extended(finding) else reference).append(
            FindingRow(
                severity=finding.severity,
                path=finding.path or "",
                message=finding.message,
                rule=finding.rule or "",
                line=finding.line,
                page=page,
                anchor=anchor,
            )
        )
    return LintPage(
        slug="lint",
        title="Lint report",
        template="lint.html",
        findings=reference,
        extended=extended,
        errors=report.summary.errors,
        warnings=report.summary.warnings,
        infos=report.summary.infos,
    )
