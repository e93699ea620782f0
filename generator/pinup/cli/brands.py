"""`pinup brands list|show` and `pinup init`: the built-in brand references."""

from __future__ import annotations

import json
from pathlib import Path

import click

FORMAT = click.Choice(["table", "json"])


def _fail(exc: Exception) -> click.ClickException:
    return click.ClickException(str(exc))


@click.group()
def brands() -> None:
    """Browse the built-in brand design systems (DESIGN.md references)."""


@brands.command("list")
@click.option("--format", "fmt", type=FORMAT, default="table", show_default=True, help="Output format.")
@click.option("--category", default=None, help="Only brands whose category contains this text.")
def list_brands(fmt: str, category: str | None) -> None:
    """List the brands: slug, name, category and a one-line description."""
    from pinup.brands import BrandError, load_manifest

    try:
        items = load_manifest()
    except BrandError as exc:
        raise _fail(exc) from exc
    if category:
        items = [b for b in items if category.lower() in b.category.lower()]
    if fmt == "json":
        click.echo(json.dumps([b.model_dump() for b in items], indent=2, ensure_ascii=False))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{len(items)} brand references", title_justify="left")
    table.add_column("Slug", style="bold", no_wrap=True)
    table.add_column("Name", no_wrap=True)
    table.add_column("Category", no_wrap=True)
    table.add_column("Description")
    for b in items:
        table.add_row(b.slug, b.name, b.category, b.description)
    Console(soft_wrap=False).print(table)


@brands.command("show")
@click.argument("slug")
@click.option("--path", "path_only", is_flag=True, help="Print the DESIGN.md's path instead of its text.")
def show(slug: str, path_only: bool) -> None:
    """Print a brand's DESIGN.md to stdout.

    Copy one into a project with `pinup brands show vercel > DESIGN.md`.
    """
    from pinup.brands import BrandError, brand_design_path

    try:
        path = brand_design_path(slug)
        if path_only:
            click.echo(str(path))
            return
        text = path.read_text(encoding="utf-8")
    except (BrandError, OSError) as exc:
        raise _fail(exc) from exc
    click.echo(text, nl=not text.endswith("\n"))


@click.command()
@click.argument("directory", required=False, type=click.Path(path_type=Path, file_okay=False), default=Path("."))
@click.option(
    "--brand",
    "brand",
    default=None,
    metavar="SLUG",
    help="Start from a brand reference (see `pinup brands list`) instead of the example.",
)
@click.option("--force", is_flag=True, help="Overwrite files that already exist.")
def init(directory: Path, brand: str | None, force: bool) -> None:
    """Scaffold a workspace in DIRECTORY (default: .): DESIGN.md and boards/first-board/."""
    from pinup.brands import BrandError, brand_design_path, example_design_path, get_brand
    from pinup.scaffold import ScaffoldError, write_workspace

    try:
        if brand:
            info = get_brand(brand)
            source_path = brand_design_path(info.slug)
            name, source, product = info.name, f"brand '{info.slug}'", "Your product"
        else:
            source_path = example_design_path()
            name, source, product = "Example", "the example design system", None
        text = source_path.read_text(encoding="utf-8")
        result = write_workspace(directory, text, name=name, source=source, force=force, product=product)
    except (BrandError, ScaffoldError, OSError) as exc:
        raise _fail(exc) from exc
    click.echo(f"Created a workspace in {directory} from {result.source}:")
    for path in result.files:
        click.echo(f"  {path}")
    click.echo(f"Next: pinup lint {directory / 'DESIGN.md'}, then pinup build {directory} && pinup serve {directory}")
