"""The lint report page: every finding, linked to the token or section it concerns."""

from __future__ import annotations

from pinup.docsite.anchors import lint_target
from pinup.docsite.models import FindingRow, LintPage
from pinup.docsite.sources import Sources

_ORDER = {"error": 0, "warning": 1, "info": 2}


def build_lint(src: Sources) -> LintPage:
    report = src.report
    rows = []
    for finding in sorted(report.findings, key=lambda f: _ORDER.get(f.severity, 3)):
        page, anchor = lint_target(finding.path)
        rows.append(FindingRow(
            severity=finding.severity,
            path=finding.path or "",
            message=finding.message,
            rule=finding.rule or "",
            line=finding.line,
            page=page,
            anchor=anchor,
        ))
    return LintPage(
        slug="lint",
        title="Lint report",
        template="lint.html",
        findings=rows,
        errors=report.summary.errors,
        warnings=report.summary.warnings,
        infos=report.summary.infos,
    )
