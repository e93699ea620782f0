"""Write the CLI reference (docs/cli.md) from the commands' own `--help`.

Run `python -m pinup.cli.reference > docs/cli.md`; a test fails when the page is stale.
"""

from __future__ import annotations

import click

from pinup.cli import cli

HEADER = """# CLI reference

Generated from each command's `--help` by `python -m pinup.cli.reference > docs/cli.md`;
a test fails when this page and the code disagree.
"""


def _walk(command: click.Command, path: list[str]) -> list[tuple[list[str], click.Command]]:
    found = [(path, command)]
    if isinstance(command, click.Group):
        ctx = click.Context(command, info_name=path[-1])
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                found.extend(_walk(sub, [*path, name]))
    return found


def _help(path: list[str], command: click.Command) -> str:
    """`--help` text as the user sees it (make_context applies each command's context_settings)."""
    parent: click.Context | None = None
    for depth in range(len(path) - 1):
        if depth == 0:
            owner: click.Command | None = cli
        else:
            assert parent is not None and isinstance(parent.command, click.Group)
            owner = parent.command.get_command(parent, path[depth])
        assert owner is not None
        parent = owner.make_context(path[depth], [], parent=parent, resilient_parsing=True)
    ctx = command.make_context(
        path[-1], [], parent=parent, resilient_parsing=True, terminal_width=100, max_content_width=100
    )
    return command.get_help(ctx)


def render() -> str:
    """The whole reference page as Markdown."""
    parts = [HEADER]
    for path, command in _walk(cli, ["pinup"]):
        title = " ".join(path)
        parts.append(f"\n## `{title}`\n\n```text\n{_help(path, command)}\n```\n")
    return "".join(parts)


if __name__ == "__main__":
    print(render(), end="")
