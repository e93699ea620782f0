"""The Lambda handler calls the store on its event loop: one request per process, no thread hop."""

from __future__ import annotations

import importlib
import json
import threading
from typing import Any

import pytest
from lambda_helpers import BUCKET, all_keys, feedback_body, load_event

from pinup_feedback.store.s3 import S3Store


def test_store_calls_run_on_the_handlers_thread_and_the_guard_still_holds(
    s3_server: tuple[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    endpoint, client = s3_server
    for key, value in {
        "PINUP_STORE": f"s3://{BUCKET}/hosted",
        "PINUP_ALLOWED_ORIGINS": "https://boards.example.com",
        "PINUP_RATE_LIMIT": "0",
        "AWS_ENDPOINT_URL": endpoint,
    }.items():
        monkeypatch.setenv(key, value)
    threads: list[tuple[str, threading.Thread]] = []
    for name in ("claim", "save", "read_manifest"):
        real = getattr(S3Store, name)

        def watched(self: S3Store, *args: Any, _real: Any = real, _name: str = name) -> Any:
            threads.append((_name, threading.current_thread()))
            return _real(self, *args)

        monkeypatch.setattr(S3Store, name, watched)
    module = importlib.reload(importlib.import_module("pinup_feedback.lambda_handler"))
    assert module.handler.app.state.ctx.inline_io is True
    event = load_event("function_url")
    body = feedback_body()
    event["body"] = json.dumps(body)
    first = module.handler(event, None)
    again = module.handler({**event, "body": json.dumps({**body, "overall": "changed my mind"})}, None)
    assert first["statusCode"] == 200 and again["statusCode"] == 409  # one final per reviewer and round
    assert [name for name, _ in threads] == ["read_manifest", "claim", "save", "claim", "save"]  # manifest cached
    assert {thread for _, thread in threads} == {threading.current_thread()}
    assert len(all_keys(client, "hosted/feedback/hero/")) == 1
