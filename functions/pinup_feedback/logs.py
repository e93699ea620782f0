"""Structured JSON request logs: request id, board, status, latency. Never feedback text or raw IPs."""

from __future__ import annotations

import hmac
import json
import logging
import os
import sys
import time
import uuid
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

logger = logging.getLogger("pinup_feedback")


def configure_logging(level: int = logging.INFO) -> None:
    """One stderr handler writing the JSON lines as they are (stdout belongs to `pinup serve`)."""
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
        logger.propagate = False
    logger.setLevel(level)


def log_event(event: str, **fields: Any) -> None:
    """One JSON line. Callers pass ids, codes and numbers only, never user text."""
    if logger.isEnabledFor(logging.INFO):
        logger.info(json.dumps({"event": event, **fields}, separators=(",", ":"), default=str))


class ClientHasher:
    """Salted, truncated HMAC of a client address: enough to rate-limit and tell reviewers apart."""

    def __init__(self, salt: str | None) -> None:
        self._salt = salt.encode() if salt else os.urandom(32)
        self._known: dict[str | None, str] = {}

    def __call__(self, address: str | None) -> str:
        """Remembered per address (at most 4,096): OpenSSL's HMAC lets go of the GIL, and the
        event loop then waits for the store's threads to hand it back, on every request."""
        known = self._known.get(address)
        if known is None:
            if len(self._known) >= 4096:
                self._known.clear()
            known = self._known[address] = hmac.digest(self._salt, (address or "-").encode(), "sha256").hex()[:16]
        return known


def client_address(scope: Scope) -> str | None:
    client = scope.get("client")
    return str(client[0]) if client else None


def request_id(scope: Scope) -> str:
    """The gateway's request id when Mangum passes one, else an x-request-id header, else a new one."""
    event = scope.get("aws.event") or {}
    ctx = event.get("requestContext") or {}
    rid = ctx.get("requestId")
    if not rid:
        for name, value in scope.get("headers", ()):
            if name == b"x-request-id":
                rid = value.decode("latin-1")[:64]
                break
    return str(rid or uuid.uuid4().hex)


class AccessLog:
    """Pure ASGI: one JSON line per request; routes add `board`/`feedback_id` to scope['state']."""

    def __init__(self, app: ASGIApp, hasher: ClientHasher, enabled: bool = True) -> None:
        self.app = app
        self.hasher = hasher
        self.enabled = enabled

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.enabled:
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        rid = request_id(scope)
        scope.setdefault("state", {})["request_id"] = rid
        status = 500

        async def send_wrapper(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", rid.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            state = scope.get("state", {})
            if scope["path"].startswith("/api/") or status >= 400:
                log_event(
                    "request",
                    request_id=rid,
                    method=scope.get("method"),
                    path=scope["path"][:200],
                    board=state.get("board"),
                    status=status,
                    latency_ms=round((time.perf_counter() - start) * 1000, 2),
                    client=self.hasher(client_address(scope)),
                    feedback_id=state.get("feedback_id"),
                    error=state.get("error"),
                )
