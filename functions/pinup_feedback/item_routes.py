"""`GET /api/items` and `POST /api/items/reopen`: the board's numbered items and their state.

Numbering runs on read (records stored before numbering existed, or by another process, get
their numbers the first time anyone lists the board) and, locally, right after a submission in a
background thread (batched: see `Lifecycle.number_soon`) so the acknowledgement never waits for it.
"""

from __future__ import annotations

import re
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .context import Context
from .errors import ApiError
from .lifecycle import STATUSES, LifecycleError, UnknownItem, lifecycle_for
from .logs import client_address, log_event
from .schema import BOARD_SLUG_PATTERN
from .store.base import StoreError, StoreUnavailable
from .tokens import HEADER, token_ok

_SLUG = re.compile(BOARD_SLUG_PATTERN)


def _ctx(request: Request) -> Context:
    ctx: Context = request.app.state.ctx
    return ctx


def _failed(ctx: Context, exc: StoreError) -> ApiError:
    if isinstance(exc, StoreUnavailable):
        return ApiError(
            503,
            "store_unavailable",
            "the feedback store is unavailable",
            {"Retry-After": str(ctx.settings.retry_after)},
        )
    return ApiError(500, "store_failed", "the item log could not be read or written")


async def get_items(request: Request) -> Response:
    """Every item of a board by number; `status` filters."""
    ctx = _ctx(request)
    board = request.query_params.get("board") or ctx.settings.default_board
    if not board or not _SLUG.match(board):
        raise ApiError(400, "bad_board", "name a board: ?board=<slug>")
    status = request.query_params.get("status")
    if status is not None and status not in STATUSES:
        raise ApiError(400, "bad_status", f"status is one of: {', '.join(STATUSES)}")
    request.scope.setdefault("state", {})["board"] = board
    try:
        items = await run_in_threadpool(lifecycle_for(ctx.store).items, board, status)
    except StoreError as exc:
        raise _failed(ctx, exc) from None
    return JSONResponse({"board": board, "items": [i.public() for i in items]}, headers={"Cache-Control": "no-store"})


async def post_reopen(request: Request) -> Response:
    """The reviewer reopens an item: `{"board": slug, "n": 3}` -> the Item (same checks as feedback)."""
    from .routes import read_json_object

    ctx = _ctx(request)
    data = await read_json_object(request)
    board, n = data.get("board"), data.get("n")
    if (
        set(data) != {"board", "n"}
        or not isinstance(board, str)
        or not _SLUG.match(board)
        or not isinstance(n, int)
        or isinstance(n, bool)
        or n < 1
    ):
        raise ApiError(
            422,
            "invalid_reopen",
            [{"path": "(body)", "loc": [], "type": "reopen", "msg": 'send {"board": slug, "n": item number}'}],
        )
    request.scope.setdefault("state", {})["board"] = board
    wait = ctx.limiter.check(ctx.hasher(client_address(request.scope)), board)
    if wait:
        raise ApiError(429, "rate_limited", f"too many requests; retry in {wait}s", {"Retry-After": str(wait)})
    if not token_ok(ctx.settings.board_secret, board, request.headers.get(HEADER)):
        raise ApiError(403, "bad_board_token", f"missing or wrong {HEADER} header")
    try:
        item = await run_in_threadpool(lifecycle_for(ctx.store).reopen, board, n)
    except UnknownItem as exc:
        raise ApiError(404, exc.code, str(exc)) from None
    except LifecycleError as exc:
        raise ApiError(409, exc.code, str(exc)) from None
    except StoreError as exc:
        raise _failed(ctx, exc) from None
    return JSONResponse(item.public())


def number_soon(ctx: Context, record: dict[str, Any]) -> None:
    """Locally, number a just-stored record off the request path; hosted, readers number it."""
    if not ctx.local:
        return
    board = record.get("board")

    def failed(exc: Exception) -> None:  # the record is stored; the next read numbers it
        log_event("numbering_failed", board=board, error=type(exc).__name__)

    lifecycle_for(ctx.store).number_soon(record, failed)


def item_routes() -> list[Route]:
    return [
        Route("/items", get_items, methods=["GET"]),
        Route("/items/reopen", post_reopen, methods=["POST"]),
    ]
