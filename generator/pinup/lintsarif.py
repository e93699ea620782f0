"""`pinup lint --format sarif`: lint findings as a SARIF 2.1.0 log for GitHub code scanning.

The rules' help is the description `pinup spec --rules` prints (one registry for both). Findings the
model builder makes (a value that is no colour, a YAML syntax error) carry no rule in the reference's
JSON; here they get the `front-matter` rule so code scanning can group them.
"""

from __future__ import annotations

from typing import Any, TextIO

from pinup import sarif

FRONT_MATTER_RULE = "front-matter"
FRONT_MATTER_HELP = (
    "Front matter values — YAML syntax, colours, dimensions, font weights, duplicate and too deeply nested tokens, "
    "and light/dark mode values."
)


def lint_rules() -> list[dict[str, Any]]:
    """Every rule `pinup lint` can report, as SARIF rule descriptors."""
    from pinup.spec import rules

    described = [sarif.rule_descriptor(FRONT_MATTER_RULE, "error", FRONT_MATTER_HELP)]
    described += [sarif.rule_descriptor(r["name"], r["severity"], r["description"]) for r in rules()]
    return described


def lint_sarif(paths: list[str], *, extended: bool, stdout: TextIO, stderr: TextIO) -> int:
    """Lint every path into one SARIF log; exit status 2 if a file was unreadable, else 1 on errors."""
    from pinup.designmd.lint import ReadError, read_source, run

    rules = lint_rules()
    rule_ids = [r["id"] for r in rules]
    results: list[dict[str, Any]] = []
    unreadable = errors = 0
    for path in paths:
        try:
            text = read_source(path)
        except ReadError as exc:
            stderr.write(f"{exc}\n")
            unreadable += 1
            continue
        uri = "stdin" if path == "-" else sarif.artifact_uri(path)
        for finding in run(text, extended=extended).findings:
            errors += finding.severity == "error"
            rule = finding.rule if finding.rule is not None and finding.rule in rule_ids else FRONT_MATTER_RULE
            message = f"{finding.path}: {finding.message}" if finding.path else finding.message
            # the token path (or, for a finding about the prose, its line) tells two findings of a rule apart
            where = finding.path if finding.path is not None else f"line {finding.line}"
            fingerprint = f"{uri}:{rule}:{where}"
            results.append(
                sarif.result(rule_ids, rule, finding.severity, message, uri, finding.line or 1, fingerprint=fingerprint)
            )
    stdout.write(sarif.dumps(sarif.sarif_log(rules, results)))
    stdout.flush()
    if unreadable:
        return 2
    return 1 if errors else 0
