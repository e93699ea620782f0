"""The API routes: HTTP only (parse the request, answer with a status and headers).

A submission's steps live in the intake (`intake.py`); the items' routes in `item_routes.py`.
"""

from __future__ import annotations

import hmac
import json
import os
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Mount, Route

from . import __version__
from .context import Context
from .errors import ApiError
from .httpkit import ctx_of, note, read_json_object, refusal
from .intake import Intake, Refused, board_hint
from .item_routes import item_routes
from .logs import client_address
from .openapi import build_openapi
from .records import BOARD_SLUG
from .state import SITE
from .store.base import StoreError
from .tokens import HEADER

ACTIONS = {"final": "submitted", "regenerate": "regenerate"}


# --- POST /api/feedback ---------------------------------------------------------------------
async def post_feedback(request: Request) -> Response:
    data = await read_json_object(request)
    note(request, board=board_hint(data))
    intake: Intake = request.app.state.intake
    try:
        outcome = await intake.submit(data, client_address(request.scope), request.headers.get(HEADER))
    except Refused as exc:
        raise refusal(exc) from exc
    if not outcome.trap:
        note(request, feedback_id=outcome.id, replayed=outcome.replayed)
    return JSONResponse({"received": True, "action": ACTIONS[outcome.kind], "id": outcome.id})


# --- POST /api/attachments ------------------------------------------------------------------
async def post_attachment(request: Request) -> Response:
    """One image, as the raw body, for a submission to name next (`intake.Intake.upload`).

    `?board=<slug>&name=<file name>`; the Content-Type is what the browser declared (the bytes
    decide). 201 with the file to name in the body's `attachments`; 4xx naming the file otherwise."""
    from .attachments import MAX_BYTES, AttachmentRefused, too_large

    board = request.query_params.get("board") or ""
    name = request.query_params.get("name") or ""
    if not BOARD_SLUG.match(board):
        raise ApiError(400, "bad_board", "name a board: ?board=<slug>")
    if not name or len(name) > 200 or any(c in name for c in "/\\") or not name.isprintable():
        raise ApiError(400, "bad_name", "name the file: ?name=<file name> (no slashes, at most 200 characters)")
    note(request, board=board)
    declared = request.headers.get("content-type", "").split(";")[0].strip().lower() or None
    data = bytearray()
    async for chunk in request.stream():  # stop at the limit: never hold more than one image
        data += chunk
        if len(data) > MAX_BYTES:
            error = too_large(name)
            raise ApiError(413, "attachment_too_large", error.detail(), {"Connection": "close"})
    if declared is not None and not declared.startswith("image/"):
        refused = AttachmentRefused(415, name, f"{name} is sent as {declared}, not as an image")
        raise ApiError(415, "attachment_not_image", refused.detail())
    intake: Intake = request.app.state.intake
    try:
        image, _ = await intake.upload(
            board, name, bytes(data), declared, client_address(request.scope), request.headers.get(HEADER)
        )
    except Refused as exc:
        raise refusal(exc) from exc
    return JSONResponse(
        {
            "file": image.file,
            "name": name,
            "type": image.type,
            "bytes": len(image.data),
            "width": image.width,
            "height": image.height,
        },
        status_code=201,
    )


async def get_attachment(request: Request) -> Response:
    """An attached image, for the next round's board: named by its content, so it never changes."""
    from .records import ATTACHMENT_FILE, ATTACHMENT_TYPES
    from .store.base import RecordNotFound, StoreUnavailable

    ctx = ctx_of(request)
    board, name = request.path_params["board"], request.path_params["name"]
    file = f"attachments/{name}"
    if not BOARD_SLUG.match(board) or not ATTACHMENT_FILE.match(file):
        raise ApiError(404, "not_found", "no such attachment")
    note(request, board=board)
    try:
        data = await ctx.offload(ctx.store.read_attachment, board, file)
    except RecordNotFound:
        raise ApiError(404, "not_found", "no such attachment") from None
    except StoreUnavailable:
        raise ApiError(503, "store_unavailable", "the feedback store is unavailable") from None
    headers = {"Cache-Control": "public, max-age=31536000, immutable", "X-Content-Type-Options": "nosniff"}
    return Response(data, media_type=ATTACHMENT_TYPES[name.rsplit(".", 1)[1]], headers=headers)


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
    if not board or not BOARD_SLUG.match(board):
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
        manifest = await ctx.offload(ctx.manifests.get, board)
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
    status = await status_of(ctx, board)
    since = request.query_params.get("since")
    if since is not None:  # a polling page: the site's build, and what it missed since the one it shows
        status["version"] = ctx.boards.site_version
        missed = ctx.boards.since_version(since)
        if missed is not None:
            status["rebuilt"] = missed
    return JSONResponse(status, headers={"Cache-Control": "no-store"})


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
        manifest = await ctx.offload(ctx.manifests.get, board)
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
        if not BOARD_SLUG.match(board) or not os.path.isdir(os.path.join(root, "boards", board)):
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
    if len(parts) >= 3 and parts[0] == "boards" and BOARD_SLUG.match(parts[1]):
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
        Route("/attachments", post_attachment, methods=["POST"]),
        Route("/attachments/{board}/{name}", get_attachment, methods=["GET"]),
        Route("/progress", get_progress, methods=["GET"]),
        Route("/events", get_events, methods=["GET"]),
        Route("/openapi.json", openapi, methods=["GET"]),
        *item_routes(),
    ]
    if local:
        api.append(Route("/reload", post_reload, methods=["POST"]))
    return [Mount("/api", routes=api), Route("/healthz", healthz, methods=["GET"])]
