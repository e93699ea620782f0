"""Lint a DESIGN.md: parse, build the model, run the rules, fill in source lines.

`run()` is the light-weight pipeline the CLI uses; `lint_text()` and `lint_path()`
return the public `LintReport` (`pinup.designmd.model`) every other part of pinup reads.
Malformed input never raises: it becomes findings.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from pinup.designmd.builder import Model, RawFinding, build_model
from pinup.designmd.parser import ParsedDocument, parse_document
from pinup.designmd.result import LintResult as LintResult  # re-exported: callers import it from here

if TYPE_CHECKING:
    from pinup.designmd.model import LintReport, Severity
    from pinup.designmd.rules.base import Rule


class ReadError(Exception):
    """The file cannot be read; `str()` is the one line the CLI prints (exit 2)."""


def line_for(path: str | None, lines: dict[str, int]) -> int | None:
    """The source line of a finding path: the path itself, else its nearest recorded parent."""
    if path is None:
        return None
    probe = path
    while probe:
        if probe in lines:
            return lines[probe]
        if "." not in probe:
            return None
        probe = probe.rsplit(".", 1)[0]
    return None


def run(text: str, *, extended: bool = False, rules: list[Rule] | None = None, modes: bool | None = None) -> LintResult:
    """Lint `text` and return the light-weight result (what the CLI serialises).

    `modes` (default: same as `extended`) reads light/dark values, pinup's extension.
    """
    from pinup.designmd.rules import run_rules, select

    doc = parse_document(text)
    if doc.error is not None:
        model = Model()
        model.sections, model.source_lines, model.body_start = doc.headings, doc.lines, doc.body_start
        finding = RawFinding("warning", None, doc.error.message, None, doc.error.line)
        findings = [finding]
        if extended:
            findings += _run_extended_on_prose(model, doc)
        return LintResult(doc, model, findings, text)
    model, findings = build_model(doc, modes=extended if modes is None else modes)
    model.sections = doc.headings
    model.source_lines, model.body_start = doc.lines, doc.body_start
    active = rules if rules is not None else select(extended=extended)
    findings = findings + run_rules(model, active)
    fallback = doc.first_block_line
    for finding in findings:
        if finding.line is None:
            finding.line = line_for(finding.path, model.lines) or fallback
    return LintResult(doc, model, findings, text)


def _run_extended_on_prose(model: Model, doc: ParsedDocument) -> list[RawFinding]:
    from pinup.designmd.rules import extended_rules, run_rules

    prose_only = [r for r in extended_rules() if r.name in ("duplicate-section",)]
    return run_rules(model, prose_only)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def extended_note(extended_findings: list[RawFinding], included: bool) -> str:
    """The closing line of `--format text`: how many findings pinup's `--extended` checks give.

    Called with the findings of an extended run; the reference's own output has no such line,
    so only the text format (pinup's) carries it.
    """
    from pinup.designmd.rules import extended_rules

    names = {rule.name for rule in extended_rules()}
    extra = [f for f in extended_findings if f.rule in names]
    if included:
        return f"({_plural(len(extra), 'finding')} above from --extended)\n"
    if not extra:
        return "--extended would add no findings\n"
    counts = {"error": 0, "warning": 0, "info": 0}
    for finding in extra:
        counts[finding.severity] += 1
    detail = ", ".join(_plural(n, s) for s, n in counts.items() if n)
    return f"--extended would add {_plural(len(extra), 'finding')} ({detail})\n"


def read_source(path: str | os.PathLike[str]) -> str:
    """Read a DESIGN.md as UTF-8 (BOM kept, as the reference does); `-` reads stdin.

    Raises `ReadError` with the reference's wording when the file can't be read.
    """
    import sys

    if str(path) == "-":
        data = sys.stdin.buffer.read()
        return data.decode("utf-8", errors="replace")
    try:
        with open(path, "rb") as handle:  # not pathlib: it costs `pinup lint` several ms of imports
            data = handle.read()
    except FileNotFoundError:
        raise ReadError(f'Error: "{path}" not found. Create a DESIGN.md file or pass "-" to read from stdin.') from None
    except PermissionError:
        raise ReadError(f'Error: "{path}" could not be read: permission denied.') from None
    except IsADirectoryError:
        raise ReadError(f'Error: "{path}" could not be read: EISDIR: illegal operation on a directory, read') from None
    except OSError as exc:
        raise ReadError(f'Error: "{path}" could not be read: {exc.strerror or exc}') from None
    return data.decode("utf-8", errors="replace")


def to_report(result: LintResult) -> LintReport:
    """The public `LintReport` (`pinup.designmd.model`) for a light-weight result."""
    from typing import cast

    from pinup.designmd.convert import to_design_system
    from pinup.designmd.model import Finding, LintReport, Summary

    findings = [
        Finding(
            severity=cast("Severity", f.severity),  # always one of the three (RawFinding's callers)
            path=f.path,
            message=f.message,
            rule=f.rule,
            line=f.line,
        )
        for f in result.findings
    ]
    counts = result.summary
    return LintReport(
        design=to_design_system(result),
        findings=findings,
        summary=Summary(errors=counts["errors"], warnings=counts["warnings"], infos=counts["infos"]),
    )


def lint_text(text: str, *, extended: bool = False, modes: bool | None = None) -> LintReport:
    """Lint DESIGN.md source text; never raises on malformed input (`modes`: see `run`)."""
    return to_report(run(text, extended=extended, modes=modes))


def lint_path(path: str | os.PathLike[str], *, extended: bool = False, modes: bool | None = None) -> LintReport:
    """Lint a DESIGN.md file (raises `ReadError` only when the file can't be read)."""
    return lint_text(read_source(path), extended=extended, modes=modes)
