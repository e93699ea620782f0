"""`pinup spec` and `pinup mcp`: what coding agents use to write a DESIGN.md and act on feedback.

Both import their feature module inside the command, so `pinup --help` stays light.
"""

from __future__ import annotations

import json

import click

from pinup.workspace import SRC_HELP


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


@click.command("mcp")
@click.option(
    "--workspace",
    "workspace",
    type=click.Path(file_okay=False, path_type=str),
    help=SRC_HELP,
)
@click.option(
    "--store",
    metavar="DIR|s3://BUCKET/PREFIX",
    help="Feedback store: a folder, or the hosted store s3://bucket/prefix.",
)
@click.option("--endpoint-url", default=None, envvar="AWS_ENDPOINT_URL", help="S3-compatible endpoint for s3://.")
def mcp(workspace: str | None, store: str | None, endpoint_url: str | None) -> None:
    """Run a Model Context Protocol server over stdio for coding agents (see docs/agents.md).

    Tools: list_boards, get_feedback, wait_for_feedback, list_items, claim_item, resolve_item,
    handoff, reload_board, spec, drift.
    """
    from pinup.mcp_server import run

    try:
        run(workspace, store, endpoint_url)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
