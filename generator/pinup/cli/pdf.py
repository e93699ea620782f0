"""`pinup pdf`: print the design-system site (and a board) to one PDF."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.argument("src", required=False, type=click.Path(path_type=Path))
@click.option(
    "--out",
    "out",
    type=click.Path(path_type=Path, dir_okay=False),
    default=Path("design-system.pdf"),
    show_default=True,
    help="The PDF to write.",
)
@click.option("--board", default=None, metavar="SLUG", help="Also print this board and its feedback summary.")
def pdf(src: Path | None, out: Path, board: str | None) -> None:
    """Print the design-system site built from the workspace SRC to one PDF with a table of contents.

    With no SRC, the nearest workspace from here up (a folder with a DESIGN.md, or its site_src/).
    Needs the `pdf` extra (pip install 'pinup[pdf]') and a Chromium (found on PATH, e.g.
    /usr/bin/chromium, or set PINUP_CHROMIUM). Exit status 1 when either is missing.
    """
    from pinup.pdf import PdfError, render_pdf

    if src is None:
        from pinup.workspace import WorkspaceNotFound, resolve

        try:
            src = resolve(None).src
        except WorkspaceNotFound as exc:
            raise click.ClickException(str(exc)) from None
        click.echo(f"Printing the workspace {src}", err=True)
    try:
        result = render_pdf(src, out, board=board)
    except PdfError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"Wrote {result.out} ({result.pages} pages, {len(result.sections)} sections)", err=True)
