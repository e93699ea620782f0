"""Progress after a regenerate, driven from inside the server (as `serve --generate` does)."""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from boards_helpers import wait_until

from pinup.serve.server import ServeOptions, ServeSession
from pinup.serve.workspace import build, resolve

pytestmark = pytest.mark.browser
BOARD = "trail-home"


def run_session(workspace: Path, **options: Any) -> tuple[ServeSession, threading.Thread]:
    ws = resolve(workspace)
    build(ws)
    session = ServeSession(
        ws, ServeOptions(open_browser=False, timeout=0, **options), stdout=io.StringIO(), stderr=io.StringIO()
    )
    thread = threading.Thread(target=session.run, daemon=True)
    thread.start()
    assert wait_until(lambda: session.info is not None, timeout=30)
    return session, thread


@pytest.fixture()
def session(workspace: Path) -> Iterator[ServeSession]:
    s, thread = run_session(workspace)
    yield s
    s.stop(0)
    thread.join(15)


def board_url(s: ServeSession) -> str:
    assert s.info is not None
    return f"http://127.0.0.1:{s.info.port}/boards/{BOARD}/index.html"


def records(s: ServeSession) -> list[str]:
    folder = s.ws.store / BOARD
    return sorted(p.name for p in folder.glob("*.json")) if folder.is_dir() else []


@pytest.mark.parametrize("query", ["", "?noSSE=1&pollInterval=200"], ids=["sse", "polling"])
def test_progress_messages_error_and_retry(page, session: ServeSession, artifacts_dir: Path, query: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(board_url(session) + query)
    page.click(".more-like-this[data-variant=C]")
    page.click("#regen-btn")
    page.wait_for_function("() => document.querySelector('#status').textContent === 'regenerate'")
    page.wait_for_function("() => document.querySelector('#progress-message').textContent.includes('requested')")
    boards = session._boards
    boards.set_status(BOARD, "regenerating", message="generating variant 2 of 3", progress={"done": 1, "total": 3})
    page.wait_for_function(
        "() => document.querySelector('#progress-message').textContent === 'generating variant 2 of 3'"
    )
    assert abs(page.eval_on_selector("#progress-bar", "p => p.value") - 1 / 3) < 0.01
    # how serve --generate reports a failure: one state change that carries the error
    boards.set_status(BOARD, "serving", message="generation failed", error="the model refused <b>this</b>")
    page.wait_for_selector("#progress-view.is-error")
    assert "the model refused <b>this</b>" in page.inner_text("#progress-message")  # text, not markup
    assert page.locator("#retry-regen-btn").is_visible()
    if not query:
        page.screenshot(path=str(artifacts_dir / "boards-generation-failed.png"), full_page=True)
    assert len(records(session)) == 1
    page.click("#retry-regen-btn")
    assert wait_until(lambda: len(records(session)) == 2)
    page.wait_for_selector("#progress-view:not(.is-error)")
    assert page.locator("#retry-regen-btn").is_hidden()


def test_a_poll_answered_after_the_retry_does_not_bring_the_error_back(page, session: ServeSession) -> None:  # type: ignore[no-untyped-def]
    """A progress poll asked before Retry but answered after it is stale: the error stays gone."""
    page.goto(board_url(session) + "?noSSE=1&pollInterval=200")
    page.click(".more-like-this[data-variant=C]")
    page.click("#regen-btn")
    page.wait_for_function("() => document.querySelector('#status').textContent === 'regenerate'")
    session._boards.set_status(BOARD, "serving", message="generation failed", error="the model refused")
    page.wait_for_selector("#progress-view.is-error")
    assert session.info is not None
    progress = f"http://127.0.0.1:{session.info.port}/api/progress?board={BOARD}"
    stale = json.loads(page.evaluate(f"() => fetch({json.dumps(progress)}).then(r => r.text())"))
    assert stale["error"] == "the model refused"  # what the server says until the retry is stored
    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append(route)

    page.route("**/api/progress*", hold)
    while not held:  # a poll is on its way: hold its answer
        page.wait_for_timeout(20)
    asked_before = len(held)
    page.click("#retry-regen-btn")
    assert wait_until(lambda: len(records(session)) == 2)
    page.wait_for_selector("#progress-view:not(.is-error)")
    for route in held[:asked_before]:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(stale))
    page.unroute("**/api/progress*", hold)  # the polls asked since go on to the server
    page.wait_for_timeout(600)  # three poll intervals: the stale answers have been handled
    assert "is-error" not in (page.get_attribute("#progress-view", "class") or "")
    assert page.locator("#retry-regen-btn").is_hidden()


def test_generate_hook_round_trip(page, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    """A stand-in for `serve --generate`: the hook writes round 2, rebuilds and reloads the board."""
    calls: list[dict[str, Any]] = []
    holder: dict[str, ServeSession] = {}

    def on_regenerate(record: dict[str, Any], boards: Any) -> None:
        calls.append(record)

        def work() -> None:
            s = holder["s"]
            boards.publish(record["board"], {"message": "generating variant 1 of 1", "progress": 0.5})
            board_dir = s.ws.src / "boards" / BOARD
            (board_dir / "round-2" / "variants").mkdir(parents=True)
            (board_dir / "round-2" / "variants" / "a.html").write_text("<h1>Round 2</h1>")
            (board_dir / "board.yaml").write_text(
                "title: Mossbook home screen\nround: 2\nvariants:\n"
                "  - id: A\n    label: Only one\n    file: round-2/variants/a.html\n"
            )
            build(s.ws)
            boards.reload(record["board"])

        threading.Thread(target=work, daemon=True).start()

    s, thread = run_session(workspace, on_regenerate=on_regenerate)
    holder["s"] = s
    try:
        page.goto(board_url(s))
        page.fill("#regen-custom", "one calmer variant")
        page.click("#regen-btn")
        page.wait_for_function("() => document.body.dataset.round === '2'", timeout=30000)
        assert [(c["regenerateAction"], c.get("regenerateText")) for c in calls] == [("custom", "one calmer variant")]
        assert page.locator(".variant").count() == 1
        page.check("input[name=preferred][value=A]")
        page.click("#submit-btn")
        page.wait_for_function("() => document.querySelector('#status').textContent === 'submitted'")
        names = records(s)
        assert [n.split("-")[1] for n in names] == ["regenerate", "final"]
    finally:
        s.stop(0)
        thread.join(15)


@pytest.mark.parametrize("query", ["", "?noSSE=1&pollInterval=200"], ids=["sse", "polling"])
def test_reload_before_the_page_listens(page, workspace: Path, query: str) -> None:  # type: ignore[no-untyped-def]
    """The next round is loaded before the page subscribes: it must still reload itself."""
    holder: dict[str, ServeSession] = {}

    def on_regenerate(record: dict[str, Any], boards: Any) -> None:  # synchronous: done before the 200
        s = holder["s"]
        board_dir = s.ws.src / "boards" / BOARD
        (board_dir / "round-2" / "variants").mkdir(parents=True)
        (board_dir / "round-2" / "variants" / "b.html").write_text("<h1>Round 2</h1>")
        (board_dir / "board.yaml").write_text(
            "title: Quick round\nround: 2\nvariants:\n  - id: B\n    file: round-2/variants/b.html\n"
        )
        build(s.ws)
        boards.reload(record["board"])

    s, thread = run_session(workspace, on_regenerate=on_regenerate)
    holder["s"] = s
    try:
        page.goto(board_url(s) + query)
        page.click(".regen-chiclet[data-action=different]")
        page.click("#regen-btn")
        page.wait_for_function("() => document.body.dataset.round === '2'", timeout=30000)
        assert page.locator(".variant").count() == 1
    finally:
        s.stop(0)
        thread.join(15)
