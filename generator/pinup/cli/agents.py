"""`pinup spec` and `pinup mcp`: what coding agents use to write a DESIGN.md and act on feedback.

Both import their feature module inside the command, so `pinup --help` stays light.
"""

from __future__ import annotations

import json

import click


@click.command("spec")
@click.option("--format", "fmt", type=click.Choice(["markdown", "json"]), default="markdown", show_default=True)
@click.option("--rules", "with_rules", is_flag=True, help="Append every lint rule pinup applies, with its severity.")
@click.option("--rules-only", is_flag=True, help="Print only the lint rules.")
def spec(fmt: str, with_rules: bool, rules_only: bool) -> None:
    """Print the DESIGN.md format for an agent that has to write one (generated from the linter)."""
    from pinup.spec import spec_json, spec_text

    if fmt == "json":
        click.echo(json.dumps(spec_json(with_rules=with_rules, rules_only=rules_only), ensure_ascii=False, indent=2))
    else:
        click.echo(spec_text(with_rules=with_rules, rules_only=rules_only), nl=False)
