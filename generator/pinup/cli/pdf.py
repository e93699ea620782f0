"""`pinup pdf`: print the design-system site (and a board) to one PDF."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.argument("src", required=False, type=click.Path(path_type=Path), default=Path("site_src"))
@click.option(
    "--out",
    "out",
    type=click.Path(path_type=Path, dir_okay=False),
    default=Path("design-system.pdf"),
    show_default=True,
    help="The PDF to write.",
)
@click.option("--board", default=None, metavar="SLUG", help="Also print this board and its feedback summary.")
def pdf(src: Path, out: Path, board: str | None) -> None:
    """Print the design-system site built from SRC (default: site_src/) to one PDF with a table of contents.

    Needs the `pdf` extra (pip install 'pinup[pdf]') and a Chromium (found on PATH, e.g.
    /usr/bin/chromium, or set PINUP_CHROMIUM). Exit status 1 when either is missing.
    """
    from pinup.pdf import PdfError, render_pdf

    try:
        result = render_pdf(src, out, board=board)
    except PdfError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"Wrote {result.out} ({result.pages} pages, {len(result.sections)} sections)", err=True)
