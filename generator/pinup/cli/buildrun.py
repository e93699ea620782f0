"""`pinup build` and `pinup gallery` without click: the commands' bodies, and a fast path for their plain forms.

A build after a one-token edit takes about 0.13 s of CPU, and importing click is about a
fourteenth of it; an agent that edits and rebuilds in a loop pays it on every step. So, as
for `pinup lint`, `pinup.cli.main` first offers the command line to `fast_build`. It takes
only what it parses exactly as click would (each option of the command once, in its plain
forms, values that cannot be read as options); anything else (help, a typo, a folder that
does not exist for `--templates`, a repeated option) goes to click, which owns the messages.
The click commands in `pinup.cli.build` call the same bodies, and a test checks both know
the same options.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable
    from typing import Any, TypeVar

    T = TypeVar("T")


class CommandError(Exception):
    """A message for the person running the command (shown as click shows its errors: `Error: ...`)."""


FONTS = ("system", "google")

#: option -> (parameter, kind) of each command the fast path takes; kinds: "flag" (no value),
#: "path" (any value), "text", "fonts" (one of FONTS), "folder" (an existing, readable folder),
#: "count" (a whole number >= 0)
OPTIONS: dict[str, dict[str, tuple[str, str]]] = {
    "build": {
        "--out": ("out", "path"),
        "--clean": ("clean", "flag"),
        "--strict": ("strict", "flag"),
        "--allow-html": ("allow_html", "flag"),
        "--fonts": ("fonts", "fonts"),
        "--templates": ("templates", "folder"),
        "--inline": ("inline", "flag"),
        "--api-url": ("api_url", "text"),
        "--results": ("results", "flag"),
        "--store": ("store", "text"),
    },
    "gallery": {
        "--out": ("out", "path"),
        "--clean": ("clean", "flag"),
        "--fonts": ("fonts", "fonts"),
        "--jobs": ("jobs", "count"),
        "-j": ("jobs", "count"),
    },
}
#: the positional argument each command takes at most once
ARGUMENTS: dict[str, str | None] = {"build": "src", "gallery": None}
_COUNT = re.compile(r"[0-9]+\Z")


def fast_build(argv: list[str]) -> None:
    """Run `build` or `gallery` and exit if `argv` is a plain command line of one; else return for click."""
    if not argv or argv[0] not in OPTIONS:
        return
    command = argv[0]
    parsed = parse(command, argv[1:])
    if parsed is None:
        return
    try:
        status = run_build(**parsed) if command == "build" else run_gallery(**parsed)
    except CommandError as exc:
        _echo(f"Error: {exc}")
        sys.exit(1)
    sys.exit(status)


def parse(command: str, args: list[str]) -> dict[str, Any] | None:
    """The command's parameters from `args` (missing ones left out), or None: click must read them."""
    options = OPTIONS[command]
    found: dict[str, Any] = {}
    given: set[str] = set()
    rest = iter(args)
    for arg in rest:
        if not arg.startswith("-") and arg:
            name = ARGUMENTS[command]
            if name is None or name in found:
                return None
            found[name] = Path(arg)
            continue
        option, equals, inline = arg.partition("=")
        spec = options.get(option) if option.startswith("--") or not equals else None
        if spec is None:
            return None  # help, `--`, an unknown or mistyped option, `-j2`
        name, kind = spec
        if name in given:
            return None  # click takes the last one; let it
        given.add(name)
        if kind == "flag":
            if equals:
                return None
            found[name] = True
            continue
        value = inline if equals else next(rest, None)
        if value is None or not value or value.startswith("-"):
            return None
        converted = _convert(kind, value)
        if converted is None:
            return None
        found[name] = converted
    return found


def _convert(kind: str, value: str) -> object | None:
    if kind == "fonts":
        return value if value in FONTS else None
    if kind == "count":
        return int(value) if _COUNT.match(value) else None
    if kind == "folder":
        return Path(value) if os.path.isdir(value) and os.access(value, os.R_OK) else None
    return Path(value) if kind == "path" else value


def _echo(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def with_progress(what: str, run: Callable[..., T]) -> T:
    """`run()`; on a terminal, `run(progress=step)` under a rich progress bar on stderr."""
    if not sys.stderr.isatty():
        return run()
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    with bar:
        task = bar.add_task(f"Building {what}", total=None)

        def step(name: str, done: int, total: int) -> None:
            bar.update(task, completed=done, total=total, description=f"Building {name}")

        return run(progress=step)


def run_build(
    src: Path | None = None,
    out: Path | None = None,
    clean: bool = False,
    strict: bool = False,
    allow_html: bool = False,
    fonts: str = "system",
    templates: Path | None = None,
    inline: bool = False,
    api_url: str | None = None,
    results: bool = False,
    store: str | None = None,
) -> int:
    """`pinup build`: its exit status (1: `--strict` and the DESIGN.md has findings)."""
    from pinup.build import BuildError, BuildOptions, build_all
    from pinup.workspace import WorkspaceNotFound, resolve

    try:
        ws = resolve(src.parent if src is not None and src.is_file() else src, out)
    except WorkspaceNotFound as exc:
        raise CommandError(str(exc)) from None
    src_path = src if src is not None and src.is_file() else ws.src  # SRC may name a DESIGN.md
    options = BuildOptions(
        src=src_path,
        out=ws.out,
        clean=clean,
        strict=strict,
        allow_html=allow_html,
        fonts=fonts,
        templates=templates,
        inline=inline,
        api_url=api_url,
        store=store,
        results=results,
    )
    from pinup.serve.notify import running_server

    server = running_server(ws.out)
    before = server.boards() if server is not None else {}
    try:
        result = with_progress("pages", lambda **progress: build_all(options, **progress))
    except BuildError as exc:
        raise CommandError(str(exc)) from exc
    summary = result.report.summary
    _echo(
        f"Built {len(result.pages)} pages into {_shown(ws.out)}/ in {result.seconds:.2f}s "
        f"({result.written} written, {result.skipped} unchanged, {result.removed} removed); "
        f"lint: {summary.errors} errors, {summary.warnings} warnings"
    )
    if server is not None:
        _echo(server.notify(before))
    if not result.ok:
        _echo(
            f"error: --strict and the DESIGN.md has {summary.errors} errors and {summary.warnings} warnings "
            "(extended checks included)"
        )
        return 1
    return 0


def _shown(path: Path) -> str:
    """The path relative to the current folder when it is below it (shorter messages), else absolute."""
    try:
        return str(path.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def run_gallery(
    out: Path = Path("gallery"),
    clean: bool = False,
    fonts: str = "system",
    jobs: int = 1,
) -> int:
    """`pinup gallery`: a site per bundled brand, and an index linking them all."""
    from pinup.brands import BrandError
    from pinup.build import BuildError
    from pinup.gallery import build_gallery

    try:
        result = with_progress(
            "brands", lambda **progress: build_gallery(out, clean=clean, fonts=fonts, jobs=jobs, **progress)
        )
    except (BrandError, BuildError) as exc:
        raise CommandError(str(exc)) from exc
    _echo(
        f"Built {len(result.brands)} brand sites into {out}/ in {result.seconds:.2f}s "
        f"({result.written} written, {result.skipped} unchanged)"
    )
    return 0
