"""`pinup lint FILE FILE…` (or folders with --recursive): many DESIGN.md files in one process.

One process pays the interpreter and import start-up once, so linting a thousand files costs
little more than linting one. Each file gets the same findings as a single-file run; the report
wraps them per file:

- json: `{"files": [{"file", "findings", "summary"}, …], "summary": {"files", "errors", …}}`
- text: each file's text report (findings as `file:line: …`, then its counts), then a total
- markdown: each file's report under a `# Lint Report: <file>` heading, then a total

A file that can't be read is reported on stderr (the reference's wording) and counted; the
others are still linted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pinup.designmd import report
from pinup.designmd.lint import ReadError, read_source, run

if TYPE_CHECKING:
    from typing import TextIO

SEVERITIES = ("errors", "warnings", "infos")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def lint_many(paths: list[str], fmt: str, *, extended: bool, stdout: TextIO, stderr: TextIO) -> int:
    """Lint every path, write one report; exit status 2 if a file was unreadable, else 1 on errors."""
    totals = dict.fromkeys(SEVERITIES, 0)
    unreadable = 0
    color = fmt == "text" and report.use_color(stdout)
    entries: list[dict[str, object]] = []
    chunks: list[str] = []
    for path in paths:
        try:
            text = read_source(path)
        except ReadError as exc:
            stderr.write(f"{exc}\n")
            unreadable += 1
            continue
        result = run(text, extended=extended)
        summary = result.summary
        for key in SEVERITIES:
            totals[key] += summary[key]
        name = "<stdin>" if path == "-" else path
        if fmt == "json":
            entries.append(
                {"file": name, "findings": [f.reference_dict() for f in result.findings], "summary": summary}
            )
        elif fmt in ("markdown", "md"):
            body = report.to_markdown(result.findings, summary)
            chunks.append(body.replace("# Lint Report", f"# Lint Report: {report.text_safe(name)}", 1))
        else:
            chunks.append(report.to_text(result.findings, summary, source_name=name, color=color))
    linted = len(paths) - unreadable
    counts = ", ".join(_plural(totals[key], key[:-1]) for key in SEVERITIES)
    total = f"{_plural(linted, 'file')}: {counts}"
    if unreadable:
        total += f"; {_plural(unreadable, 'file')} unreadable"
    if fmt == "json":
        out = report.dumps({"files": entries, "summary": {"files": linted, "unreadable": unreadable, **totals}})
    elif fmt in ("markdown", "md"):
        out = "\n".join(chunks) + ("\n" if chunks else "") + f"**Total: {total}**\n"
    else:
        out = "\n".join(chunks) + ("\n" if chunks else "") + f"Total: {total}\n"
    stdout.write(out)
    stdout.flush()
    if unreadable:
        return 2
    return 1 if totals["errors"] else 0
