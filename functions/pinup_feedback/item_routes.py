"""`GET /api/items`, `GET /api/items/evidence` and `POST /api/items/reopen`: the board's numbered
items, their state and the evidence their resolves cite.

Numbering runs on read (records stored before numbering existed, or by another process, get
their numbers the first time anyone lists the board) and, locally, right after a submission in a
background thread (batched: see `Lifecycle.number_soon`) so the acknowledgement never waits for it.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .context import Context
from .errors import ApiError
from .httpkit import ctx_of, note, read_json_object, refusal
from .intake import Refused, admit
from .lifecycle import STATUSES, LifecycleError, UnknownItem
from .logs import client_address
from .records import BOARD_SLUG
from .store.base import StoreError, StoreUnavailable
from .tokens import HEADER


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
    ctx = ctx_of(request)
    board = request.query_params.get("board") or ctx.settings.default_board
    if not board or not BOARD_SLUG.match(board):
        raise ApiError(400, "bad_board", "name a board: ?board=<slug>")
    status = request.query_params.get("status")
    if status is not None and status not in STATUSES:
        raise ApiError(400, "bad_status", f"status is one of: {', '.join(STATUSES)}")
    note(request, board=board)
    try:
        items = await run_in_threadpool(ctx.lifecycle.items, board, status)
    except StoreError as exc:
        raise _failed(ctx, exc) from None
    return JSONResponse({"board": board, "items": [i.public() for i in items]}, headers={"Cache-Control": "no-store"})


#: an evidence file is a document, never a page of this origin: an HTML report is shown sandboxed
#: (no scripts, no requests), and nothing is sniffed into another type
EVIDENCE_HEADERS = {
    "Cache-Control": "private, max-age=31536000, immutable",  # named by its content
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'",
}


async def get_evidence(request: Request) -> Response:
    """`?board=<slug>&file=evidence/<sha256>.<png|jpg|html>`: a file a resolve event of the board
    cites as its evidence (any other name is 404, whatever the store holds)."""
    ctx = ctx_of(request)
    board = request.query_params.get("board") or ""
    file = request.query_params.get("file") or ""
    if not BOARD_SLUG.fullmatch(board):
        raise ApiError(400, "bad_board", "name a board: ?board=<slug>")
    note(request, board=board)
    try:
        found = await run_in_threadpool(ctx.lifecycle.evidence_file, board, file)
    except StoreError as exc:
        raise _failed(ctx, exc) from None
    if found is None:
        raise ApiError(404, "unknown_evidence", "no resolve of this board cites that evidence file")
    data, content_type = found
    return Response(data, media_type=content_type, headers=EVIDENCE_HEADERS)


async def post_reopen(request: Request) -> Response:
    """The reviewer reopens an item: `{"board": slug, "n": 3}` -> the Item (same checks as feedback)."""
    ctx = ctx_of(request)
    data = await read_json_object(request)
    board, n = data.get("board"), data.get("n")
    if (
        set(data) != {"board", "n"}
        or not isinstance(board, str)
        or not BOARD_SLUG.match(board)
        or not isinstance(n, int)
        or isinstance(n, bool)
        or n < 1
    ):
        raise ApiError(
            422,
            "invalid_reopen",
            [{"path": "(body)", "loc": [], "type": "reopen", "msg": 'send {"board": slug, "n": item number}'}],
        )
    note(request, board=board)
    try:
        admit(ctx, ctx.hasher(client_address(request.scope)), board, request.headers.get(HEADER))
    except Refused as exc:
        raise refusal(exc) from None
    try:
        item = await run_in_threadpool(ctx.lifecycle.reopen, board, n)
    except UnknownItem as exc:
        raise ApiError(404, exc.code, str(exc)) from None
    except LifecycleError as exc:
        raise ApiError(409, exc.code, str(exc)) from None
    except StoreError as exc:
        raise _failed(ctx, exc) from None
    return JSONResponse(item.public())


def item_routes() -> list[Route]:
    return [
        Route("/items", get_items, methods=["GET"]),
        Route("/items/evidence", get_evidence, methods=["GET"]),
        Route("/items/reopen", post_reopen, methods=["POST"]),
    ]
