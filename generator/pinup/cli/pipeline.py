"""`pinup schema` and `pinup drift`: DESIGN.md where a team works (editors, pre-commit, CI).

Each command imports its feature module inside its body, so `pinup --help` stays light.
"""

from __future__ import annotations

import click


@click.command("schema", context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--draft",
    type=click.Choice(("2020-12", "7")),
    default="2020-12",
    show_default=True,
    help="The JSON Schema dialect: 7 for validators that know no later draft.",
)
def schema(draft: str) -> None:
    """Print a JSON Schema (draft 2020-12) of DESIGN.md front matter, for editors.

    Generated from the definitions the linter uses. Save it and point your editor at it
    (docs/pipeline.md): `pinup schema > design-md.schema.json`.
    """
    from pinup.frontmatter import schema_text

    click.echo(schema_text(draft), nl=False)


@click.command("drift", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", metavar="PATH...", nargs=-1, required=True)
@click.option("--design", metavar="FILE", help="The DESIGN.md to compare with (default: the nearest one above here).")
@click.option("--baseline", "baseline", metavar="FILE", help="Report only drift not recorded in FILE.")
@click.option("--write-baseline", metavar="FILE", help="Record today's drift in FILE and exit 0.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(("text", "json", "sarif"), case_sensitive=False),
    default="text",
    show_default=True,
    help="text for people, json, or sarif (SARIF 2.1.0 for code scanning).",
)
def drift(
    paths: tuple[str, ...], design: str | None, baseline: str | None, write_baseline: str | None, fmt: str
) -> None:
    """Find hard-coded colours, spacing, radii, font sizes and families in code (PATH: files or folders).

    Scans CSS, SCSS, Less, HTML, JS/TS/JSX/TSX, Vue and Svelte files and reports each value with
    the DESIGN.md token it equals or nearly equals (and its CSS variable and Tailwind class), or
    that no token matches. See docs/pipeline.md.

    Exit status: 0 clean, 1 drift (only drift not in --baseline), 2 could not run.
    """
    import sys

    from pinup.drift.run import main

    sys.exit(
        main(
            list(paths),
            design=design,
            baseline_path=baseline,
            write_baseline=write_baseline,
            fmt=fmt.lower(),
            stdout=sys.stdout,
            stderr=sys.stderr,
        )
    )
