"""The `pinup` command line: one click group whose commands load lazily.

Each command lives in the module that owns its feature and is imported only when
that command runs, so `pinup lint` never pays for Starlette, boto3, openai,
Jinja2 or MkDocs.
"""

from __future__ import annotations

import importlib

import click

from pinup import __version__

#: command name -> "module:attribute"; the module is imported on first use.
COMMANDS: dict[str, str] = {
    "lint": "pinup.cli.designmd:lint",
    "export": "pinup.cli.designmd:export",
    "diff": "pinup.cli.designmd:diff",
    "build": "pinup.cli.build:build",
    "gallery": "pinup.cli.build:gallery",
    "brands": "pinup.cli.brands:brands",
    "init": "pinup.cli.brands:init",
    "serve": "pinup.cli.serve:serve",
    "wait": "pinup.cli.serve:wait",
    "feedback": "pinup.cli:feedback_group",
    "results": "pinup.cli.hosted:results",
    "publish": "pinup.cli.hosted:publish",
    "generate": "pinup.cli.generate:generate",
    "spec": "pinup.cli.agents:spec",
    "tweaks": "pinup.cli.tweaks:tweaks",
}

#: subcommands of `pinup feedback`.
FEEDBACK_COMMANDS: dict[str, str] = {
    "list": "pinup.cli.feedback:list_feedback",
    "show": "pinup.cli.feedback:show_feedback",
    "handoff": "pinup.cli.feedback:handoff",
    "pull": "pinup.cli.hosted:pull",
    "items": "pinup.cli.feedback:items",
    "claim": "pinup.cli.feedback:claim",
    "resolve": "pinup.cli.feedback:resolve",
}


def _load(target: str) -> click.Command:
    module_name, _, attribute = target.partition(":")
    command = getattr(importlib.import_module(module_name), attribute)
    if not isinstance(command, click.Command):
        raise TypeError(f"{target} is not a click command")
    return command


class LazyGroup(click.Group):
    """A click group that imports a subcommand's module only when it is used."""

    def __init__(self, *args: object, lazy: dict[str, str], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy:
            return _load(self.lazy[cmd_name])
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pinup")
def cli() -> None:
    """pinup: lint, export and document DESIGN.md design systems, and run review boards."""


@click.group("feedback", cls=LazyGroup, lazy=FEEDBACK_COMMANDS)
def feedback_group() -> None:
    """Read the feedback that reviewers left on boards."""


def main() -> None:
    cli(prog_name="pinup")
