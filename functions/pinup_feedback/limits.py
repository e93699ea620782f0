"""Pure ASGI guards that run before any route: Host (421), body size (413), slow bodies (408),
origin (403); and the JSON nesting limit the routes apply (400).

The size limit is enforced while the body streams in: a lying or absent Content-Length cannot
make the app buffer more than `max_body` bytes, and a body that stops short of its
Content-Length cannot hold a connection for longer than `body_timeout` seconds.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import send_error

BODY_METHODS = {"POST", "PUT", "PATCH"}


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


class BodyRefused(Exception):
    """Raised inside a guarded `receive`: the JSON error to answer with, if nothing was sent yet."""

    def __init__(self, status: int, code: str, detail: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail, self.headers = status, code, detail, headers


class BodyGuard:
    """A guard on the body of POST/PUT/PATCH requests: `guard` wraps each request's `receive`.

    When the wrapped `receive` raises BodyRefused before the response has started, the guard
    answers with that error; once the app has started its response, the error propagates.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def refuse_early(self, scope: Scope) -> BodyRefused | None:
        """An error to answer with before the app runs (from the headers alone), or None."""
        return None

    def guard(self, receive: Receive) -> Receive:
        raise NotImplementedError

    def guard_for(self, scope: Scope, receive: Receive) -> Receive:
        """`guard` for this request (a guard whose limits depend on the route picks them here)."""
        return self.guard(receive)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in BODY_METHODS:
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            refused = self.refuse_early(scope)
            if refused is not None:
                raise refused
            await self.app(scope, self.guard_for(scope, receive), tracking_send)
        except BodyRefused as exc:
            if started:
                raise
            await send_error(send, exc.status, exc.code, exc.detail, exc.headers)


class BodyLimit(BodyGuard):
    """413 when the body is (declared or found to be) over `max_body` bytes."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        super().__init__(app)
        self.max_body = max_body

    def too_large(self) -> BodyRefused:
        # Connection: close, or a sender that keeps trickling the refused body keeps the connection
        detail = f"body is over {self.max_body} bytes"
        return BodyRefused(413, "payload_too_large", detail, {"Connection": "close"})

    def refuse_early(self, scope: Scope) -> BodyRefused | None:
        declared = header(scope, b"content-length")
        if declared is not None and declared.strip().isdigit() and int(declared) > self.max_body:
            return self.too_large()
        return None

    def guard(self, receive: Receive) -> Receive:
        seen = 0

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise self.too_large()
            return message

        return limited_receive


def same_origin(scope: Scope, origin: str) -> bool:
    """The Origin names this very server: same scheme, host and port, and nothing else."""
    host = header(scope, b"host")
    if not host:
        return False
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    if parts.path or parts.query or parts.fragment or "@" in parts.netloc:
        return False
    return parts.scheme.lower() == str(scope.get("scheme", "http")).lower() and parts.netloc.lower() == host.lower()


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


# --- Host allow-list (local server only) ------------------------------------------------------
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")


def split_host(value: str) -> tuple[str, int | None] | None:
    """`name[:port]` (IPv6 in brackets) -> (lowercase name, port or None); None when malformed."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]") + 1
        name, rest = value[:end], value[end:]
    else:
        name, colon, port = value.partition(":")
        rest = colon + port
    if not name or name == "[" or any(c in name for c in "/\\@ ?#"):
        return None
    if not rest:
        return name, None
    if rest[0] != ":" or not rest[1:].isdigit() or len(rest) > 6:
        return None
    return name, int(rest[1:])


class HostGuard:
    """421 unless the Host header names this server: loopback names or `allowed`, at our port.

    A DNS-rebinding page reaches 127.0.0.1 under its own name (`attacker.example:PORT`); it
    cannot make the browser send one of ours, so checking Host closes that door for every route,
    the site files included. An allowed entry without a port matches our port (or no port, for a
    proxy in front); with a port it must match exactly; `*` turns the check off.
    """

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...] = ()) -> None:
        self.app = app
        self.allow_any = "*" in allowed
        self.names: set[str] = set(LOOPBACK_HOSTS)
        self.exact: set[tuple[str, int]] = set()
        self.proxied: set[str] = set()
        for entry in allowed:
            parsed = split_host(entry) if entry != "*" else None
            if parsed is None:
                continue
            name, port = parsed
            if port is None and name in LOOPBACK_HOSTS:
                continue  # already served at our port; a bare loopback name is no proxy
            if port is None:
                self.names.add(name)
                self.proxied.add(name)
            else:
                self.exact.add((name, port))

    def allowed(self, scope: Scope) -> bool:
        parsed = split_host(header(scope, b"host") or "")
        if parsed is None:
            return False
        name, port = parsed
        server = scope.get("server")
        our_port = int(server[1]) if server and server[1] is not None else None
        if port is None:
            return name in self.proxied or (name in self.names and our_port in (None, 80))
        return (name in self.names and port == our_port) or (name, port) in self.exact

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not self.allow_any and not self.allowed(scope):
            await send_error(
                send,
                421,
                "host_not_allowed",
                "this server answers only to its own names (pinup serve --allow-host adds one)",
            )
            return
        await self.app(scope, receive, send)


# --- slow bodies ------------------------------------------------------------------------------
class BodyDeadline(BodyGuard):
    """408 when a request body does not arrive within `timeout` seconds in total.

    uvicorn waits forever for a body shorter than its Content-Length; this bounds the wait (a
    deadline, not a per-chunk timeout, so a byte every few seconds does not keep it alive).
    Only until the body is complete: afterwards `receive` only reports a disconnect.
    """

    def __init__(self, app: ASGIApp, timeout: float) -> None:
        super().__init__(app)
        self.timeout = timeout

    def guard(self, receive: Receive) -> Receive:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        complete = False

        async def timed_receive() -> Message:
            nonlocal complete
            if complete:
                return await receive()
            try:
                # a timeout on this task, not wait_for: that wraps every receive in a task of its own
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                raise BodyRefused(
                    408, "request_timeout", f"the body did not arrive within {self.timeout:g}s", {"Connection": "close"}
                ) from None
            if message["type"] != "http.request" or not message.get("more_body", False):
                complete = True
            return message

        return timed_receive


#: the route that takes one image attachment as its body, and so has a limit of its own
ATTACHMENTS_PATH = "/api/attachments"


class BodyChecks(BodyGuard):
    """`BodyLimit` around `BodyDeadline` in one layer: one wrapper per request instead of two.

    An image upload (`ATTACHMENTS_PATH`) is bounded here at a few times what an attachment may be
    (`attachments.MAX_BYTES`): its route reads the image and refuses one over the limit by its name.
    Every other body keeps `max_body`."""

    def __init__(self, app: ASGIApp, max_body: int, timeout: float) -> None:
        super().__init__(app)
        self.limit, self.deadline = BodyLimit(app, max_body), BodyDeadline(app, timeout)
        from .attachments import MAX_BYTES

        self.upload_limit = BodyLimit(app, max(max_body, 4 * MAX_BYTES))

    def limit_for(self, scope: Scope) -> BodyLimit:
        return self.upload_limit if scope.get("path", "").endswith(ATTACHMENTS_PATH) else self.limit

    def refuse_early(self, scope: Scope) -> BodyRefused | None:
        return self.limit_for(scope).refuse_early(scope) or self.deadline.refuse_early(scope)

    def guard(self, receive: Receive) -> Receive:
        return self.deadline.guard(self.limit.guard(receive))

    def guard_for(self, scope: Scope, receive: Receive) -> Receive:
        return self.deadline.guard(self.limit_for(scope).guard(receive))


# --- JSON nesting ---------------------------------------------------------------------------
#: Deepest JSON a feedback body needs is 4 (body > pins > pin > box); leave room, refuse the rest.
MAX_JSON_DEPTH = 16


def too_deep(value: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    """True when `value` nests containers more than `limit` deep (iterative: no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False
