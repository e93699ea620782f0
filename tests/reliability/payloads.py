"""What the reliability battery sends to the feedback app: a valid feedback body and an API
Gateway HTTP API (payload 2.0) event, so each test file states only what it changes; and one
Lambda invocation of a Mangum handler."""

from __future__ import annotations

from typing import Any

from lambda_process import own_event_loop

VALID: dict[str, Any] = {
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


def feedback_body(**overrides: Any) -> dict[str, Any]:
    """A fresh copy of VALID with `overrides` applied (callers mutate what they get)."""
    return {**VALID, **overrides}


def http_api_event(body: str, *, b64: bool = False, content_type: str = "application/json") -> dict[str, Any]:
    """A POST /api/feedback event as an HTTP API hands it to Mangum; the body may come base64-encoded."""
    return {
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": "/api/feedback",
        "rawQueryString": "",
        "headers": {"content-type": content_type, "host": "api.example.com"},
        "requestContext": {
            "http": {
                "method": "POST",
                "path": "/api/feedback",
                "protocol": "HTTP/1.1",
                "sourceIp": "203.0.113.9",
                "userAgent": "t",
            },
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


def invoke(app: Any, event: dict[str, Any]) -> dict[str, Any]:
    """One Lambda invocation of `app` through Mangum, on an event loop of its own that is closed
    after it (tests/lambda_process.py says why)."""
    from mangum import Mangum

    with own_event_loop():
        return Mangum(app, lifespan="off")(event, None)  # type: ignore[no-any-return]
