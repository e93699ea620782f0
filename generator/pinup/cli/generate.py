"""`pinup generate`: the next round of a board's variants, from the OpenAI API.

Heavy imports (openai, rich, the runner) happen inside the command so the CLI
stays fast for everything else.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click


@click.command("generate")
@click.argument("board")
@click.option("--brief", help="What the variants answer (default: the board's brief).")
@click.option("--count", type=click.IntRange(1, 26), default=3, show_default=True, help="Variants in the round.")
@click.option("--kind", type=click.Choice(["html", "image"]), default="html", show_default=True)
@click.option("--model", help="Model name (default gpt-4.1-mini for html, gpt-image-1 for image).")
@click.option("--base-url", help="OpenAI-compatible API base URL (default $OPENAI_BASE_URL or OpenAI).")
@click.option("--api-key-env", default="OPENAI_API_KEY", show_default=True, help="Variable that holds the key.")
@click.option("--from-feedback", is_flag=True, help="Build the round from the board's latest feedback.")
@click.option("--src", type=click.Path(file_okay=False, path_type=Path), help="Workspace (default site_src/).")
@click.option("--size", default="1024x1024", show_default=True, help="Image size for --kind image.")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=120.0, show_default=True, help="Seconds per call.")
@click.option("--max-retries", type=click.IntRange(0, 10), default=3, show_default=True, help="Retries on 429/5xx.")
@click.option("--prices", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              help="JSON price table overriding the estimates (also $PINUP_PRICES).")
@click.option("--no-cache", is_flag=True, help="Ignore the response cache (always pay).")
def generate(
    board: str,
    brief: str | None,
    count: int,
    kind: str,
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
    """Generate the next round of variants for BOARD (a slug or a board folder).

    Sends one request at a time, retries 429/5xx, writes boards/<slug>/round-N/ and
    updates board.yaml. Without an API key it exits 2 and writes nothing.
    """
    from pinup.generate.client import ClientOptions, GenerationError, MissingKeyError, resolve_key

    try:
        resolve_key(api_key_env)
    except MissingKeyError as exc:
        click.echo(f"Error: {exc.message}", err=True)
        sys.exit(2)

    from pinup.generate.runner import GenerateOptions

    options = GenerateOptions(
        board=board, src=src, brief=brief, count=count, kind=kind,  # type: ignore[arg-type]
        model=model, size=size, prices_file=prices, use_cache=not no_cache,
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
    click.echo(
        f"round {result.round} of {result.board.slug}: {len(result.variant_ids)} variants in {result.folder}"
    )
    click.echo(
        f"tokens: {usage.input_tokens} input + {usage.output_tokens} output = {usage.total_tokens} ({result.model})"
    )
    if result.paid_usage.total_tokens != usage.total_tokens:
        click.echo(f"paid this run: {result.paid_usage.total_tokens} tokens (the rest came from the cache)")
    click.echo(f"estimated cost: {format_cost(result.cost, result.model)}")


def _latest_feedback(board: str, src: Path | None) -> dict:
    from pinup.generate.feedback_source import latest_feedback
    from pinup.generate.rounds import read_board, resolve_board

    ref = resolve_board(board, src)
    current = read_board(ref)
    return latest_feedback(ref.workspace, ref.slug, int(current.get("round") or 1))


def _run_with_progress(options: object) -> object:
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
        task = bar.add_task("starting", total=options.count, tokens=0)  # type: ignore[attr-defined]

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

        return run_generation(options, on_progress)  # type: ignore[arg-type]
