"""JSON error responses: every refusal is `{"error": code, "detail": ...}` with the right status."""

from __future__ import annotations

import json
from typing import Any

from starlette.responses import Response


class ApiError(Exception):
    """Raised inside a route; the app turns it into a JSON error response."""

    def __init__(self, status: int, code: str, detail: Any = None, headers: dict[str, str] | None = None) -> None:
        super().__init__(f"{status} {code}: {detail}")
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = headers or {}


def error_body(code: str, detail: Any = None) -> bytes:
    return json.dumps({"error": code, "detail": detail}, separators=(",", ":")).encode()


def error_response(status: int, code: str, detail: Any = None, headers: dict[str, str] | None = None) -> Response:
    return Response(error_body(code, detail), status_code=status, media_type="application/json", headers=headers)


async def send_error(
    send: Any, status: int, code: str, detail: Any = None, headers: dict[str, str] | None = None
) -> None:
    """Send a JSON error straight through ASGI (used by the pure ASGI limit classes)."""
    body = error_body(code, detail)
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})
