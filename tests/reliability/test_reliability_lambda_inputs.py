"""Malformed, oversize and oddly encoded bodies through Mangum (the Lambda entry point), as an API
gateway delivers them: always a 4xx JSON error, never a 5xx, and nothing stored. (A body
flagged base64 that is not base64 never reaches the app: the gateway encodes it itself.)"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from mangum import Mangum

from pinup_feedback.app import create_app
from pinup_feedback.settings import Settings

VALID = {
    "schemaVersion": 1,
    "board": "hero",
    "round": 1,
    "reviewer": "Ana",
    "preferred": None,
    "ratings": {},
    "comments": {},
    "overall": "",
    "regenerated": False,
    "regenerateAction": None,
    "remixSpec": None,
    "website": "",
}


def event(body: str, *, b64: bool = False, content_type: str = "application/json") -> dict[str, Any]:
    """An HTTP API (payload 2.0) event; the gateway may hand the body over base64-encoded."""
    return {
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": "/api/feedback",
        "rawQueryString": "",
        "headers": {"content-type": content_type, "host": "api.example.com"},
        "requestContext": {
            "http": {"method": "POST", "path": "/api/feedback", "protocol": "HTTP/1.1", "sourceIp": "203.0.113.9"},
            "domainName": "api.example.com",
            "stage": "$default",
            "requestId": "r",
            "accountId": "1",
            "apiId": "a",
            "time": "x",
            "timeEpoch": 0,
        },
        "body": body,
        "isBase64Encoded": b64,
    }


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


CASES = {
    "empty": event(""),
    "not-json": event("hello"),
    "truncated": event(json.dumps(VALID)[:-5]),
    "array": event("[1, 2, 3]"),
    "string": event('"just a string"'),
    "null": event("null"),
    "nan": event(json.dumps({**VALID, "round": float("nan")})),
    "huge-int": event(json.dumps(VALID).replace('"round": 1', '"round": ' + "9" * 5000)),
    "bad-utf8": event(b64(b'{"board": "\xff\xfe"}'), b64=True),
    "lone-surrogate": event('{"board": "\\ud800", "round": 1}'),
    "duplicate-keys": event('{"round": 1, "round": "x"}'),
    "deep-in-b64": event(b64(b"[" * 100_000 + b"]" * 100_000), b64=True),
    "oversize": event(json.dumps({**VALID, "overall": "x" * 2_000_000})),
    "oversize-b64": event(b64(b"{" + b" " * 3_000_000 + b"}"), b64=True),
    "form-encoded": event("board=hero&round=1", content_type="application/x-www-form-urlencoded"),
    "wrong-types": event(json.dumps({**VALID, "ratings": [], "comments": "x", "round": "1"})),
}


@pytest.mark.parametrize("name", CASES)
def test_bad_bodies_through_mangum_are_4xx_json_and_store_nothing(name: str, tmp_path: Path) -> None:
    store = tmp_path / "store"
    settings = Settings(mode="hosted", store=str(store), log_requests=False, rate_limit=0)
    handler = Mangum(create_app(settings), lifespan="off")
    response = handler(CASES[name], None)
    assert 400 <= response["statusCode"] < 500, (name, response["statusCode"], response.get("body", "")[:300])
    body = response["body"]
    if response.get("isBase64Encoded"):
        body = base64.b64decode(body).decode()
    assert isinstance(json.loads(body)["error"], str), body[:300]
    assert not [p for p in store.rglob("*") if p.is_file()], name
