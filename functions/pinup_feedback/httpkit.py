"""What every route shares: the app's context, facts for the access log, JSON bodies, and the
statuses the intake's refusals answer with."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request

from .context import Context
from .errors import ApiError
from .intake import Refused
from .limits import MAX_JSON_DEPTH, too_deep

#: the status of each refusal (`intake.Refused.code`)
STATUS = {
    "rate_limited": 429,
    "bad_board_token": 403,
    "invalid_feedback": 422,
    "attachment_too_large": 413,
    "attachment_not_image": 415,
    "bad_attachment": 422,
    "already_submitted": 409,
    "store_unavailable": 503,
    "store_failed": 500,
}


def ctx_of(request: Request) -> Context:
    ctx: Context = request.app.state.ctx
    return ctx


def note(request: Request, **fields: Any) -> None:
    """Facts for the access log line (ids and codes only)."""
    request.scope.setdefault("state", {}).update(fields)


def refusal(exc: Refused) -> ApiError:
    """A refusal as the API error a client sees (status, code, detail, Retry-After)."""
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after is not None else None
    return ApiError(STATUS[exc.code], exc.code, exc.detail, headers)


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
