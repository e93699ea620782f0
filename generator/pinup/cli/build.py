"""`pinup build` and `pinup gallery`: static design-system sites (and boards) from DESIGN.md files.

The commands' bodies are in `pinup.cli.buildrun`, which also runs their plain command lines
without click (see there); these are their click forms: options, help and messages.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pinup.cli.buildrun import FONTS as FONT_CHOICES
from pinup.cli.buildrun import CommandError, run_build, run_gallery

FONTS = click.Choice(list(FONT_CHOICES))


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
) -> None:
    """Build the design-system site (and boards) from the workspace SRC into its output folder.

    With no SRC, the nearest workspace from here up (a folder with a DESIGN.md, its site_src/,
    or the pinup-example/ copy `pinup serve` made). When a `pinup serve` is serving the output,
    it is told, and open boards move to their new round in the same tab.
    """
    try:
        status = run_build(src, out, clean, strict, allow_html, fonts, templates, inline, api_url, results, store)
    except CommandError as exc:
        raise click.ClickException(str(exc)) from exc
    if status:
        sys.exit(status)


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
    try:
        run_gallery(out, clean, fonts, jobs)
    except CommandError as exc:
        raise click.ClickException(str(exc)) from exc
