"""`pinup serve` and `pinup wait`: the local review loop for people and agents."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

#: options `pinup serve` shares with `pinup review`, which runs the same session
out_option = click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=str),
    help="Built site folder (default: the one this workspace was served from, else site/ beside SRC).",
)
no_open_option = click.option("--no-open", is_flag=True, help="Do not open a browser; print the URL instead.")
exit_on_submit_option = click.option(
    "--exit-on-submit", is_flag=True, help="Agent mode: exit 0 after the final submit."
)


def _workspace(src: str | None, out: str | None, *, must_exist: bool = True) -> Any:
    from pinup.workspace import WorkspaceNotFound, resolve

    try:
        return resolve(src, out, must_exist=must_exist, create_example=must_exist)
    except WorkspaceNotFound as exc:
        raise click.ClickException(str(exc)) from None


def _generate_hook(
    ws: Any,
    cache: Any,
    *,
    model: str | None = None,
    count: int | None = None,
    base_url: str | None = None,
    api_key_env: str = "OPENAI_API_KEY",
) -> Any:
    """The on_regenerate hook of `pinup serve --generate` (imported only then)."""
    from pinup.generate.client import MissingKeyError, resolve_key
    from pinup.generate.serve_hook import make_on_regenerate
    from pinup.serve.workspace import build

    try:
        resolve_key(api_key_env)
    except MissingKeyError as exc:  # say it now, not on the first regenerate
        click.echo(f"Error: --generate: {exc.message}", err=True)
        sys.exit(2)
    extra: dict[str, Any] = {"api_key_env": api_key_env}
    if model:
        extra["model"] = model
    if count:
        extra["count"] = count
    if base_url:
        extra["base_url"] = base_url
    return make_on_regenerate(ws.src, ws.out, rebuild=lambda: build(ws, cache), **extra)


@click.command()
@click.argument("src", required=False, type=click.Path(file_okay=False, path_type=str))
@click.option("--board", metavar="SLUG", help="Open this board and report only its submits.")
@click.option(
    "--port",
    type=int,
    default=0,
    show_default=True,
    help="0: the port this workspace used last time if free, else a free one.",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to bind (loopback by default).")
@out_option
@no_open_option
@click.option(
    "--timeout",
    type=float,
    default=600,
    show_default=True,
    help="Exit 1 when no final feedback arrives within this many seconds (0: never).",
)
@exit_on_submit_option
@click.option("--generate", is_flag=True, help="Run the next round with `pinup generate` when a reviewer asks.")
@click.option("--rebuild", is_flag=True, help="Build even when the site looks up to date.")
@click.option("--no-watch", is_flag=True, help="Do not rebuild and live-reload after workspace edits.")
@click.option("--model", help="With --generate: the model (default: $PINUP_GENERATE_MODEL or pinup generate's).")
@click.option("--count", type=click.IntRange(1, 26), help="With --generate: variants per round (default 3).")
@click.option("--base-url", help="With --generate: an OpenAI-compatible endpoint (default: $OPENAI_BASE_URL).")
@click.option(
    "--api-key-env",
    default="OPENAI_API_KEY",
    show_default=True,
    help="With --generate: the environment variable that holds the API key.",
)
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="HOST",
    help="Also answer to this Host (NAME or NAME:PORT, repeatable); else only 127.0.0.1, localhost, [::1].",
)
@click.option(
    "--webhook",
    "webhooks",
    multiple=True,
    metavar="URL",
    help="POST a JSON event to URL on each submission and item change (repeatable; http(s) only).",
)
@click.option("--webhook-secret", envvar="PINUP_WEBHOOK_SECRET", help="Sign events: X-Pinup-Signature: sha256=HMAC.")
@click.option(
    "--webhook-format",
    type=click.Choice(["json", "slack"]),
    default="json",
    show_default=True,
    help="slack: a Slack incoming-webhook message instead of the JSON event.",
)
def serve(
    src: str | None,
    board: str | None,
    port: int,
    host: str,
    out: str | None,
    no_open: bool,
    timeout: float,
    exit_on_submit: bool,
    generate: bool,
    rebuild: bool,
    no_watch: bool,
    model: str | None,
    count: int | None,
    base_url: str | None,
    api_key_env: str,
    allow_hosts: tuple[str, ...],
    webhooks: tuple[str, ...],
    webhook_secret: str | None,
    webhook_format: str,
) -> None:
    """Build (if needed) and serve the site and its review boards, collecting feedback.

    SRC is a workspace folder (DESIGN.md + boards/); with none, the nearest workspace from here
    up, else a copy of the bundled example in ./pinup-example/. Edits to the workspace are rebuilt
    and open pages reload (--no-watch turns that off). A restart reuses the workspace's last port
    when it is free. Prints SERVE_STARTED/SERVE_BROWSER_* on stderr and each feedback as one JSON
    line on stdout.
    """
    from pinup.buildcache import BuildCache
    from pinup.serve import servefile
    from pinup.serve.server import ServeOptions, ServeSession
    from pinup.serve.workspace import board_slugs, build, needs_build
    from pinup_feedback.limits import split_host

    for name in allow_hosts:
        if name != "*" and split_host(name) is None:
            raise click.BadParameter(f"{name!r} is not NAME or NAME:PORT", param_hint="--allow-host")
    ws = _workspace(src, out)
    watcher = _webhooks(ws, webhooks, webhook_secret, webhook_format)
    running = servefile.read(ws.serve_json)
    if running is not None and running.pid != os.getpid() and servefile.pid_alive(running.pid):
        raise click.ClickException(
            f"pinup serve (pid {running.pid}) is already serving {ws.out} at {running.url}; "
            "stop it first, or use --out for another site folder"
        )
    cache = BuildCache()  # every build of this server: start-up, watcher, --generate
    on_regenerate = (
        _generate_hook(ws, cache, model=model, count=count, base_url=base_url, api_key_env=api_key_env)
        if generate
        else None
    )
    if rebuild or needs_build(ws):
        click.echo(f"SERVE_BUILDING: {ws.src} -> {ws.out}", err=True)
        try:
            build(ws, cache)
        except Exception as exc:  # noqa: BLE001 - a build error is a user error here
            raise click.ClickException(f"build failed: {exc}") from None
    slugs = board_slugs(ws)
    if board and board not in slugs:
        known = ", ".join(slugs) or "none"
        raise click.ClickException(f"no board {board!r} in {ws.out / 'boards'} (boards: {known})")
    options = ServeOptions(
        host=host,
        port=port,
        board=board,
        open_browser=not no_open,
        timeout=timeout,
        exit_on_submit=exit_on_submit,
        on_regenerate=on_regenerate,
        allow_hosts=allow_hosts,
        watch=not no_watch,
    )
    try:
        code = ServeSession(ws, options, cache=cache).run()
    except OSError as exc:
        raise click.ClickException(f"cannot serve on {host}:{port}: {exc}") from None
    finally:
        if watcher is not None:
            watcher.stop()
    sys.exit(code)


def _webhooks(ws: Any, urls: tuple[str, ...], secret: str | None, fmt: str) -> Any:
    """Start watching the store for webhook events (a non-http(s) URL is refused before serving)."""
    if not urls:
        return None
    from pinup_feedback.store.file import FileStore
    from pinup_feedback.webhooks import StoreWatcher, make_config

    try:
        config = make_config(list(urls), secret, fmt)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--webhook") from None
    return StoreWatcher(FileStore(ws.store), config).start()


@click.command()
@click.argument("src", required=False, type=click.Path(file_okay=False, path_type=str))
@click.option("--board", metavar="SLUG", help="Board to wait for (default: the one `pinup serve --board` names).")
@click.option("--timeout", type=float, default=600, show_default=True, help="Give up after this many seconds (exit 2).")
@click.option("--out", type=click.Path(file_okay=False, path_type=str), help="Built site folder (where serve.json is).")
@click.option("--store", type=click.Path(file_okay=False, path_type=str), help="Feedback store folder.")
def wait(src: str | None, board: str | None, timeout: float, out: str | None, store: str | None) -> None:
    """Block until the board's next feedback arrives and print it as JSON.

    Exit codes: 0 final submit, 10 regenerate request, 2 timeout.
    """
    from pinup.serve.waiting import EXIT_TIMEOUT, wait_for_feedback

    ws = _workspace(src, out, must_exist=False)
    result = wait_for_feedback(ws, board, timeout, store=Path(store) if store else None)
    if result.record is None:
        click.echo(f"WAIT_TIMEOUT: no feedback for {board or 'any board'} within {timeout:g}s", err=True)
        sys.exit(EXIT_TIMEOUT)
    click.echo(json.dumps(result.record, ensure_ascii=False, indent=2))
    sys.exit(result.code)
