"""Webhooks: a JSON event for each stored submission and each item change, POSTed off the request path.

Why a watcher instead of a hook: submissions are stored by the app, but item changes come from
the CLI, the MCP server and other processes. Watching the store (records and the item log) sees
them all, and nothing a receiver does can delay or fail an acknowledgement. Delivery retries
with backoff, then logs the failure (the URL's host and the status only, never the body).

Hosted, the same events are built by `pinup_feedback.notifier` from S3 event notifications.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from .logs import log_event

SIGNATURE_HEADER = "X-Pinup-Signature"
FORMATS = ("json", "slack")
MAX_TEXT = 200


@dataclass(frozen=True)
class WebhookConfig:
    """Where to POST events, how to sign them, and in which shape."""

    urls: tuple[str, ...]
    secret: str | None = None
    format: str = "json"
    attempts: int = 4
    backoff: float = 0.5
    timeout: float = 5.0


def check_url(url: str) -> str:
    """An http(s) URL with a host, or ValueError (refused at start, never at delivery)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"webhook URL {url!r} must be an http:// or https:// URL with a host")
    return url.strip()


def make_config(urls: list[str] | tuple[str, ...], secret: str | None = None, fmt: str = "json") -> WebhookConfig:
    if fmt not in FORMATS:
        raise ValueError(f"webhook format must be one of: {', '.join(FORMATS)}")
    return WebhookConfig(tuple(check_url(u) for u in urls), secret or None, fmt)


def config_from_env(env: Mapping[str, str]) -> WebhookConfig | None:
    """PINUP_WEBHOOK_URLS (comma separated), PINUP_WEBHOOK_SECRET, PINUP_WEBHOOK_FORMAT."""
    urls = [u for u in (env.get("PINUP_WEBHOOK_URLS") or "").split(",") if u.strip()]
    if not urls:
        return None
    return make_config(urls, env.get("PINUP_WEBHOOK_SECRET"), env.get("PINUP_WEBHOOK_FORMAT") or "json")


# --- events ----------------------------------------------------------------------------------
def _brief(item: Mapping[str, Any]) -> dict[str, Any]:
    return {k: item.get(k) for k in ("n", "kind", "variant", "severity", "status", "text", "summary")}


def submission_event(record: Mapping[str, Any], items: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A stored record: `action` is submitted or regenerate; `items` are the numbered items it made."""
    return {
        "event": "feedback.stored",
        "board": record.get("board"),
        "round": record.get("round"),
        "id": record.get("id"),
        "action": "regenerate" if record.get("kind") == "regenerate" else "submitted",
        "items": [_brief(i) for i in items],
    }


def item_event(board: str, change: Mapping[str, Any], item: Mapping[str, Any]) -> dict[str, Any]:
    """An item changed: `action` is claim, resolve or reopen; `items` holds the item as it is now."""
    return {
        "event": "item.changed",
        "board": board,
        "round": item.get("round"),
        "id": item.get("feedbackId"),
        "action": change.get("action"),
        "items": [_brief(item)],
    }


def _slack_escape(text: object) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def slack_message(event: Mapping[str, Any]) -> dict[str, Any]:
    """A Slack incoming-webhook message; reviewer text is escaped and shortened."""
    head = f"pinup · board {_slack_escape(event['board'])}, round {event.get('round')}: " + (
        "another round was requested"
        if event["action"] == "regenerate"
        else "feedback submitted"
        if event["event"] == "feedback.stored"
        else f"item {event['action']}"
    )
    lines = [head]
    for item in event["items"]:
        text = " ".join(str(item.get("text") or "").split())
        short = text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"
        where = f" on {_slack_escape(item['variant'])}" if item.get("variant") else ""
        lines.append(f"• #{item.get('n')} {item.get('kind')}{where} ({item.get('status')}): {_slack_escape(short)}")
    return {"text": "\n".join(lines)}


def encode(event: Mapping[str, Any], config: WebhookConfig) -> tuple[bytes, dict[str, str]]:
    """The body and headers; with a secret, `X-Pinup-Signature: sha256=<HMAC-SHA256 of the body>`."""
    payload = slack_message(event) if config.format == "slack" else event
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
    headers = {"Content-Type": "application/json", "User-Agent": "pinup-webhooks"}
    if config.secret:
        digest = hmac.new(config.secret.encode(), body, hashlib.sha256).hexdigest()
        headers[SIGNATURE_HEADER] = f"sha256={digest}"
    return body, headers


def deliver(
    url: str, body: bytes, headers: dict[str, str], config: WebhookConfig, sleep: Callable[[float], None] = time.sleep
) -> bool:
    """POST with retries and exponential backoff; a 2xx is success, anything else is retried."""
    status: object = None
    for attempt in range(config.attempts):
        request = urllib.request.Request(url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=config.timeout) as response:  # noqa: S310 - checked http(s)
                status = response.status
                if 200 <= response.status < 300:
                    return True
        except urllib.error.HTTPError as exc:
            status = exc.code
        except (urllib.error.URLError, OSError) as exc:
            status = type(exc).__name__
        if attempt + 1 < config.attempts:
            sleep(config.backoff * 2**attempt)
    log_event("webhook_failed", host=urlsplit(url).hostname, status=status, attempts=config.attempts)
    return False


def send(event: Mapping[str, Any], config: WebhookConfig) -> None:
    body, headers = encode(event, config)
    for url in config.urls:
        deliver(url, body, headers, config)


# --- local: watch the store --------------------------------------------------------------------
class StoreWatcher:
    """Polls a store's records and item log; every new one becomes an event, sent in this thread."""

    def __init__(self, store: Any, config: WebhookConfig, *, interval: float = 0.5) -> None:
        from .lifecycle import Lifecycle

        self.store = store
        self.config = config
        self.interval = interval
        self.lifecycle = Lifecycle(store)
        self._stop = threading.Event()
        self._records = {item.key for item in store.list()}
        self._changes = set(self._change_names())
        self._thread = threading.Thread(target=self._run, name="pinup-webhooks", daemon=True)

    def _change_names(self) -> list[str]:
        return [n for n in self.lifecycle.log.names("") if n.count("/") == 3 and n.split("/")[1] == "e"]

    def start(self) -> StoreWatcher:
        self._thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Stop after one last pass, so events already stored are still sent."""
        self._stop.set()
        self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            stopping = self._stop.wait(self.interval)
            try:
                self.poll()
            except Exception as exc:  # a broken pass must not end the watcher
                log_event("webhook_watch_failed", error=type(exc).__name__)
            if stopping:
                return

    def poll(self) -> None:
        for stored in [i for i in self.store.list() if i.key not in self._records]:
            self._records.add(stored.key)
            record = self.store.read(stored.key)
            numbers = self.lifecycle.number(record)
            items = [i.public() for i in self.lifecycle.items(stored.board) if i.n in numbers.values()]
            send(submission_event(record, items), self.config)
        for name in sorted(set(self._change_names()) - self._changes):
            self._changes.add(name)
            change = self.lifecycle.log.read(name)
            if change is None:
                continue
            board = name.split("/")[0]
            item = self.lifecycle.item(board, int(change["n"]))
            send(item_event(board, change, {**item.public(), "status": change["status"]}), self.config)
