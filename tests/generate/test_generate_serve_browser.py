"""`pinup serve --generate` round trip in real Chromium against the fake OpenAI server.

A reviewer clicks "Totally different", the server generates the next round
itself (one request at a time), SSE progress shows on the board, and the same
tab reloads into round 2. A failing round shows an error with a retry button,
and the retry then succeeds.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI, Reply, chat_body, error_body, page_html

pytestmark = pytest.mark.browser
BOARD = "trail-home"


class Serve:
    """A `pinup serve --generate` subprocess and its captured stderr."""

    def __init__(self, workspace: Path, fake: FakeOpenAI) -> None:
        env = {**os.environ, "OPENAI_API_KEY": "sk-test-browser", "OPENAI_BASE_URL": fake.base_url}
        env.pop("PINUP_PRICES", None)
        self.site = workspace.parent / "site"
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "pinup",
                "serve",
                str(workspace),
                "--generate",
                "--no-open",
                "--port",
                "0",
                "--out",
                str(self.site),
                "--timeout",
                "0",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=workspace.parent,
        )
        self.stderr: list[str] = []
        self.port = 0
        started = threading.Event()

        def read_err() -> None:
            assert self.proc.stderr is not None
            with self.proc.stderr:  # closed at end of file, once serve has exited
                for line in self.proc.stderr:
                    self.stderr.append(line)
                    if line.startswith("SERVE_STARTED:"):
                        self.port = int(line.split("port=", 1)[1].split()[0])
                        started.set()

        def drain_out() -> None:
            assert self.proc.stdout is not None
            with self.proc.stdout:
                for _ in self.proc.stdout:
                    pass

        threading.Thread(target=read_err, daemon=True).start()
        threading.Thread(target=drain_out, daemon=True).start()
        if not started.wait(90):
            self.stop()
            raise AssertionError("pinup serve did not start:\n" + "".join(self.stderr))

    def url(self, board: str) -> str:
        return f"http://127.0.0.1:{self.port}/boards/{board}/index.html"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@pytest.fixture()
def serve(workspace: Path, fake_openai: FakeOpenAI) -> Iterator[Serve]:
    served = Serve(workspace, fake_openai)
    yield served
    served.stop()


def open_board(page, serve: Serve):  # type: ignore[no-untyped-def]
    page.goto(serve.url(BOARD))
    page.wait_for_selector("#regen-btn")
    page.evaluate("window.__sameTab = 'yes'")
    return page


def wait_progress(page, text: str) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_function(
        f"(document.querySelector('#progress-message')||{{}}).textContent.includes({json.dumps(text)})",
        timeout=60_000,
    )


def wait_round(page, n: int) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_function(f"document.body && document.body.dataset.round === '{n}'", timeout=60_000)


def test_totally_different_generates_and_reloads_in_the_same_tab(
    page,
    serve: Serve,
    fake_openai: FakeOpenAI,
    workspace: Path,
    artifacts_dir: Path,  # type: ignore[no-untyped-def]
) -> None:
    # slow enough that each progress step is visible in the page
    fake_openai.queue(*[Reply(body=chat_body(page_html(f"Round two {k}")), delay=1.0) for k in (1, 2, 3)])
    open_board(page, serve)
    assert page.evaluate("document.body.dataset.round") == "1"
    page.click(".regen-chiclet[data-action=different]")
    page.click("#regen-btn")
    wait_progress(page, "generating variant 2 of 3")  # streamed over SSE while the fake works
    wait_round(page, 2)
    assert page.evaluate("window.__sameTab") is None  # the page reloaded itself …
    assert page.evaluate("performance.getEntriesByType('navigation')[0].type") == "reload"  # … in this tab
    page.screenshot(path=str(artifacts_dir / "generate-round-2.png"), full_page=True)
    # the new round is on the page and its variants are the generated ones
    frames = page.eval_on_selector_all("iframe.variant-frame", "els => els.map(e => e.getAttribute('src') || '')")
    assert frames and all("round-2/variants/" in src for src in frames), frames
    variant = (serve.site / "boards" / BOARD / "round-2" / "variants" / "b.html").read_text()
    assert "Round two 2" in variant
    # one request at a time (the fake fixture also fails on overlap), each with its own direction
    bodies = fake_openai.bodies()
    assert len(bodies) == 3
    for k, body in enumerate(bodies, start=1):
        assert f"Make variant {k} of 3" in body["messages"][-1]["content"]
        assert "totally different" in body["messages"][-1]["content"]
    meta = json.loads((workspace / "boards" / BOARD / "round-2" / "meta.json").read_text())
    records = sorted((workspace / ".pinup" / "feedback" / BOARD).glob("*-regenerate-*.json"))
    assert len(records) == 1 and meta["sourceFeedbackId"] == json.loads(records[0].read_text())["id"]


def test_failure_shows_an_error_with_retry_then_the_retry_works(
    page,
    serve: Serve,
    fake_openai: FakeOpenAI,
    workspace: Path,  # type: ignore[no-untyped-def]
) -> None:
    fake_openai.queue(Reply(403, error_body("This key may not use the model", "model_not_allowed")))
    open_board(page, serve)
    page.click(".more-like-this[data-variant=B]")
    page.click("#regen-btn")
    page.wait_for_selector("#retry-regen-btn:not([hidden])", timeout=60_000)
    message = page.text_content("#progress-message") or ""
    assert "permission denied" in message and "Your feedback is saved" in message
    assert page.evaluate("document.body.dataset.round") == "1"
    assert not (workspace / "boards" / BOARD / "round-2").exists()
    page.click("#retry-regen-btn")
    wait_round(page, 2)
    records = sorted((workspace / ".pinup" / "feedback" / BOARD).glob("*-regenerate-*.json"))
    assert len(records) == 2  # the first request is kept; the retry is a second record
    assert all(json.loads(r.read_text())["regenerateAction"] == "more_like_B" for r in records)
    assert len(fake_openai.bodies()) == 4  # the failed call + three variants
    assert '<untrusted_base_html variant="B">' in fake_openai.bodies()[-1]["messages"][-1]["content"]
