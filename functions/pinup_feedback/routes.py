"""The API routes. Each handler is small; the feedback path is parse -> guard -> validate -> store."""

from __future__ import annotations

import hmac
import json
import os
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Mount, Route

from . import __version__
from .atomicfile import replace_file
from .context import Context
from .errors import ApiError
from .item_routes import item_routes, number_soon
from .ledger import Receipt, body_only, claim_name, fingerprint, guard_key
from .limits import MAX_JSON_DEPTH, too_deep
from .logs import client_address, log_event
from .openapi import build_openapi
from .schema import BOARD_SLUG_PATTERN, FeedbackInvalid, FeedbackV1, check_against_manifest, parse_feedback
from .state import SITE
from .store.base import RecordExists, RecordNotFound, StoreError, StoreUnavailable, iso_ts, new_id, now_utc
from .store.file import FileStore
from .tokens import HEADER, token_ok

T = TypeVar("T")
_SLUG = re.compile(BOARD_SLUG_PATTERN)
ACTIONS = {"final": "submitted", "regenerate": "regenerate"}


def ctx_of(request: Request) -> Context:
    ctx: Context = request.app.state.ctx
    return ctx


def note(request: Request, **fields: Any) -> None:
    """Facts for the access log line (ids and codes only)."""
    request.scope.setdefault("state", {}).update(fields)


def ack(action: str, rid: str) -> JSONResponse:
    return JSONResponse({"received": True, "action": action, "id": rid})


async def read_json_object(request: Request) -> dict[str, Any]:
    """The body as a JSON object: 415 unless it says application/json (checked here, after routing,
    so a wrong method is still the router's 405); malformed or too deep JSON is a 400, never a 500."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise ApiError(415, "unsupported_media_type", "Content-Type must be application/json")
    raw = await request.body()
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "invalid_json", "the body is not valid JSON") from None
    except RecursionError:  # the C decoder's own depth limit (about 1,000 levels)
        raise ApiError(400, "too_deep", f"the JSON nests more than {MAX_JSON_DEPTH} levels") from None
    if not isinstance(data, dict):
        raise ApiError(400, "not_an_object", "the body must be a JSON object")
    if too_deep(data):
        raise ApiError(400, "too_deep", f"the JSON nests more than {MAX_JSON_DEPTH} levels")
    return data


# --- POST /api/feedback ---------------------------------------------------------------------
async def post_feedback(request: Request) -> Response:
    ctx = ctx_of(request)
    data = await read_json_object(request)
    raw_board = data.get("board")
    # only a well-formed slug may reach the logs and the rate-limit key: anything else is user text
    board_hint = raw_board if isinstance(raw_board, str) and _SLUG.match(raw_board) else "-"
    note(request, board=board_hint)
    if data.get("website"):
        log_event("honeypot", board=board_hint)
        return ack("regenerate" if data.get("regenerated") is True else "submitted", new_id())
    client = ctx.hasher(client_address(request.scope))
    wait = ctx.limiter.check(client, board_hint)
    if wait:
        raise ApiError(429, "rate_limited", f"too many requests; retry in {wait}s", {"Retry-After": str(wait)})
    if not token_ok(ctx.settings.board_secret, board_hint, request.headers.get(HEADER)):
        raise ApiError(403, "bad_board_token", f"missing or wrong {HEADER} header")
    try:
        feedback = parse_feedback(data)
        manifest = await manifest_for(ctx, feedback.board)
        if manifest is not None:
            check_against_manifest(feedback, manifest)
    except FeedbackInvalid as exc:
        raise ApiError(422, "invalid_feedback", [e.model_dump() for e in exc.errors]) from None
    except StoreUnavailable as exc:
        raise unavailable(ctx, exc) from None
    except StoreError as exc:
        log_event("manifest_unreadable", board=feedback.board, error=type(exc.__cause__ or exc).__name__)
        raise ApiError(500, "store_failed", "the board manifest is unreadable; nothing was stored") from None
    key = guard_key(ctx.local, feedback.kind, feedback.board, feedback.round, feedback.clientId)
    async with ctx.ledger.guard(key):
        record, replayed = await store_feedback(ctx, feedback, client)
    note(request, feedback_id=record["id"], replayed=replayed)
    if not replayed:  # stored, and (locally) the agent copy written: see `save`
        after_store(ctx, record)
    return ack(ACTIONS[record["kind"]], record["id"])


async def manifest_for(ctx: Context, board: str) -> Any:
    """The board's manifest. The file store answers an unchanged manifest from one stat, so it is
    asked on the event loop; a remote store is asked off it."""
    if isinstance(ctx.store, FileStore):
        return ctx.manifests.get(board)
    return await offload(ctx, ctx.manifests.get, board)


async def offload(ctx: Context, fn: Callable[..., T], *args: Any) -> T:
    """Run a blocking store call off the event loop, or on it where nothing else could run meanwhile
    (`ctx.inline_io`: Lambda hands a process one request at a time, and a thread hop there costs
    more CPU than the call's own work)."""
    if ctx.inline_io:
        return fn(*args)
    return await run_in_threadpool(fn, *args)


def unavailable(ctx: Context, exc: Exception) -> ApiError:
    return ApiError(
        503,
        "store_unavailable",
        "the feedback store is unavailable; nothing was stored",
        {"Retry-After": str(ctx.settings.retry_after)},
    )


def new_record(
    feedback: FeedbackV1,
    client: str,
    *,
    rid: str | None = None,
    received_at: str | None = None,
    body: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        **(body if body is not None else feedback.stored_body()),
        "id": rid or new_id(),
        "receivedAt": received_at or iso_ts(now_utc()),
        "kind": feedback.kind,
        "clientHash": client,
    }


async def save(ctx: Context, record: dict[str, Any]) -> None:
    """Durable write, off the event loop; store failures become 500 (disk) or 503 (remote).

    Locally the agent copy follows. The file store's group commit does both without a thread of
    our own (unless a subclass replaced `save`: then that is what saving means).
    """
    store = ctx.store
    try:
        if isinstance(store, FileStore) and type(store).save is FileStore.save:
            _, copy_error = await store.save_async(record, agent_copy_path(ctx, record))
            if copy_error is not None:
                log_event("agent_copy_failed", board=record["board"], error=type(copy_error).__name__)
        else:
            await offload(ctx, ctx.store.save, record)
            if ctx.local:  # file I/O off the event loop
                await offload(ctx, write_agent_copy, ctx, record)
    except RecordExists:
        raise
    except StoreUnavailable as exc:
        raise unavailable(ctx, exc) from None
    except StoreError as exc:
        raise ApiError(500, "store_failed", "the feedback could not be stored; nothing was acknowledged") from exc


async def store_feedback(ctx: Context, feedback: FeedbackV1, client: str) -> tuple[dict[str, Any], bool]:
    """Apply the double-submit guard (see ledger.py), then store. Returns (record, replayed)."""
    body = feedback.stored_body()
    fp = fingerprint(body)
    board, round_, cid = feedback.board, feedback.round, feedback.clientId
    seen = ctx.ledger.replay(board, round_, cid, fp)
    if seen is not None:
        return {"id": seen.id, "kind": feedback.kind}, True
    if feedback.kind == "final" and ctx.local and ctx.ledger.final_for(board, round_) is not None:
        raise ApiError(409, "already_submitted", f"round {round_} of {board} is already submitted")
    if feedback.kind == "final" and not ctx.local and cid is not None:
        return await claimed_final(ctx, feedback, client, fp)
    record = new_record(feedback, client, body=body)
    try:
        await save(ctx, record)
    except RecordExists:  # an id collision: impossible with uuid4, refuse rather than overwrite
        raise ApiError(500, "store_failed", "record already exists") from None
    ctx.ledger.remember(board, round_, feedback.kind, Receipt(record["id"], feedback.kind, fp, cid))
    return record, False


async def claimed_final(ctx: Context, feedback: FeedbackV1, client: str, fp: str) -> tuple[dict[str, Any], bool]:
    """Hosted final with a clientId: a create-only claim makes the guard hold across instances.

    The claim reserves one record name for (board, round, clientId). A later request stores under
    that same name, create-only: if the name is free, the earlier attempt was never acknowledged
    and this one completes it; if it is taken, the stored body decides between replay and 409.
    """
    assert feedback.clientId is not None
    record = new_record(feedback, client)
    payload = {"id": record["id"], "receivedAt": record["receivedAt"], "fingerprint": fp, "kind": "final"}
    try:
        existing = await offload(
            ctx, ctx.store.claim, claim_name(feedback.board, feedback.round, feedback.clientId), payload
        )
    except StoreUnavailable as exc:
        raise unavailable(ctx, exc) from None
    except StoreError as exc:
        raise ApiError(500, "store_failed", "the feedback could not be stored; nothing was acknowledged") from exc
    if existing is not None:
        record = new_record(feedback, client, rid=str(existing["id"]), received_at=str(existing["receivedAt"]))
    replayed = False
    try:
        await save(ctx, record)
    except RecordExists:
        if existing is None:  # a fresh uuid4 name taken: impossible; refuse rather than guess
            raise ApiError(500, "store_failed", "record already exists") from None
        original = await read_stored(ctx, record)
        if fingerprint(body_only(original)) != fp:
            raise ApiError(
                409, "already_submitted", f"this reviewer already submitted round {feedback.round} of {feedback.board}"
            ) from None
        record, replayed = original, True
    ctx.ledger.remember(feedback.board, feedback.round, "final", Receipt(record["id"], "final", fp, feedback.clientId))
    return record, replayed


async def read_stored(ctx: Context, record: dict[str, Any]) -> dict[str, Any]:
    try:
        return await offload(ctx, ctx.store.read, ctx.store.key_for(record))
    except StoreUnavailable as exc:
        raise unavailable(ctx, exc) from None
    except (StoreError, RecordNotFound, ValueError) as exc:
        raise ApiError(500, "store_failed", "the stored record could not be read") from exc


def after_store(ctx: Context, record: dict[str, Any]) -> None:
    """Acknowledged (and agent copy written): board state, hooks. Failures here never lose the record."""
    board, kind = record["board"], record["kind"]
    number_soon(ctx, record)
    if ctx.local:
        if kind == "regenerate":
            ctx.boards.set_status(board, "regenerating", message="another round was requested")
        else:
            ctx.boards.set_status(board, "done", message="feedback received")
    hooks = ctx.hooks
    if hooks.on_feedback is not None:
        run_hook("on_feedback", board, hooks.on_feedback, record)
    if kind == "regenerate" and hooks.on_regenerate is not None:
        run_hook("on_regenerate", board, hooks.on_regenerate, record, ctx.boards)


def run_hook(name: str, board: str, hook: Callable[..., None], *args: Any) -> None:
    """A hook bug must not turn a stored record into an error: log it (no text) and go on."""
    try:
        hook(*args)
    except Exception as exc:
        log_event("hook_failed", hook=name, board=board, error=type(exc).__name__)


def agent_copy_path(ctx: Context, record: dict[str, Any]) -> Path | None:
    """`<site>/boards/<slug>/feedback.json` or `feedback-pending.json` (local mode, with a site)."""
    site = ctx.settings.site_dir
    if not ctx.local or site is None:
        return None
    return _copy_path(str(site), str(record["board"]), record["kind"] == "final")


@lru_cache(maxsize=256)
def _copy_path(site: str, board: str, final: bool) -> Path:
    """Joined once per board: pathlib costs more than the rest of the agent copy's bookkeeping."""
    return Path(site) / "boards" / board / ("feedback.json" if final else "feedback-pending.json")


def write_agent_copy(ctx: Context, record: dict[str, Any]) -> None:
    """The agent copy, for agents that poll files, when the store is not the file store.

    Atomic (tmp + rename) but not fsynced: the store file is the durable record; two extra
    fsyncs per request here cost more than half of `pinup serve`'s throughput.
    """
    target = agent_copy_path(ctx, record)
    if target is None or not target.parent.is_dir():
        return
    try:
        replace_file(target, json.dumps(record, ensure_ascii=False, indent=2) + "\n")
    except OSError as exc:
        log_event("agent_copy_failed", board=record["board"], error=type(exc).__name__)


# --- progress, events ----------------------------------------------------------------------
def board_param(request: Request, *, site_default: bool = False) -> str:
    """The board a progress/events request names; `SITE` for site pages (`?site=1`, or no board
    on the event stream when the server has no default board)."""
    ctx = ctx_of(request)
    if request.query_params.get("site") == "1":
        return SITE
    board = request.query_params.get("board") or ctx.settings.default_board
    if not board and site_default and "board" not in request.query_params:
        return SITE
    if not board or not _SLUG.match(board):
        raise ApiError(400, "bad_board", "name a board: ?board=<slug>")
    note(request, board=board)
    return board


async def status_of(ctx: Context, board: str, *, with_round: bool = True) -> dict[str, Any]:
    """The Status JSON: the board's state, the manifest's round when known (a poller sees a new round
    appear), and, locally, `closed` (a final is stored for this round) and `pending` (a regenerate
    request waits for the next round), each present only when true. Both come from the ledger, which
    `pinup serve` rebuilds from the store at start-up, so they survive a restart. The event stream's
    first message leaves `round` out (`with_round=False`)."""
    if board == SITE:
        return ctx.boards.site_snapshot()
    snapshot = ctx.boards.snapshot(board)
    try:
        manifest = await offload(ctx, ctx.manifests.get, board)
    except StoreError:
        manifest = None
    if manifest is not None:
        if with_round:
            snapshot["round"] = manifest.round
        if ctx.local and ctx.ledger.final_for(board, manifest.round) is not None:
            snapshot["closed"] = True
        elif ctx.local and ctx.ledger.pending_for(board, manifest.round) is not None:
            snapshot["pending"] = True
    return snapshot


async def get_progress(request: Request) -> Response:
    ctx = ctx_of(request)
    board = board_param(request)
    return JSONResponse(await status_of(ctx, board), headers={"Cache-Control": "no-store"})


async def get_events(request: Request) -> Response:
    """SSE: `retry:` (browsers reconnect after 2 s, e.g. across a restart), the Status JSON, then each change."""
    ctx = ctx_of(request)
    board = board_param(request, site_default=True)
    first = await status_of(ctx, board, with_round=False)

    async def stream() -> Any:
        yield "retry: 2000\n\n"
        if not ctx.local:  # Lambda buffers responses: send the state once and end; boards then poll
            yield f"data: {json.dumps(first, separators=(',', ':'))}\n\n"
            return
        async for event in ctx.boards.events(board, ctx.settings.sse_heartbeat, first=first):
            if event is None:
                yield ": heartbeat\n\n"
            else:
                yield f"data: {json.dumps(event, separators=(',', ':'))}\n\n"

    return StreamingResponse(
        stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    )


# --- reload (local only) -------------------------------------------------------------------
def is_loopback(address: str | None) -> bool:
    return address is not None and (address.startswith("127.") or address in ("::1", "localhost"))


async def post_reload(request: Request) -> Response:
    ctx = ctx_of(request)
    if not is_loopback(client_address(request.scope)):
        raise ApiError(403, "not_loopback", "reload is accepted from this machine only")
    expected = ctx.settings.reload_token
    given = request.headers.get("authorization", "")
    if (
        not expected
        or not given.startswith("Bearer ")
        or not hmac.compare_digest(given[7:].strip().encode(), expected.encode())
    ):
        raise ApiError(
            401, "bad_token", "Authorization: Bearer <token from serve.json>", {"WWW-Authenticate": "Bearer"}
        )
    data = await read_json_object(request)
    board = reload_target(ctx, data)
    note(request, board=board)
    try:
        manifest = await offload(ctx, ctx.manifests.get, board)
    except StoreError:
        manifest = None
    ctx.boards.reload(board, manifest.build if manifest is not None else None)
    return JSONResponse({"reloaded": True, "board": board})


def inside(root: str, path: str) -> bool:
    """`path`, every symlink resolved, is `root` or below it (`root` is already a realpath)."""
    return os.path.commonpath([root, os.path.realpath(path)]) == root


def reload_target(ctx: Context, data: dict[str, Any]) -> str:
    """The board a reload names, checked against the site directory by realpath."""
    site = ctx.settings.site_dir
    if set(data) not in ({"board"}, {"html"}) or not isinstance(next(iter(data.values())), str):
        raise ApiError(400, "bad_reload", 'send {"board": slug} or {"html": "boards/<slug>/index.html"}')
    if site is None:
        raise ApiError(400, "no_site", "this server serves no site")
    root = os.path.realpath(site)
    if "board" in data:
        board = data["board"]
        if not _SLUG.match(board) or not os.path.isdir(os.path.join(root, "boards", board)):
            raise ApiError(400, "unknown_board", f"no board {board!r} in the site")
        if not inside(root, os.path.join(root, "boards", board)):
            raise ApiError(403, "outside_site", "the board folder links out of the site directory")
        return str(board)
    rel = data["html"]
    if "\x00" in rel or os.path.isabs(rel):
        raise ApiError(403, "outside_site", "the path must be relative to the site")
    target = os.path.realpath(os.path.join(root, rel))
    if not inside(root, target):
        raise ApiError(403, "outside_site", "the path leaves the site directory")
    if not os.path.isfile(target):
        raise ApiError(400, "not_a_file", "the path is a directory or does not exist")
    parts = Path(os.path.relpath(target, root)).parts
    if len(parts) >= 3 and parts[0] == "boards" and _SLUG.match(parts[1]):
        return parts[1]
    if ctx.settings.default_board:
        return ctx.settings.default_board
    raise ApiError(400, "unknown_board", "the file is not inside boards/<slug>/")


# --- misc -----------------------------------------------------------------------------------
async def healthz(request: Request) -> Response:
    ctx = ctx_of(request)
    return JSONResponse({"ok": True, "mode": ctx.settings.mode, "version": __version__})


async def openapi(request: Request) -> Response:
    return JSONResponse(build_openapi(local=ctx_of(request).local))


def api_routes(local: bool) -> list[BaseRoute]:
    """All API routes under one /api mount, so a wrong method is 405 even with the site at /."""
    api = [
        Route("/feedback", post_feedback, methods=["POST"]),
        Route("/progress", get_progress, methods=["GET"]),
        Route("/events", get_events, methods=["GET"]),
        Route("/openapi.json", openapi, methods=["GET"]),
        *item_routes(),
    ]
    if local:
        api.append(Route("/reload", post_reload, methods=["POST"]))
    return [Mount("/api", routes=api), Route("/healthz", healthz, methods=["GET"])]
