"""Hosted webhooks: a small Lambda behind S3 "Object Created" events on `<prefix>/feedback/`.

Why a separate function: the feedback endpoint acknowledges as soon as S3 has the record; this
function runs afterwards, on its own, so a slow or failing receiver never touches a reviewer's
request. A new record becomes a `feedback.stored` event (its items numbered first), a new item
change (`_items/<board>/e/...`) an `item.changed` event. Claims and number slots are ignored.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import unquote_plus

from .lifecycle import Lifecycle
from .logs import log_event
from .store import FeedbackStore, open_store
from .store.base import ITEMS_DIR
from .webhooks import WebhookConfig, config_from_env, item_event, send, submission_event


def notify(store: FeedbackStore, config: WebhookConfig, key: str) -> str:
    """Send the event for one created object key; returns what it was (for logs and tests)."""
    base = store._key("feedback") + "/"  # type: ignore[attr-defined]  # S3 stores only: S3 events call this
    if not key.startswith(base):
        return "ignored"
    parts = key[len(base) :].split("/")
    life = Lifecycle(store)
    if parts[0] == ITEMS_DIR:
        if len(parts) != 5 or parts[2] != "e":
            return "ignored"
        board = parts[1]
        change = life.log.read("/".join(parts[1:]))
        if change is None:
            return "ignored"
        item = life.item(board, int(change["n"]))
        send(item_event(board, change, {**item.public(), "status": change["status"]}), config)
        return "item"
    if parts[0].startswith("_") or len(parts) != 5:
        return "ignored"
    record = store.read(key)
    numbers = life.number(record)
    items = [i.public() for i in life.items(parts[0]) if i.n in numbers.values()]
    send(submission_event(record, items), config)
    return "record"


def created_keys(event: dict[str, Any]) -> list[str]:
    """Object keys from an S3 "Object Created" event via EventBridge, or an S3 notification's Records."""
    if "detail" in event:
        return [str(event["detail"].get("object", {}).get("key", ""))]
    return [unquote_plus(entry.get("s3", {}).get("object", {}).get("key", "")) for entry in event.get("Records", [])]


def handler(event: dict[str, Any], context: Any = None) -> dict[str, Any]:
    """The notification handler: one webhook event per created object; failures are logged, not
    raised (a raise would make Lambda retry and send the events that did go out twice)."""
    config = config_from_env(os.environ)
    if config is None:
        return {"sent": 0}
    store = open_store(os.environ["PINUP_STORE"], endpoint_url=os.environ.get("PINUP_ENDPOINT_URL"))
    done = 0
    for key in created_keys(event):
        try:
            if notify(store, config, key) != "ignored":
                done += 1
        except Exception as exc:
            log_event("notify_failed", error=type(exc).__name__)
    return {"sent": done}
