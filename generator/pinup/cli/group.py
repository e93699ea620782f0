"""The click group behind `pinup`: commands are imported on first use (see COMMANDS)."""

from __future__ import annotations

import importlib
from typing import Any

import click

from pinup import __version__
from pinup.cli import COMMANDS, FEEDBACK_COMMANDS


def _load(target: str) -> click.Command:
    module_name, _, attribute = target.partition(":")
    command = getattr(importlib.import_module(module_name), attribute)
    if not isinstance(command, click.Command):
        raise TypeError(f"{target} is not a click command")
    return command


class LazyGroup(click.Group):
    """A click group that imports a subcommand's module only when it is used."""

    def __init__(self, *args: Any, lazy: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
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
