"""`pinup lint`, `pinup export` and `pinup diff`: drop-in for the reference `design.md` CLI.

Only click and the standard library load at import time; the DESIGN.md toolkit is
imported inside each command so `pinup lint` starts fast.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn

import click

from pinup.designmd.formats import FORMATS as EXPORT_FORMATS
from pinup.designmd.formats import JSON_FORMATS


def _read(path: str) -> str:
    from pinup.designmd.lint import ReadError, read_source

    try:
        return read_source(path)
    except ReadError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)


def _source_name(path: str) -> str:
    return "<stdin>" if path == "-" else path


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("files", metavar="FILE...", nargs=-1, required=True)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(("json", "markdown", "md", "text", "sarif"), case_sensitive=False),
    default="json",
    show_default=True,
    help="json (the reference's shape), markdown/md, text for people, or sarif (SARIF 2.1.0 for code scanning).",
)
@click.option("--extended", is_flag=True, help="Also run pinup's own checks (beyond the reference linter).")
@click.option("-r", "--recursive", is_flag=True, help="Lint every .md file under each folder given.")
def lint(files: tuple[str, ...], fmt: str, extended: bool, recursive: bool) -> None:
    """Lint a DESIGN.md (FILE, or - for stdin), or many in one run.

    One FILE prints exactly what the reference CLI prints. Several FILEs, or folders with
    --recursive, print one report per file and a total (see docs/designmd.md).

    Exit status: 1 when there are errors, 0 otherwise, 2 when a FILE can't be read.
    """
    fmt = fmt.lower()
    if fmt == "sarif":
        from pinup.lintsarif import lint_sarif

        sys.exit(lint_sarif(_expand(files, recursive), extended=extended, stdout=sys.stdout, stderr=sys.stderr))
    if len(files) == 1 and not (recursive and os.path.isdir(files[0])):
        _lint_one(files[0], fmt, extended)
    from pinup.designmd.many import lint_many

    sys.exit(lint_many(_expand(files, recursive), fmt, extended=extended, stdout=sys.stdout, stderr=sys.stderr))


def _expand(paths: tuple[str, ...], recursive: bool) -> list[str]:
    """FILE arguments as files: a folder (with --recursive) becomes its .md files, sorted."""
    out: list[str] = []
    for path in paths:
        if recursive and os.path.isdir(path):
            found = []
            for folder, dirs, names in os.walk(path):
                dirs[:] = [d for d in dirs if not d.startswith(".") and d != "node_modules"]
                found += [os.path.join(folder, n) for n in names if n.endswith(".md") and not n.startswith(".")]
            out += sorted(found)
        else:
            out.append(path)
    return out


def _lint_one(file: str, fmt: str, extended: bool) -> NoReturn:
    """The reference's single-file report, byte for byte."""
    from pinup.designmd import report
    from pinup.designmd.lint import extended_note, run

    text = _read(file)
    result = run(text, extended=extended)
    summary = result.summary
    if fmt == "json":
        output = report.to_json(result.findings, summary)
    elif fmt in ("markdown", "md"):
        output = report.to_markdown(result.findings, summary)
    else:
        output = report.to_text(
            result.findings, summary, source_name=_source_name(file), color=report.use_color(sys.stdout)
        )
        output += extended_note(result.findings if extended else run(text, extended=True).findings, extended)
    sys.stdout.write(output)
    sys.stdout.flush()
    sys.exit(1 if summary["errors"] > 0 else 0)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("file", metavar="FILE")
@click.option(
    "--format",
    "fmt",
    required=True,
    metavar="FORMAT",
    help=f"One of: {', '.join(EXPORT_FORMATS)} (tailwind is json-tailwind).",
)
@click.option("--prefix", default=None, help="Custom-property prefix for css-vars (--prefix ds gives --ds-color-…).")
@click.option(
    "--modes",
    is_flag=True,
    help="Also export light/dark values (`-dark` tokens, {light, dark} values): css-vars and css-tailwind get "
    "[data-theme] and prefers-color-scheme rules (css-vars also typography), dtcg gets $extensions.mode.",
)
def export(file: str, fmt: str, prefix: str | None, modes: bool) -> None:
    """Export the tokens of a DESIGN.md (FILE, or - for stdin) to another format.

    Without --modes the output is the reference CLI's, byte for byte (dtcg is pinup's own).

    Exit status: 0 on success (even when the file has lint errors), 1 for an
    invalid format or a token name the format cannot express, 2 when FILE can't be read.
    """
    import json

    if fmt not in EXPORT_FORMATS:
        message = f'Invalid format "{fmt}". Valid formats: {", ".join(EXPORT_FORMATS)}'
        payload = {"error": "INVALID_FORMAT", "message": message}
        click.echo(json.dumps(payload, ensure_ascii=False, separators=(",", ":")), err=True)
        sys.exit(1)
    text = _read(file)
    from pinup.designmd.exporters import ExportError, render_result
    from pinup.designmd.lint import lint_text

    design = lint_text(text, modes=modes).design
    try:
        result = render_result(fmt, design, prefix=prefix, modes=modes)
    except ExportError as exc:
        from pinup.designmd.report import json_safe

        payload = {"error": exc.code, "message": exc.message}
        click.echo(json_safe(json.dumps(payload, ensure_ascii=False, separators=(",", ":"))), err=True)
        sys.exit(1)
    for note in result.warnings:  # dtcg: values converted, filled in or left out
        click.echo(f"pinup export: {note}", err=True)
    from pinup.designmd.report import json_safe, text_safe

    # lone surrogates (from YAML escapes) as Node prints them: escaped in JSON, U+FFFD elsewhere
    safe = json_safe if fmt in JSON_FORMATS else text_safe
    sys.stdout.write(safe(result.text))
    sys.stdout.flush()


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("before", metavar="BEFORE")
@click.argument("after", metavar="AFTER")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(("json", "markdown", "md"), case_sensitive=False),
    default="json",
    show_default=True,
    help="json (the reference's shape) or markdown/md.",
)
def diff(before: str, after: str, fmt: str) -> None:
    """Compare the tokens and lint summaries of two DESIGN.md files (either may be -).

    Exit status: 1 when AFTER regresses (more errors or warnings), 0 otherwise,
    2 when a file can't be read.
    """
    from pinup.designmd.diff import diff_texts, to_json, to_markdown

    before_text = _read(before)
    after_text = _read(after)
    result = diff_texts(before_text, after_text)
    sys.stdout.write(to_json(result) if fmt.lower() == "json" else to_markdown(result))
    sys.stdout.flush()
    sys.exit(1 if result["regression"] else 0)
