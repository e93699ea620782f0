"""`pinup review`: pins on a running app's pages, collected like a board's."""

from __future__ import annotations

import json
import os
import sys

import click

from pinup.cli.serve import _workspace, exit_on_submit_option, no_open_option, out_option


@click.command()
@click.argument("url")
@click.argument("src", required=False, type=click.Path(file_okay=False, path_type=str))
@click.option("--board", "slug", default="review", show_default=True, metavar="SLUG", help="The review's board.")
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="Also review an app on this host (repeatable); else only 127.0.0.1, localhost and [::1].",
)
@click.option("--port", type=int, default=0, show_default=True, help="pinup's port (0: as `pinup serve` picks it).")
@out_option
@no_open_option
@click.option(
    "--timeout",
    type=float,
    default=0,
    show_default=True,
    help="Exit 1 when no final feedback arrives within this many seconds (0: never).",
)
@exit_on_submit_option
def review(
    url: str,
    src: str | None,
    slug: str,
    allow_hosts: tuple[str, ...],
    port: int,
    out: str | None,
    no_open: bool,
    timeout: float,
    exit_on_submit: bool,
) -> None:
    """Review a page of an app running on this machine: pin notes on it as you use it.

    URL is the app's page (a dev server on 127.0.0.1 or localhost; another host only with
    --allow-host). pinup serves a review page whose frame shows the app through a proxy on a
    second local port, with pinup's pin overlay added to each HTML page. Submissions join the
    board SLUG's numbered items, hand-off and MCP tools, and print as `pinup serve` prints them.
    """
    from pinup.boards.spec import SLUG
    from pinup.browser import BrowserError, page_address

    try:
        address = page_address(url, allow_hosts=allow_hosts)
    except BrowserError as exc:
        raise click.ClickException(str(exc)) from None
    if not address.startswith(("http://", "https://")):
        raise click.ClickException(f"{url}: pinup review takes the http(s) address of a running app.")
    if not SLUG.match(slug):
        raise click.BadParameter(f"{slug!r} is not a board slug ([A-Za-z0-9_-], up to 64)", param_hint="--board")
    from pinup.serve import servefile
    from pinup.serve.ports import choose_port
    from pinup.serve.review import ReviewTarget, free_port, start_proxy, write
    from pinup.serve.server import ServeOptions, ServeSession
    from pinup.serve.workspace import build, needs_build
    from pinup.workspace import recorded_port

    ws = _workspace(src, out)
    running = servefile.read(ws.serve_json)
    if running is not None and running.pid != os.getpid() and servefile.pid_alive(running.pid):
        raise click.ClickException(
            f"pinup serve (pid {running.pid}) is already serving {ws.out} at {running.url}; "
            "stop it first, or use --out for another site folder"
        )
    if needs_build(ws):
        click.echo(f"SERVE_BUILDING: {ws.src} -> {ws.out}", err=True)
        try:
            build(ws)
        except Exception as exc:  # noqa: BLE001 - a build error is a user error here
            raise click.ClickException(f"build failed: {exc}") from None
    manifest = ws.out / "boards" / slug / "board.json"
    if manifest.is_file() and "review" not in json.loads(manifest.read_text(encoding="utf-8")):
        raise click.ClickException(f"board {slug!r} is a board of the workspace; name the review with --board")
    host = "127.0.0.1"
    choice = choose_port(host, port, recorded_port(ws.src))
    if choice.note:
        click.echo(choice.note, err=True)
    bound = choice.port or free_port(host)
    proxy = start_proxy(address, f"http://{host}:{bound}")
    try:
        target = ReviewTarget(url=address, slug=slug, proxy=proxy.origin)
        write(ws, target)
        click.echo(f"REVIEW_PROXY: app={proxy.upstream.origin} proxy={proxy.origin}", err=True)
        options = ServeOptions(
            host=host,
            port=bound,
            board=slug,
            open_browser=not no_open,
            timeout=timeout,
            exit_on_submit=exit_on_submit,
            watch=False,
            frame_origins=(proxy.origin,),
        )
        try:
            code = ServeSession(ws, options).run()
        except OSError as exc:
            raise click.ClickException(f"cannot serve on {host}:{bound}: {exc}") from None
    finally:
        proxy.stop()
    sys.exit(code)
