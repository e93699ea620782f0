"""`pinup generate`: the next round of a board's variants, from the OpenAI API.

Heavy imports (openai, rich, the runner) happen inside the command so the CLI
stays fast for everything else.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import click

from pinup.workspace import NEAREST_WORKSPACE

if TYPE_CHECKING:  # pragma: no cover
    from pinup.generate.runner import GenerateOptions, RoundResult


def _check_size(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    """`auto` or WIDTHxHEIGHT; the server decides which sizes its model supports."""
    if value == "auto" or re.fullmatch(r"[1-9][0-9]{1,4}x[1-9][0-9]{1,4}", value):
        return value
    raise click.BadParameter(f"{value!r} is not WIDTHxHEIGHT (e.g. 1024x1024, 1536x1024, 1024x1536) or auto")


@click.command("generate")
@click.argument("board")
@click.option("--brief", metavar="TEXT", help="The question the variants answer (default: the board's brief:).")
@click.option("--count", type=click.IntRange(1, 26), default=3, show_default=True, help="Variants in the round.")
@click.option(
    "--kind",
    type=click.Choice(["html", "image"]),
    default="html",
    show_default=True,
    help="html: self-contained pages (chat API); image: PNG mockups (images API).",
)
@click.option("--model", metavar="NAME", help="Model (default: gpt-4.1-mini for html, gpt-image-1 for image).")
@click.option(
    "--base-url",
    metavar="URL",
    help="OpenAI-compatible API, e.g. http://127.0.0.1:11434/v1 for Ollama (default: $OPENAI_BASE_URL, else OpenAI).",
)
@click.option(
    "--api-key-env",
    metavar="NAME",
    default="OPENAI_API_KEY",
    show_default=True,
    help="Environment variable that holds the API key (the key is never an argument).",
)
@click.option(
    "--from-feedback",
    is_flag=True,
    help="Build the round from the board's latest feedback (different, more like, remix or a request).",
)
@click.option(
    "--src",
    metavar="DIR",
    type=click.Path(file_okay=False, path_type=Path),
    help=f"Workspace holding DESIGN.md and boards/ (default: {NEAREST_WORKSPACE}).",
)
@click.option(
    "--size",
    default="1024x1024",
    show_default=True,
    callback=_check_size,
    help="Image size for --kind image: WIDTHxHEIGHT or auto.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0.1),
    default=120.0,
    show_default=True,
    help="Seconds allowed for each API call.",
)
@click.option(
    "--max-retries",
    type=click.IntRange(0, 10),
    default=3,
    show_default=True,
    help="Retries of a call on 429, 5xx, timeout or connection error.",
)
@click.option(
    "--prices",
    metavar="FILE",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    help="JSON price table for the cost estimate (also $PINUP_PRICES).",
)
@click.option("--no-cache", is_flag=True, help="Always call the API, even for a request answered before.")
def generate(
    board: str,
    brief: str | None,
    count: int,
    kind: Literal["html", "image"],  # click.Choice above allows nothing else
    model: str | None,
    base_url: str | None,
    api_key_env: str,
    from_feedback: bool,
    src: Path | None,
    size: str,
    timeout: float,
    max_retries: int,
    prices: Path | None,
    no_cache: bool,
) -> None:
    """Generate the next round of variants for BOARD with the OpenAI API.

    BOARD is a board's slug in the workspace (a new slug starts a new board)
    or the path of a board folder holding board.yaml. The variants follow
    the workspace's DESIGN.md; requests go one at a time, 429/5xx are
    retried, and the round is written to boards/<slug>/round-N/ with
    board.yaml updated (earlier rounds are kept). Token usage and an
    estimated cost are printed and stored in round-N/meta.json.

    Exit status: 0 done, 1 error (nothing written), 2 no API key (nothing
    written) or bad usage.

    \b
    Examples:
      pinup generate trail-home --brief "Which home screen logs a sighting fastest?"
      pinup generate trail-home --from-feedback
      pinup generate badge --kind image --size 1536x1024
      pinup generate trail-home --base-url http://127.0.0.1:11434/v1 --model llama3.1
    """
    from pinup.generate.client import ClientOptions, GenerationError, MissingKeyError, resolve_key

    try:
        resolve_key(api_key_env)
    except MissingKeyError as exc:
        click.echo(f"Error: {exc.message}", err=True)
        sys.exit(2)

    from pinup.generate.runner import GenerateOptions

    options = GenerateOptions(
        board=board,
        src=src,
        brief=brief,
        count=count,
        kind=kind,
        model=model,
        size=size,
        prices_file=prices,
        use_cache=not no_cache,
        client=ClientOptions(api_key_env=api_key_env, base_url=base_url, timeout=timeout, max_retries=max_retries),
    )
    try:
        if from_feedback:
            options.feedback = _latest_feedback(board, src)
        result = _run_with_progress(options)
    except GenerationError as exc:
        raise click.ClickException(exc.message) from None
    except OSError as exc:
        raise click.ClickException(f"cannot write the round: {exc}") from None

    from pinup.generate.cost import format_cost

    usage = result.usage
    click.echo(f"round {result.round} of {result.board.slug}: {len(result.variant_ids)} variants in {result.folder}")
    click.echo(
        f"tokens: {usage.input_tokens} input + {usage.output_tokens} output = {usage.total_tokens} ({result.model})"
    )
    if result.paid_usage.total_tokens != usage.total_tokens:
        click.echo(
            f"paid this run: {result.paid_usage.total_tokens} tokens, {format_cost(result.paid_cost, result.model)} "
            "(the rest came from the cache)"
        )
    click.echo(f"estimated cost: {format_cost(result.cost, result.model)}")


def _latest_feedback(board: str, src: Path | None) -> dict[str, Any]:
    from pinup.generate.feedback_source import check_unused, latest_feedback
    from pinup.generate.rounds import read_board, resolve_board

    ref = resolve_board(board, src)
    current_round = int(read_board(ref).get("round") or 1)
    record = latest_feedback(ref.workspace, ref.slug, current_round)
    check_unused(record, ref.folder, current_round)
    return record


def _run_with_progress(options: GenerateOptions) -> RoundResult:
    """Run the generation with a rich progress bar on stderr."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from pinup.generate.runner import ProgressEvent, run_generation

    console = Console(stderr=True)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[tokens]} tokens"),
    )
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task("starting", total=options.count, tokens=0)

        def on_progress(event: ProgressEvent) -> None:
            bar.update(task, total=event.n, tokens=event.usage.total_tokens)
            if event.stage == "variant":
                bar.update(task, description=event.message)
            elif event.stage == "variant_done":
                bar.update(task, completed=event.k)
            elif event.stage in ("retry", "invalid"):
                console.print(f"[yellow]{event.message}")
            elif event.stage == "done":
                bar.update(task, description=event.message)

        return run_generation(options, on_progress)
