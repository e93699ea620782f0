"""Malformed, oversize and oddly encoded bodies through Mangum (the Lambda entry point), as an API
gateway delivers them: always a 4xx JSON error, never a 5xx, and nothing stored. (A body
flagged base64 that is not base64 never reaches the app: the gateway encodes it itself.)"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from payloads import VALID, http_api_event, invoke

from pinup_feedback.app import create_app
from pinup_feedback.settings import Settings


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


CASES = {
    "empty": http_api_event(""),
    "not-json": http_api_event("hello"),
    "truncated": http_api_event(json.dumps(VALID)[:-5]),
    "array": http_api_event("[1, 2, 3]"),
    "string": http_api_event('"just a string"'),
    "null": http_api_event("null"),
    "nan": http_api_event(json.dumps({**VALID, "round": float("nan")})),
    "huge-int": http_api_event(json.dumps(VALID).replace('"round": 1', '"round": ' + "9" * 5000)),
    "bad-utf8": http_api_event(b64(b'{"board": "\xff\xfe"}'), b64=True),
    "lone-surrogate": http_api_event('{"board": "\\ud800", "round": 1}'),
    "duplicate-keys": http_api_event('{"round": 1, "round": "x"}'),
    "deep-in-b64": http_api_event(b64(b"[" * 100_000 + b"]" * 100_000), b64=True),
    "oversize": http_api_event(json.dumps({**VALID, "overall": "x" * 2_000_000})),
    "oversize-b64": http_api_event(b64(b"{" + b" " * 3_000_000 + b"}"), b64=True),
    "form-encoded": http_api_event("board=hero&round=1", content_type="application/x-www-form-urlencoded"),
    "wrong-types": http_api_event(json.dumps({**VALID, "ratings": [], "comments": "x", "round": "1"})),
}


@pytest.mark.parametrize("name", CASES)
def test_bad_bodies_through_mangum_are_4xx_json_and_store_nothing(name: str, tmp_path: Path) -> None:
    store = tmp_path / "store"
    settings = Settings(mode="hosted", store=str(store), log_requests=False, rate_limit=0)
    response = invoke(create_app(settings), CASES[name])
    assert 400 <= response["statusCode"] < 500, (name, response["statusCode"], response.get("body", "")[:300])
    body = response["body"]
    if response.get("isBase64Encoded"):
        body = base64.b64decode(body).decode()
    assert isinstance(json.loads(body)["error"], str), body[:300]
    assert not [p for p in store.rglob("*") if p.is_file()], name
