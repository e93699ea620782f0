"""`pinup lint` without click: the command's body, and a fast path for its plain forms.

click and its imports cost a `pinup lint` process about as much CPU as linting a file does,
so `pinup.cli.main` first offers the command line to `fast_lint`. It takes only what it can
parse exactly as click would (the `lint` command, FILE arguments and its own options, each
option once); anything else (help, a typo, `--`) goes to click, which also owns the messages.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not `typing`'s: importing typing costs `pinup lint` start-up time
if TYPE_CHECKING:
    from typing import NoReturn

LINT_FORMATS = ("json", "markdown", "md", "text")


def fast_lint(argv: list[str]) -> None:
    """Run `lint` and exit if `argv` is a plain lint command line; else return for click."""
    if not argv or argv[0] != "lint":
        return
    files: list[str] = []
    fmt: str | None = None
    extended = recursive = False
    args = iter(argv[1:])
    for arg in args:
        if arg == "-" or not arg.startswith("-"):
            files.append(arg)
        elif arg == "--extended" and not extended:
            extended = True
        elif arg in ("-r", "--recursive") and not recursive:
            recursive = True
        elif (arg == "--format" or arg.startswith("--format=")) and fmt is None:
            value = arg[len("--format=") :] if "=" in arg else next(args, None)
            if value is None or value.lower() not in LINT_FORMATS:
                return
            fmt = value
        else:
            return
    if files:
        lint_files(tuple(files), (fmt or "json").lower(), extended, recursive)


def lint_files(files: tuple[str, ...], fmt: str, extended: bool, recursive: bool) -> NoReturn:
    """One file: the reference's report byte for byte; several (or folders): `designmd.many`."""
    if len(files) == 1 and not (recursive and os.path.isdir(files[0])):
        lint_one(files[0], fmt, extended)
    from pinup.designmd.many import lint_many

    sys.exit(lint_many(expand(files, recursive), fmt, extended=extended, stdout=sys.stdout, stderr=sys.stderr))


def expand(paths: tuple[str, ...], recursive: bool) -> list[str]:
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


def lint_one(file: str, fmt: str, extended: bool) -> NoReturn:
    """The reference's single-file report, byte for byte."""
    from pinup.designmd import report
    from pinup.designmd.lint import ReadError, extended_note, read_source, run

    try:
        text = read_source(file)
    except ReadError as exc:
        sys.stderr.write(f"{exc}\n")
        sys.stderr.flush()
        sys.exit(2)
    result = run(text, extended=extended)
    summary = result.summary
    if fmt == "json":
        output = report.to_json(result.findings, summary)
    elif fmt in ("markdown", "md"):
        output = report.to_markdown(result.findings, summary)
    else:
        name = "<stdin>" if file == "-" else file
        output = report.to_text(result.findings, summary, source_name=name, color=report.use_color(sys.stdout))
        output += extended_note(result.findings if extended else run(text, extended=True).findings, extended)
    sys.stdout.write(output)
    sys.stdout.flush()
    sys.exit(1 if summary["errors"] > 0 else 0)
