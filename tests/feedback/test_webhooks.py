"""Webhooks against a real local receiver: signed JSON or Slack events, retries, never on the request path."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import closing
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from feedback_helpers import body
from lambda_process import closing_store_clients

from pinup.cli import cli
from pinup_feedback.lifecycle import Lifecycle
from pinup_feedback.store.base import iso_ts, now_utc
from pinup_feedback.store.file import FileStore
from pinup_feedback.webhooks import (
    SIGNATURE_HEADER,
    StoreWatcher,
    WebhookConfig,
    check_url,
    deliver,
    encode,
    make_config,
    slack_message,
)

ROOT = Path(__file__).resolve().parents[2]
PIN = {
    "id": "p1",
    "variant": "B",
    "note": "Logo <clipped> & small",
    "severity": "major",
    "box": {"x": 0, "y": 0, "w": 0.5, "h": 0.5},
}


class Receiver:
    """A local HTTP receiver: records every POST; can fail the first N or hold requests until released."""

    def __init__(self, fail_first: int = 0, hold: bool = False) -> None:
        self.got: queue.Queue[tuple[dict[str, str], bytes]] = queue.Queue()
        self.calls = 0
        self.fail_first = fail_first
        self.release = threading.Event()
        if not hold:
            self.release.set()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                data = self.rfile.read(int(self.headers.get("content-length", 0)))
                receiver.release.wait(30)
                receiver.calls += 1
                if receiver.calls <= receiver.fail_first:
                    self.send_response(500)
                    self.end_headers()
                    return
                receiver.got.put(({k.lower(): v for k, v in self.headers.items()}, data))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def next(self, timeout: float = 30) -> tuple[dict[str, str], dict[str, Any]]:
        headers, data = self.got.get(timeout=timeout)
        return headers, json.loads(data)

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture()
def store_clients(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """The S3 clients the stores made in the test, closed after it."""
    with closing_store_clients(monkeypatch) as made:
        yield made


@pytest.fixture()
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


def fast(url: str, **kw: Any) -> WebhookConfig:
    return WebhookConfig((url,), backoff=0.01, timeout=5, **kw)


@pytest.mark.parametrize(
    "url", ["ftp://example.com/x", "file:///etc/passwd", "javascript:alert(1)", "example.com", "http://", ""]
)
def test_only_http_urls_are_accepted(url: str) -> None:
    with pytest.raises(ValueError, match="http:// or https://"):
        check_url(url)


def test_config_checks() -> None:
    assert make_config(["https://hooks.example/a", "http://127.0.0.1:9/b"]).urls[1] == "http://127.0.0.1:9/b"
    with pytest.raises(ValueError, match="format"):
        make_config(["https://hooks.example/a"], fmt="xml")


def test_signature_is_the_hmac_of_the_body() -> None:
    event = {"event": "feedback.stored", "board": "hero", "round": 1, "id": "x", "action": "submitted", "items": []}
    raw, headers = encode(event, WebhookConfig(("http://h/",), secret="s3cret"))
    assert headers[SIGNATURE_HEADER] == "sha256=" + hmac.new(b"s3cret", raw, hashlib.sha256).hexdigest()
    assert SIGNATURE_HEADER not in encode(event, WebhookConfig(("http://h/",)))[1]


def test_slack_messages_escape_reviewer_text() -> None:
    event = {
        "event": "feedback.stored",
        "board": "hero",
        "round": 2,
        "id": "x",
        "action": "submitted",
        "items": [{"n": 4, "kind": "pin", "variant": "B", "status": "open", "text": "<!channel> & " + "x" * 300}],
    }
    text = slack_message(event)["text"]
    assert "&lt;!channel&gt; &amp; " in text and "<!channel>" not in text and text.endswith("…")
    assert text.startswith("pinup · board hero, round 2: feedback submitted\n• #4 pin on B (open): ")


def test_retries_with_backoff_then_logs_the_failure(caplog: pytest.LogCaptureFixture) -> None:
    flaky = Receiver(fail_first=2)
    try:
        assert deliver(flaky.url, b"{}", {"Content-Type": "application/json"}, fast(flaky.url)) is True
        assert flaky.calls == 3
    finally:
        flaky.close()
    down = Receiver(fail_first=100)
    sleeps: list[float] = []
    logger = logging.getLogger("pinup_feedback")
    logger.addHandler(caplog.handler)
    try:
        with caplog.at_level(logging.INFO, logger="pinup_feedback"):
            assert deliver(down.url, b"{}", {}, fast(down.url), sleep=sleeps.append) is False
    finally:
        logger.removeHandler(caplog.handler)
        down.close()
    assert down.calls == 4 and sleeps == [0.01, 0.02, 0.04]
    lines = [json.loads(r.getMessage()) for r in caplog.records if "webhook_failed" in r.getMessage()]
    line = lines[0]
    assert lines and all(x == line for x in lines)
    assert line["host"] == "127.0.0.1" and line["status"] == 500 and "/hook" not in json.dumps(line)


@pytest.mark.anyio
async def test_store_watcher_sends_submissions_and_item_changes(
    make_client, local_settings, store_dir, receiver: Receiver
) -> None:
    client = make_client(local_settings)
    store_dir.mkdir(parents=True, exist_ok=True)
    watcher = StoreWatcher(FileStore(store_dir), fast(receiver.url, secret="k"), interval=0.05).start()
    try:
        r = await client.post("/api/feedback", json=body(schemaVersion=2, pins=[PIN], comments={}, overall=None))
        assert r.status_code == 200
        headers, event = receiver.next()
        raw = json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode()
        assert headers[SIGNATURE_HEADER.lower()] == "sha256=" + hmac.new(b"k", raw, hashlib.sha256).hexdigest()
        assert event["event"] == "feedback.stored" and event["action"] == "submitted" and event["id"] == r.json()["id"]
        assert event["board"] == "hero" and event["round"] == 1
        assert [(i["n"], i["kind"], i["status"]) for i in event["items"]] == [(1, "pin", "open")]
        Lifecycle(FileStore(store_dir)).claim("hero", 1, actor="codex")  # as another process would
        _, change = receiver.next()
        assert change["event"] == "item.changed" and change["action"] == "claim"
        assert change["items"][0]["status"] == "in_progress" and change["id"] == r.json()["id"]
    finally:
        watcher.stop()
    assert receiver.got.empty()


def test_serve_refuses_a_non_http_webhook_before_serving(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    r = CliRunner().invoke(cli, ["serve", str(tmp_path / "ws"), "--no-open", "--webhook", "ftp://hooks.example/x"])
    assert r.exit_code == 2 and "--webhook" in r.output and "http:// or https://" in r.output
    assert not (tmp_path / "site").exists()


def test_pinup_serve_acknowledges_before_the_webhook_is_delivered(tmp_path: Path) -> None:
    """The receiver holds every request until the ack is in hand: delivery cannot be on the request path."""
    held = Receiver(hold=True)
    src = tmp_path / "ws"
    shutil.copytree(ROOT / "site_src", src, ignore=shutil.ignore_patterns(".pinup", "__pycache__"))
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "generator"), str(ROOT / "functions")]),
        "PINUP_WEBHOOK_SECRET": "from-env",
    }
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pinup",
            "serve",
            str(src),
            "--no-open",
            "--port",
            "0",
            "--timeout",
            "0",
            "--webhook",
            held.url,
            "--webhook-format",
            "slack",
        ],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        serve_json = tmp_path / "site" / "serve.json"
        deadline = time.monotonic() + 120
        while not serve_json.is_file() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        base = f"http://127.0.0.1:{json.loads(serve_json.read_text())['port']}"
        r = httpx.post(
            f"{base}/api/feedback",
            json={"schemaVersion": 1, "board": "trail-home", "round": 1, "preferred": "B", "overall": "Ship <it>"},
            timeout=30,
        )
        assert r.status_code == 200  # answered while the receiver still holds its request
        held.release.set()
        headers, message = held.next()
        assert message["text"].startswith("pinup · board trail-home, round 1: feedback submitted")
        assert "Ship &lt;it&gt;" in message["text"]
        assert headers[SIGNATURE_HEADER.lower()].startswith("sha256=")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        held.close()


# --- hosted: the notifier behind the S3 event notification -----------------------------------
def test_notifier_sends_records_and_item_changes_from_s3(
    moto_endpoint: str, monkeypatch: pytest.MonkeyPatch, receiver: Receiver, store_clients: list[Any]
) -> None:
    import boto3

    from pinup_feedback.notifier import handler
    from pinup_feedback.store.s3 import S3Store

    bucket = f"pinup-notify-{uuid.uuid4().hex[:10]}"
    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "PINUP_STORE": f"s3://{bucket}/team",
        "PINUP_ENDPOINT_URL": moto_endpoint,
        "PINUP_WEBHOOK_URLS": receiver.url,
        "PINUP_WEBHOOK_SECRET": "hosted-secret",
    }.items():
        monkeypatch.setenv(name, value)
    with closing(boto3.client("s3", endpoint_url=moto_endpoint, region_name="us-east-1")) as s3:
        s3.create_bucket(Bucket=bucket)
    store = S3Store(bucket, "team", endpoint_url=moto_endpoint)
    record = {
        "schemaVersion": 2,
        "board": "hero",
        "round": 1,
        "id": uuid.uuid4().hex,
        "kind": "final",
        "receivedAt": iso_ts(now_utc()),
        "clientHash": "0" * 16,
        "pins": [PIN],
        "comments": {"A": "busy"},
    }
    key = store.save(record)

    def s3_event(*keys: str) -> dict[str, Any]:
        return {"Records": [{"eventSource": "aws:s3", "s3": {"object": {"key": k}}} for k in keys]}

    claim_key = f"team/feedback/_claims/hero/r1/{'a' * 40}.json"
    assert handler(s3_event(key, claim_key, "team/boards/hero.json")) == {"sent": 1}
    headers, event = receiver.next()
    assert event["event"] == "feedback.stored" and [i["n"] for i in event["items"]] == [1, 2]
    assert (
        headers[SIGNATURE_HEADER.lower()]
        == "sha256="
        + hmac.new(
            b"hosted-secret", json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode(), hashlib.sha256
        ).hexdigest()
    )
    Lifecycle(store).resolve("hero", 2, "wont_fix", "by design")
    change_key = "team/feedback/_items/hero/e/0000000002/000001.json"
    slot_key = "team/feedback/_items/hero/n/0000000002.json"
    assert handler(s3_event(slot_key)) == {"sent": 0}
    bridge = {
        "source": "aws.s3",
        "detail-type": "Object Created",
        "detail": {"bucket": {"name": bucket}, "object": {"key": change_key}},
    }  # how the template wires it
    assert handler(bridge) == {"sent": 1}
    _, change = receiver.next()
    assert change["action"] == "resolve" and change["items"][0]["status"] == "wont_fix"
    monkeypatch.delenv("PINUP_WEBHOOK_URLS")
    assert handler(s3_event(key)) == {"sent": 0}
    assert receiver.got.empty()
