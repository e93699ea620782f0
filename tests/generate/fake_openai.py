"""A fake OpenAI-compatible server for the generation tests.

Starlette on 127.0.0.1 (uvicorn in a thread, a free port). It records every
request, answers from a per-test script (or a default that makes valid HTML or
PNGs), and notes any overlap: two requests in flight at once fail the test.
A delayed reply polls for the client's disconnect, so a client-side timeout ends
that request instead of being counted as an overlap.
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

CHAT = "/v1/chat/completions"
IMAGES = "/v1/images/generations"


@dataclass
class Reply:
    """One scripted answer."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass
class Recorded:
    path: str
    body: dict[str, Any]
    headers: dict[str, str]
    started: float
    finished: float | None = None
    disconnected: bool = False


def free_port() -> int:
    """A free TCP port on 127.0.0.1 (same as tests/conftest.py's helper)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def chat_body(
    text: str, prompt_tokens: int = 1000, completion_tokens: int = 2000, model: str = "gpt-4.1-mini"
) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def png_bytes(color: tuple[int, int, int] = (40, 120, 90)) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (16, 16), color).save(buf, format="PNG")
    return buf.getvalue()


def image_body(png: bytes | None = None, input_tokens: int = 50, output_tokens: int = 4000) -> dict[str, Any]:
    return {
        "created": int(time.time()),
        "data": [{"b64_json": base64.b64encode(png or png_bytes()).decode("ascii")}],
        "usage": {
            "input_tokens": input_tokens,
            "output_tokens": output_tokens,
            "total_tokens": input_tokens + output_tokens,
            "input_tokens_details": {"image_tokens": 0, "text_tokens": input_tokens},
        },
    }


def error_body(message: str, code: str | None = None, type_: str = "invalid_request_error") -> dict[str, Any]:
    return {"error": {"message": message, "type": type_, "code": code, "param": None}}


def page_html(title: str) -> str:
    safe = title.replace("<", "&lt;").replace(">", "&gt;")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>' + safe + "</title>"
        "<style>:root{--c:#2f6f4e}body{font-family:system-ui,sans-serif;color:var(--c)}</style></head>"
        "<body><main><h1>" + safe + "</h1><p>Log a sighting.</p></main></body></html>"
    )


def default_reply(path: str, body: dict[str, Any]) -> Reply:
    """Valid output that names the variant it was asked for."""
    if path == IMAGES:
        return Reply(body=image_body())
    prompt = body["messages"][-1]["content"]
    marker = prompt.rsplit("Make variant ", 1)[-1].split(".", 1)[0] if "Make variant " in prompt else "variant"
    return Reply(body=chat_body(page_html(f"Fake {marker}")))


class FakeOpenAI:
    """The server, its script and its record."""

    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.script: deque[Reply | Callable[[str, dict[str, Any]], Reply]] = deque()
        self.overlaps: list[str] = []
        self._inflight = 0
        self._lock = threading.Lock()
        self.port = 0
        self._server: Any = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def queue(self, *replies: Reply | Callable[[str, dict[str, Any]], Reply]) -> None:
        self.script.extend(replies)

    def bodies(self, path: str = CHAT) -> list[dict[str, Any]]:
        return [r.body for r in self.requests if r.path == path]

    def app(self) -> Any:
        from starlette.applications import Starlette
        from starlette.requests import Request
        from starlette.responses import JSONResponse, Response
        from starlette.routing import Route

        async def handle(request: Request) -> Response:
            raw = await request.body()
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {"_raw": raw.decode("utf-8", "replace")}
            rec = Recorded(request.url.path, body, {k.lower(): v for k, v in request.headers.items()}, time.monotonic())
            with self._lock:
                self._inflight += 1
                if self._inflight > 1:
                    self.overlaps.append(f"{rec.path} started while {self._inflight - 1} request(s) were in flight")
                self.requests.append(rec)
                step = self.script.popleft() if self.script else None
            try:
                reply = step(rec.path, body) if callable(step) else step or default_reply(rec.path, body)
                deadline = time.monotonic() + reply.delay
                while time.monotonic() < deadline:
                    if await request.is_disconnected():
                        rec.disconnected = True
                        return Response(status_code=499)
                    await asyncio.sleep(0.02)
                if reply.body is None:
                    return Response(status_code=reply.status, headers=reply.headers)
                return JSONResponse(reply.body, status_code=reply.status, headers=reply.headers)
            finally:
                rec.finished = time.monotonic()
                with self._lock:
                    self._inflight -= 1

        return Starlette(routes=[Route(CHAT, handle, methods=["POST"]), Route(IMAGES, handle, methods=["POST"])])

    def start(self, port: int) -> None:
        import uvicorn

        self.port = port
        # A long keep-alive: a connection the client leaves open stays open (see open_connections).
        config = uvicorn.Config(
            self.app(), host="127.0.0.1", port=port, log_level="warning", lifespan="off", timeout_keep_alive=60
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("fake OpenAI server did not start")
            time.sleep(0.02)

    def open_connections(self, settle: float = 10) -> int:
        """How many client connections are still open, once closed ones have had `settle` seconds to go."""
        deadline = time.monotonic() + settle
        while self._server.server_state.connections and time.monotonic() < deadline:
            time.sleep(0.02)
        return len(self._server.server_state.connections)

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
