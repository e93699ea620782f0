"""Pure ASGI guards that run before any route: content type (415), body size (413), origin (403).

The size limit is enforced while the body streams in: a lying or absent Content-Length cannot
make the app buffer more than `max_body` bytes.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import send_error

BODY_METHODS = {"POST", "PUT", "PATCH"}


class BodyTooLarge(Exception):
    """Raised inside `receive` when the stream passes the limit."""


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


class RequireJSON:
    """415 unless a body-carrying /api/ request says Content-Type: application/json."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in BODY_METHODS and scope["path"].startswith("/api/"):
            ctype = (header(scope, b"content-type") or "").split(";")[0].strip().lower()
            if ctype != "application/json":
                await send_error(send, 415, "unsupported_media_type", "Content-Type must be application/json")
                return
        await self.app(scope, receive, send)


class BodyLimit:
    """413 when the body is (declared or found to be) over `max_body` bytes."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in BODY_METHODS:
            await self.app(scope, receive, send)
            return
        detail = f"body is over {self.max_body} bytes"
        declared = header(scope, b"content-length")
        if declared is not None and declared.strip().isdigit() and int(declared) > self.max_body:
            await send_error(send, 413, "payload_too_large", detail)
            return
        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise BodyTooLarge()
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if started:
                raise
            await send_error(send, 413, "payload_too_large", detail)


def same_origin(scope: Scope, origin: str) -> bool:
    host = header(scope, b"host")
    if not host:
        return False
    parts = urlsplit(origin)
    return parts.netloc.lower() == host.lower()


class OriginGuard:
    """403 for a state-changing request from a browser origin that is neither ours nor allowed.

    This is enforcement, not CORS headers: CORS headers come from exactly one place (Starlette's
    middleware locally, the API gateway when deployed); this check holds in both.
    """

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...]) -> None:
        self.app = app
        self.allow_any = "*" in allowed
        self.allowed = {o.lower() for o in allowed}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in BODY_METHODS and not self.allow_any:
            origin = header(scope, b"origin")
            if origin is not None and origin.lower() not in self.allowed and not same_origin(scope, origin):
                await send_error(send, 403, "origin_not_allowed", "this origin may not post here")
                return
        await self.app(scope, receive, send)
