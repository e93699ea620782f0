"""`pinup feedback list|show|handoff|items|claim|resolve`: read the feedback and move its items along."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click

from pinup.workspace import SRC_HELP
from pinup_feedback.paging import PAGE, since_time
from pinup_feedback.records import regenerate_request

_src_option = click.option(
    "--src",
    type=click.Path(file_okay=False, path_type=str),
    help=SRC_HELP,
)
_store_option = click.option(
    "--store",
    type=click.Path(file_okay=False, path_type=str),
    help="Feedback store folder (default: <workspace>/.pinup/feedback).",
)


def _open(src: str | None, store: str | None) -> tuple[Any, Any]:
    from pinup.serve.workspace import resolve
    from pinup_feedback.store.file import FileStore

    try:
        ws = resolve(src, store=store, must_exist=False)
    except FileNotFoundError as exc:
        raise click.ClickException(str(exc)) from None
    return ws, FileStore(ws.store)


def _items(store: Any, board: str | None) -> list[Any]:
    try:
        items: list[Any] = store.list(board)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    return items


def where(store: Any) -> str:
    from pinup.feedback_store import where as where_it

    return where_it(store)


def _latest(store: Any, board: str | None) -> dict[str, Any]:
    keys, _total = _newest_records(store, board, None, 1)
    if not keys:
        raise click.ClickException(f"no feedback yet{f' for board {board}' if board else ''} in {where(store)}")
    record: dict[str, Any] = store.read(keys[0])
    return record


#: resolved items the hand-off lists with their evidence, the newest first
RESOLVED_PAGE = 20


def _since(ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """An ISO date or time (UTC unless it says otherwise) as the store writes times, for comparing."""
    try:
        return None if value is None else since_time(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def _paging(command: F) -> F:
    """`--limit`, `--since`, `--all`: listings show one page, newest first, unless asked for all."""
    for option in (
        click.option("--all", "show_all", is_flag=True, help="Everything, oldest first (no page)."),
        click.option("--since", metavar="TIME", callback=_since, help="Only what was received at TIME (ISO) or later."),
        click.option("--limit", type=click.IntRange(min=1), default=PAGE, show_default=True, help="How many to show."),
    ):
        command = option(command)
    return command


def _more(shown: int, total: int, what: str) -> None:
    if shown < total:
        click.echo(f"showing the newest {shown} of {total} {what}; --limit N or --all for more", err=True)


def _summary_row(record: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": record.get("id"),
        "receivedAt": record.get("receivedAt"),
        "board": record.get("board"),
        "round": record.get("round"),
        "kind": record.get("kind"),
        "preferred": record.get("preferred"),
        "action": regenerate_request(record),
        "reviewer": record.get("reviewer"),
    }


@click.command("list")
@click.option("--board", metavar="SLUG", help="Only this board.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@_paging
@_src_option
@_store_option
def list_feedback(
    board: str | None, fmt: str, limit: int, since: str | None, show_all: bool, src: str | None, store: str | None
) -> None:
    """List stored feedback: the newest first, one page (`--all`: everything, oldest first)."""
    _, st = _open(src, store)
    if show_all:
        keys = [item.key for item in _items(st, board) if since is None or item.received_at >= since]
    else:
        keys, total = _newest_records(st, board, since, limit)
        if fmt == "table":
            _more(len(keys), total, "records")
    rows = [_summary_row(st.read(key)) for key in keys]
    if fmt == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Feedback in {st.root}" + (f" (board {board})" if board else ""))
    for column in ("id", "received", "board", "round", "kind", "preferred", "action", "reviewer"):
        table.add_column(column, overflow="fold", no_wrap=column in ("id", "received"))
    for row in rows:
        received = str(row["receivedAt"] or "")[:19].replace("T", " ")
        table.add_row(
            str(row["id"])[:8],
            received,
            str(row["board"]),
            str(row["round"]),
            str(row["kind"]),
            row["preferred"] or "-",
            row["action"] or "-",
            row["reviewer"] or "-",
        )
    console = Console()
    if not console.is_terminal:  # piped: do not squeeze the table into 80 columns
        console = Console(width=160)
    console.print(table)
    if not rows:
        click.echo("no feedback yet", err=True)


def _newest_records(st: Any, board: str | None, since: str | None, limit: int) -> tuple[list[str], int]:
    """The keys of the newest `limit` records (of one board, or of all), from the boards' indexes,
    and how many there are in all."""
    from pinup_feedback.lifecycle import Lifecycle

    life = Lifecycle(st)
    try:
        boards = [board] if board else sorted(st.boards())
        found = [entry for slug in boards for entry in life.records(slug, since=since, limit=limit)]
        total = sum(life.count_records(slug, since) for slug in boards)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        life.close()
    found.sort(reverse=True)
    return [key for _at, key in found[:limit]], total


@click.command("show")
@click.argument("record_id", metavar="ID|latest")
@click.option("--board", metavar="SLUG", help="With `latest`: the latest for this board.")
@_src_option
@_store_option
def show_feedback(record_id: str, board: str | None, src: str | None, store: str | None) -> None:
    """Print one stored record as JSON (an id, a unique id prefix, or `latest`)."""
    from pinup_feedback.store.base import RecordNotFound

    _, st = _open(src, store)
    if record_id == "latest":
        record = _latest(st, board)
    else:
        matches = [i for i in _items(st, board) if i.id == record_id or i.id.startswith(record_id)]
        if len(matches) > 1:
            raise click.ClickException(f"id prefix {record_id!r} matches {len(matches)} records; give more of it")
        try:
            record = st.read(matches[0].key if matches else record_id)
        except (RecordNotFound, ValueError):
            raise click.ClickException(f"no feedback with id {record_id!r} in {st.root}") from None
    click.echo(json.dumps(with_attachment_paths(st, record), ensure_ascii=False, indent=2))


def with_attachment_paths(st: Any, record: dict[str, Any]) -> dict[str, Any]:
    """The record as printed: each attachment also says where its image is (`path`)."""
    from pinup_feedback.records import record_attachments

    listed = record_attachments(record)
    if not listed:
        return record
    shown = [{**a, "path": st.location_of(str(record["board"]), a["file"])} for a in listed]
    return {**record, "attachments": shown}


# --- items: numbered, with a lifecycle ------------------------------------------------------
_any_store_option = click.option(
    "--store",
    metavar="DIR|s3://BUCKET/PREFIX",
    help="Feedback store: a folder, or the hosted store s3://bucket/prefix (default: <workspace>/.pinup/feedback).",
)
_endpoint_option = click.option(
    "--endpoint-url", default=None, envvar="AWS_ENDPOINT_URL", help="S3-compatible endpoint for an s3:// store."
)
_board_option = click.option("--board", metavar="SLUG", help="Board (default: the only board with feedback).")
_agent_option = click.option(
    "--agent", metavar="NAME", envvar="PINUP_AGENT", help="Who makes the change, recorded with it (env PINUP_AGENT)."
)
_json_option = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)

EXIT_CONFLICT = 3
T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


class ItemRefused(click.ClickException):
    """The item's state refuses the change (already claimed or resolved): exit code 3."""

    exit_code = EXIT_CONFLICT


def open_feedback(src: str | None, store: str | None, endpoint_url: str | None = None) -> tuple[Any, Any]:
    from pinup.feedback_store import open_feedback as open_it

    try:
        return open_it(src, store, endpoint_url)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None


def pick_board(st: Any, board: str | None) -> str:
    from pinup.feedback_store import choose_board
    from pinup_feedback.store.base import StoreError

    try:
        return choose_board(st, board)
    except (ValueError, StoreError) as exc:
        message = str(exc).replace("name the board", "name one with --board")
        raise click.ClickException(message) from None


def on_board(
    src: str | None, store: str | None, endpoint_url: str | None, board: str | None, call: Callable[[Any, str], T]
) -> tuple[str, T]:
    """Open the store, pick the board and run `call(lifecycle, slug)` (see `refusals`)."""
    from pinup_feedback.lifecycle import Lifecycle

    _, st = open_feedback(src, store, endpoint_url)
    slug = pick_board(st, board)
    with refusals():
        return slug, call(Lifecycle(st), slug)


@contextmanager
def refusals() -> Iterator[None]:
    """Lifecycle refusals as clear messages: exit code 3 for a conflict, 1 for the rest."""
    from pinup_feedback.lifecycle import ItemConflict, LifecycleError
    from pinup_feedback.store.base import StoreError

    try:
        yield
    except ItemConflict as exc:
        raise ItemRefused(str(exc)) from None
    except (LifecycleError, StoreError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None


def _item_change_options(command: F) -> F:
    """The options `claim` and `resolve` share, in the order --help lists them."""
    for option in (_endpoint_option, _any_store_option, _src_option, _json_option, _agent_option, _board_option):
        command = option(command)
    return command


def _item_line(item: Any) -> str:
    where = f" on {item.spec.variant}" if item.spec.variant else ""
    severity = f" [{item.spec.severity}]" if item.spec.severity else ""
    return f"#{item.n} {item.status}: {item.spec.kind}{where}{severity}"


@click.command("items")
@_board_option
@click.option(
    "--status",
    type=click.Choice(["open", "in_progress", "resolved", "wont_fix", "needs_clarification"]),
    help="Only items with this status.",
)
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@_paging
@_src_option
@_any_store_option
@_endpoint_option
def items(
    board: str | None,
    status: str | None,
    fmt: str,
    limit: int,
    since: str | None,
    show_all: bool,
    src: str | None,
    store: str | None,
    endpoint_url: str | None,
) -> None:
    """List a board's numbered items (pins, comments, overall, regenerate) with their status: the
    newest first, open ones before closed ones, one page (`--all`: every item by number)."""

    def page(life: Any, slug: str) -> tuple[list[Any], int]:
        if show_all:
            return life.items(slug, status, since=since), 0
        shown = life.items(slug, status, since=since, limit=limit, newest_first=True)
        return shown, life.count(slug, status, since)

    slug, (found, total) = on_board(src, store, endpoint_url, board, page)
    if fmt == "table" and not show_all:
        _more(len(found), total, "items")
    if fmt == "json":
        click.echo(json.dumps({"board": slug, "items": [i.public() for i in found]}, ensure_ascii=False, indent=2))
        return
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"Items of {slug}" + (f" ({status})" if status else ""))
    for column in ("#", "status", "kind", "variant", "severity", "text", "summary"):
        table.add_column(column, overflow="fold")
    for item in found:
        table.add_row(
            str(item.n),
            item.status,
            item.spec.kind,
            item.spec.variant or "-",
            item.spec.severity or "-",
            escape(item.spec.text[:120]),
            escape((item.summary or "-")[:120]),
        )
    console = Console()
    if not console.is_terminal:
        console = Console(width=160)
    console.print(table)
    if not found:
        click.echo("no items" + (f" with status {status}" if status else ""), err=True)


def _report(item: Any, fmt: str, verb: str) -> None:
    if fmt == "json":
        click.echo(json.dumps({"board": item.board, **item.public()}, ensure_ascii=False, indent=2))
        return
    click.echo(f"{verb} {_item_line(item)}")
    proof = item.evidence if verb != "claimed" else {}
    for label, value in (("commit", proof.get("commit")), ("PR", proof.get("pr"))):
        if value:
            click.echo(f"  {label}: {value}")
    if proof.get("evidence"):
        click.echo(f"  evidence: {proof['evidence']['file']} ({proof['evidence']['type']})")


@click.command("claim")
@click.argument("number", type=click.IntRange(min=1), metavar="N")
@_item_change_options
def claim(
    number: int,
    board: str | None,
    agent: str | None,
    fmt: str,
    src: str | None,
    store: str | None,
    endpoint_url: str | None,
) -> None:
    """Claim item N (open -> in_progress). Exit code 3 when it is already claimed or resolved."""
    _, item = on_board(src, store, endpoint_url, board, lambda life, slug: life.claim(slug, number, actor=agent))
    _report(item, fmt, "claimed")


@click.command("resolve")
@click.argument("number", type=click.IntRange(min=1), metavar="N")
@click.option(
    "--status", required=True, type=click.Choice(["resolved", "wont_fix", "needs_clarification"]), help="The outcome."
)
@click.option("--summary", required=True, help="What was done, or why not, or the question for the reviewer.")
@click.option("--commit", metavar="SHA", help="The commit that made the change (7 to 40 hex digits).")
@click.option("--pr", metavar="URL", help="The pull request (an http(s) URL).")
@click.option(
    "--evidence",
    metavar="FILE",
    help="A PNG or JPEG screenshot, or a `pinup verify` report (its folder or index.html), kept with the item.",
)
@_item_change_options
def resolve(
    number: int,
    status: str,
    summary: str,
    commit: str | None,
    pr: str | None,
    evidence: str | None,
    board: str | None,
    agent: str | None,
    fmt: str,
    src: str | None,
    store: str | None,
    endpoint_url: str | None,
) -> None:
    """Close item N with an outcome and a summary.

    `--commit`, `--pr` and `--evidence` show that the change landed, next to the summary on the
    next round's board, the results page and the hand-off. Exit code 3 when it is already
    resolved; bad evidence is refused (exit code 1) and nothing is recorded."""
    from pinup.evidence import load
    from pinup_feedback.evidence import EvidenceError

    try:
        proof = load(commit, pr, evidence)
    except EvidenceError as exc:
        raise click.ClickException(str(exc)) from None
    _, item = on_board(
        src,
        store,
        endpoint_url,
        board,
        lambda life, slug: life.resolve(slug, number, status, summary, actor=agent, evidence=proof),
    )
    _report(item, fmt, "resolved" if status == "resolved" else "marked")


@click.command("handoff")
@click.option("--board", metavar="SLUG", help="Board (default: the latest record of any board).")
@click.option("--id", "record_id", help="A specific record instead of the latest.")
@click.option("--format", "fmt", type=click.Choice(["markdown", "json"]), default="markdown", show_default=True)
@click.option(
    "--zip",
    "zip_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write one archive instead: the hand-off, the picked variant's files, DESIGN.md with the tweaks "
    "and its diff, a PNG of each pin's region (Chromium).",
)
@_src_option
@_any_store_option
@_endpoint_option
def handoff(
    board: str | None,
    record_id: str | None,
    fmt: str,
    zip_path: Path | None,
    src: str | None,
    store: str | None,
    endpoint_url: str | None,
) -> None:
    """The hand-off for an agent: pick, ratings, every open item, pins, tweaks, and the commands to use.

    Reviewer text is quoted as JSON strings, so it cannot pose as headings or instructions.
    With --zip the same inputs always give a byte-identical archive.
    """
    from pinup.handoff import board_info, build_handoff, render_markdown
    from pinup_feedback.lifecycle import Lifecycle

    ws, st = open_feedback(src, store, endpoint_url)
    if record_id:
        try:
            record = st.read(record_id)
        except Exception:  # noqa: BLE001 - RecordNotFound or a bad id
            raise click.ClickException(f"no feedback with id {record_id!r} in {where(st)}") from None
    else:
        record = _latest(st, board)
    slug = str(record.get("board"))
    with refusals():
        life = Lifecycle(st)
        items, open_total = life.open_items(slug, PAGE)
        resolved = life.items(slug, "resolved", limit=RESOLVED_PAGE, newest_first=True)
    info = board_info(ws, st, slug, record.get("round"), list(record.get("tweaks") or {}))
    store_args = ["--store", store] if store else []
    if endpoint_url and store and store.startswith("s3://"):
        store_args += ["--endpoint-url", endpoint_url]
    data = build_handoff(record, items, info, store_args, open_total, resolved, st)
    if zip_path is not None:
        _write_zip(zip_path, ws, record, data, render_markdown(data))
        return
    click.echo(json.dumps(data, ensure_ascii=False, indent=2) if fmt == "json" else render_markdown(data))


def _write_zip(path: Path, ws: Any, record: dict[str, Any], data: dict[str, Any], markdown: str) -> None:
    from pinup.handoff_zip import HandoffZipError, build_zip

    try:
        archive = build_zip(Path(ws.src), record, data, markdown)
        archive.write(path)
    except HandoffZipError as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"cannot write {path}: {exc.strerror or exc}") from None
    click.echo(f"wrote {path} ({len(archive.entries)} files)")
