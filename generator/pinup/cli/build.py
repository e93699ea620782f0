"""`pinup build` and `pinup gallery`: static design-system sites (and boards) from DESIGN.md files."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import click

FONTS = click.Choice(["system", "google"])
T = TypeVar("T")


@click.command()
@click.argument("src", required=False, type=click.Path(path_type=Path))
@click.option(
    "--out",
    "out",
    type=click.Path(path_type=Path),
    default=None,
    help="Output directory (default: the workspace's own: where `pinup serve` serves it, else site/ beside it).",
)
@click.option("--clean", is_flag=True, help="Delete the previous build first (full rebuild).")
@click.option(
    "--strict", is_flag=True, help="Exit 1 when the DESIGN.md has lint errors or warnings (extended checks included)."
)
@click.option("--allow-html", is_flag=True, help="Render raw HTML in the prose (escaped by default).")
@click.option(
    "--fonts",
    type=FONTS,
    default="system",
    show_default=True,
    help="'google' adds Google Fonts links (network at view time); default uses system stacks.",
)
@click.option(
    "--templates",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    default=None,
    help="Directory whose templates (by name) and assets/ override the packaged ones.",
)
@click.option("--inline", is_flag=True, help="Inline board images as data URIs.")
@click.option("--api-url", default=None, help="Feedback endpoint the boards post to.")
@click.option("--results", is_flag=True, help="Also write boards/<slug>/results.html from the feedback store.")
@click.option(
    "--store", default=None, help="Feedback store (path or s3://bucket/prefix) for results pages (implies --results)."
)
@click.option(
    "--endpoint-url", default=None, envvar="AWS_ENDPOINT_URL", help="S3-compatible endpoint for an s3:// --store."
)
def build(
    src: Path | None,
    out: Path | None,
    clean: bool,
    strict: bool,
    allow_html: bool,
    fonts: str,
    templates: Path | None,
    inline: bool,
    api_url: str | None,
    results: bool,
    store: str | None,
    endpoint_url: str | None,
) -> None:
    """Build the design-system site (and boards) from the workspace SRC into its output folder.

    With no SRC, the nearest workspace from here up (a folder with a DESIGN.md, its site_src/,
    or the pinup-example/ copy `pinup serve` made). When a `pinup serve` is serving the output,
    it is told, and open boards move to their new round in the same tab.
    """
    from pinup.build import build_all
    from pinup.buildoptions import BuildError, BuildOptions
    from pinup.serve.notify import running_server
    from pinup.workspace import WorkspaceNotFound, resolve

    named_file = src is not None and src.is_file()  # SRC may name a DESIGN.md
    try:
        ws = resolve(src.parent if src is not None and named_file else src, out)
    except WorkspaceNotFound as exc:
        raise click.ClickException(str(exc)) from None
    options = BuildOptions(
        src=src if src is not None and named_file else ws.src,
        out=ws.out,
        clean=clean,
        strict=strict,
        allow_html=allow_html,
        fonts=fonts,
        templates=templates,
        inline=inline,
        api_url=api_url,
        store=store,
        endpoint_url=endpoint_url,
        results=results,
    )
    server = running_server(ws.out)
    before = server.boards() if server is not None else {}
    try:
        result = _with_progress("pages", lambda **progress: build_all(options, **progress))
    except BuildError as exc:
        raise click.ClickException(str(exc)) from exc
    summary = result.report.summary
    click.echo(
        f"Built {len(result.pages)} pages into {_shown(ws.out)}/ in {result.seconds:.2f}s "
        f"({result.written} written, {result.skipped} unchanged, {result.removed} removed); "
        f"lint: {summary.errors} errors, {summary.warnings} warnings",
        err=True,
    )
    if server is not None:
        click.echo(server.notify(before), err=True)
    if not result.ok:
        click.echo(
            f"error: --strict and the DESIGN.md has {summary.errors} errors and {summary.warnings} warnings "
            "(extended checks included)",
            err=True,
        )
        sys.exit(1)


@click.command()
@click.option(
    "--out",
    "out",
    type=click.Path(path_type=Path),
    default=Path("gallery"),
    show_default=True,
    help="Output directory: one site per brand in <out>/<slug>/ plus an index page.",
)
@click.option("--clean", is_flag=True, help="Delete the previous gallery first.")
@click.option("--fonts", type=FONTS, default="system", show_default=True)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="Worker processes for changed brands (0 = one per CPU).",
)
def gallery(out: Path, clean: bool, fonts: str, jobs: int) -> None:
    """Build a browsable site for every bundled brand design system, with an index linking them all."""
    from pinup.brands import BrandError
    from pinup.buildoptions import BuildError
    from pinup.gallery import build_gallery

    try:
        result = _with_progress(
            "brands", lambda **progress: build_gallery(out, clean=clean, fonts=fonts, jobs=jobs, **progress)
        )
    except (BrandError, BuildError) as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(
        f"Built {len(result.brands)} brand sites into {out}/ in {result.seconds:.2f}s "
        f"({result.written} written, {result.skipped} unchanged)",
        err=True,
    )


def _with_progress(what: str, run: Callable[..., T]) -> T:
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


def _shown(path: Path) -> str:
    """The path relative to the current folder when it is below it (shorter messages), else absolute."""
    try:
        return str(path.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
