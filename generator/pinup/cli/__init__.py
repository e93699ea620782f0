"""The `pinup` command line: one click group whose commands load lazily.

Each command lives in the module that owns its feature and is imported only when
that command runs, so `pinup lint` never pays for Starlette, boto3, openai,
Jinja2 or MkDocs. The click group itself is in `pinup.cli.group`; `cli` and
`feedback_group` are importable from here.
"""

from __future__ import annotations

import sys
from typing import Any

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
    "review": "pinup.cli.review:review",
    "feedback": "pinup.cli:feedback_group",
    "results": "pinup.cli.hosted:results",
    "publish": "pinup.cli.hosted:publish",
    "generate": "pinup.cli.generate:generate",
    "spec": "pinup.cli.agents:spec",
    "mcp": "pinup.cli.agents:mcp",
    "pdf": "pinup.cli.pdf:pdf",
    "tweaks": "pinup.cli.tweaks:tweaks",
    "extract": "pinup.cli.extract:extract",
    "verify": "pinup.cli.verify:verify",
    "schema": "pinup.cli.pipeline:schema",
    "drift": "pinup.cli.pipeline:drift",
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


#: commands that run once and end (not `serve`, `mcp`, `wait` or `generate`, which live on): see `main`
ONE_SHOT = frozenset(
    {"lint", "export", "diff", "build", "gallery", "brands", "init", "feedback", "results", "publish"}
    | {"spec", "pdf", "tweaks", "schema", "drift"}
)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] in ONE_SHOT:
        _without_collector()
    try:
        from pinup.cli.group import cli

        cli(prog_name="pinup")
    finally:
        _exit_without_collecting()


def _without_collector() -> None:
    """Run a one-shot command without the cyclic garbage collector.

    Why: its imports (click, Jinja2, pydantic, markdown-it-py, the page builders) make objects that
    live until the process ends, and the collector's young-generation passes over them during
    start-up found nothing to free: about 27 passes and 6 % of the CPU of a `pinup build` after a
    one-token edit. Reference counting still frees everything else; the build itself already runs
    with the collector paused (`pinup.build.paused_gc`). Commands that live on (`serve`, `mcp`,
    `wait`, `generate`) keep it.
    """
    import gc

    gc.disable()


def _exit_without_collecting() -> None:
    """Leave the heap to the OS instead of the interpreter's last garbage collection.

    Why: at exit Python runs one full collection over everything still alive; after `pinup serve`
    or a build (Jinja, pydantic, Starlette, the rendered site's objects) that took 0.2-0.9 s
    between the command's last line and the process's end on the project's 2-core machine, each
    time a server was stopped. Freezing moves every object out of the collector's reach; the
    memory goes back to the OS with the process. Nothing is lost: every file pinup writes is
    closed (and made durable where it must be) by the code that wrote it, atexit handlers still
    run, and stdout and stderr are still flushed.
    """
    import gc

    gc.freeze()


def __getattr__(name: str) -> Any:
    """`from pinup.cli import cli` (and the group's other names) without importing click early."""
    if name in ("cli", "feedback_group", "LazyGroup"):
        from pinup.cli import group

        return getattr(group, name)
    raise AttributeError(f"module 'pinup.cli' has no attribute {name!r}")
