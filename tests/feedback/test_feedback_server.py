"""A real uvicorn server on 127.0.0.1: feedback over TCP, SSE state changes, clean shutdown."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from feedback_helpers import RELOAD_TOKEN, body, stored
from package_helpers import bound_port

from pinup_feedback.app import create_app
from pinup_feedback.server import FeedbackServer
from pinup_feedback.settings import Settings


@pytest.fixture()
def live(local_settings: Settings) -> Iterator[tuple[str, FeedbackServer]]:
    app = create_app(local_settings.model_copy(update={"sse_heartbeat": 0.2}))
    server = FeedbackServer.for_app(app, port=0)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{bound_port(server)}", server
    server.should_exit = True
    thread.join(30)
    assert not thread.is_alive(), "server did not stop (an SSE stream kept it open?)"


def read_events(response: httpx.Response, count: int, out: list[dict], heartbeats: list[int]) -> None:
    for line in response.iter_lines():
        if line.startswith("data: "):
            out.append(json.loads(line[6:]))
            if len(out) >= count:
                return
        elif line.startswith(": heartbeat"):
            heartbeats.append(1)


def test_real_server_feedback_and_sse(live, store_dir: Path, site: Path) -> None:
    url, server = live
    assert httpx.get(f"{url}/healthz").json()["ok"] is True
    assert "<h1>hero</h1>" in httpx.get(f"{url}/boards/hero/").text
    events: list[dict] = []
    beats: list[int] = []
    with httpx.Client(base_url=url, timeout=10) as client:
        with client.stream("GET", "/api/events", params={"board": "hero"}) as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            reader = threading.Thread(target=read_events, args=(stream, 4, events, beats), daemon=True)
            reader.start()
            deadline = time.monotonic() + 10
            while not events:
                assert time.monotonic() < deadline
                time.sleep(0.02)
            r = client.post(
                "/api/feedback", json=body(regenerated=True, regenerateAction="different"), headers={"origin": url}
            )
            assert r.status_code == 200, r.text
            r = client.post(
                "/api/reload",
                json={"html": "boards/hero/index.html"},
                headers={"authorization": f"Bearer {RELOAD_TOKEN}"},
            )
            assert r.status_code == 200
            r = client.post("/api/feedback", json=body())
            assert r.status_code == 200
            reader.join(10)
    assert [e["status"] for e in events] == ["serving", "regenerating", "serving", "done"]
    assert events[2].get("reload") is True and all(e["board"] == "hero" for e in events)
    assert [rec["kind"] for rec in stored(store_dir)] == ["regenerate", "final"]


def test_sse_heartbeats_and_clean_end_on_shutdown(live) -> None:
    url, server = live
    events: list[dict] = []
    beats: list[int] = []
    finished = threading.Event()

    def listen() -> None:
        with httpx.stream("GET", f"{url}/api/events?board=cards", timeout=30) as response:
            read_events(response, 99, events, beats)
        finished.set()  # the stream ended normally (no exception)

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while len(beats) < 2:
        assert time.monotonic() < deadline, "no heartbeats"
        time.sleep(0.05)
    assert events[0] == {"board": "cards", "status": "serving"}
    server.should_exit = True
    assert finished.wait(15), "SSE stream did not end on shutdown"


def test_progress_published_from_a_worker_thread(live) -> None:
    url, server = live
    events: list[dict] = []
    with httpx.stream("GET", f"{url}/api/events?board=hero", timeout=10) as response:
        reader = threading.Thread(target=read_events, args=(response, 3, events, []), daemon=True)
        reader.start()
        while not events:
            time.sleep(0.02)
        boards = server.boards

        def work() -> None:
            boards.set_status("hero", "regenerating", message="generating")
            boards.publish("hero", {"progress": {"done": 1, "total": 3}})

        threading.Thread(target=work).start()
        reader.join(10)
    assert events[1]["status"] == "regenerating"
    assert events[2]["progress"] == {"done": 1, "total": 3} and events[2]["message"] == "generating"
