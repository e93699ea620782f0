"""The Lambda handler invoked with API Gateway v2, v1 and function URL events, into moto S3 (server mode)."""

from __future__ import annotations

import base64
import copy
import importlib
import json
import logging
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from lambda_helpers import BUCKET, all_keys, feedback_body, load_event

from pinup_feedback.tokens import board_token

SECRET = "board-secret-for-tests"
ORIGIN = "https://boards.example.com"
KINDS = ["apigw_v2", "apigw_v1", "function_url"]


def make_event(
    kind: str,
    method: str,
    path: str,
    *,
    body: Any = None,
    headers: dict[str, str] | None = None,
    drop: tuple[str, ...] = (),
    query: str = "",
    b64: bool = False,
    source_ip: str | None = None,
) -> dict[str, Any]:
    event = copy.deepcopy(load_event(kind))
    if source_ip is not None:  # where the gateway puts the caller's address
        where = event["requestContext"]["identity" if kind == "apigw_v1" else "http"]
        where["sourceIp"] = source_ip
    raw = body if isinstance(body, (bytes, str)) or body is None else json.dumps(body)
    if isinstance(raw, bytes) or b64:
        raw_bytes = raw if isinstance(raw, bytes) else (raw or "").encode()
        event["body"], event["isBase64Encoded"] = base64.b64encode(raw_bytes).decode(), True
    else:
        event["body"] = raw
    if kind == "apigw_v1":
        hdrs = {k: v for k, v in event["headers"].items() if k.lower() not in drop}
        hdrs.update(headers or {})
        event["headers"] = hdrs
        event["multiValueHeaders"] = {k: [v] for k, v in hdrs.items()}
        event["httpMethod"] = event["requestContext"]["httpMethod"] = method
        event["path"] = path
        event["pathParameters"] = {"proxy": path.lstrip("/")}
        if query:
            pairs = dict(p.split("=", 1) for p in query.split("&"))
            event["queryStringParameters"] = pairs
            event["multiValueQueryStringParameters"] = {k: [v] for k, v in pairs.items()}
    else:
        hdrs = {k: v for k, v in event["headers"].items() if k not in drop}
        hdrs.update({k.lower(): v for k, v in (headers or {}).items()})
        event["headers"] = hdrs
        event["requestContext"]["http"]["method"] = method
        event["requestContext"]["http"]["path"] = event["rawPath"] = path
        event["rawQueryString"] = query
    return event


Invoke = Callable[..., dict[str, Any]]


@pytest.fixture()
def lambda_env(monkeypatch: pytest.MonkeyPatch, s3_server: tuple[str, Any]) -> tuple[Callable[..., Invoke], Any]:
    endpoint, client = s3_server
    client.put_object(
        Bucket=BUCKET,
        Key="hosted/boards/hero.json",
        Body=json.dumps({"board": "hero", "round": 1, "variants": ["A", "B", "C"]}).encode(),
    )

    def load(**env: str) -> Invoke:
        base = {
            "PINUP_STORE": f"s3://{BUCKET}/hosted",
            "PINUP_BOARD_SECRET": SECRET,
            "PINUP_ALLOWED_ORIGINS": ORIGIN,
            "PINUP_RATE_LIMIT": "30",
            "PINUP_MAX_BODY": "4096",
            "AWS_ENDPOINT_URL": endpoint,
        }
        base.update(env)
        for key, value in base.items():
            monkeypatch.setenv(key, value)
        module = importlib.import_module("pinup_feedback.lambda_handler")
        module = importlib.reload(module)
        context = SimpleNamespace(
            aws_request_id="req-1",
            function_name="pinup-feedback",
            memory_limit_in_mb=256,
            invoked_function_arn="arn:aws:lambda:eu-west-1:123456789012:function:pinup",
        )

        def invoke(kind: str, method: str, path: str, **kw: Any) -> dict[str, Any]:
            return module.handler(make_event(kind, method, path, **kw), context)  # type: ignore[no-any-return]

        return invoke

    return load, client


def headers_of(response: dict[str, Any]) -> dict[str, str]:
    out = {k.lower(): v for k, v in (response.get("headers") or {}).items()}
    for k, values in (response.get("multiValueHeaders") or {}).items():
        out[k.lower()] = values[-1]
    return out


def body_of(response: dict[str, Any]) -> Any:
    raw = response["body"]
    if response.get("isBase64Encoded"):
        raw = base64.b64decode(raw).decode()
    return json.loads(raw)


TOKEN = {"x-pinup-board-token": board_token(SECRET, "hero")}


@pytest.mark.parametrize("kind", KINDS)
def test_post_feedback_lands_in_s3(lambda_env, kind: str) -> None:
    load, client = lambda_env
    invoke = load()
    sent = feedback_body(overall=f"via {kind}")
    r = invoke(kind, "POST", "/api/feedback", body=sent, headers=TOKEN)
    assert r["statusCode"] == 200, r
    ack = body_of(r)
    assert ack["received"] is True and ack["action"] == "submitted"
    [key] = all_keys(client, "hosted/feedback/hero/")
    assert key.endswith(f"-final-{ack['id']}.json")
    head = client.head_object(Bucket=BUCKET, Key=key)
    assert head["ServerSideEncryption"] == "AES256" and head["ContentType"] == "application/json"
    stored = json.loads(client.get_object(Bucket=BUCKET, Key=key)["Body"].read())
    assert stored["overall"] == f"via {kind}" and stored["kind"] == "final"
    for ip in ("203.0.113.9", "198.51.100.7", "192.0.2.44"):
        assert ip not in json.dumps(stored)
    assert "x-request-id" in headers_of(r)


@pytest.mark.parametrize("kind", KINDS)
def test_base64_body_and_regenerate(lambda_env, kind: str) -> None:
    load, client = lambda_env
    invoke = load()
    sent = feedback_body(
        regenerated=True,
        regenerateAction="remix",
        remixSpec={"layout": "A", "colors": "B", "typography": "C", "spacing": "A"},
    )
    r = invoke(kind, "POST", "/api/feedback", body=sent, headers=TOKEN, b64=True)
    assert r["statusCode"] == 200 and body_of(r)["action"] == "regenerate"
    [key] = all_keys(client, "hosted/feedback/hero/")
    assert "-regenerate-" in key


@pytest.mark.parametrize("kind", KINDS)
def test_bad_token_403_and_nothing_stored(lambda_env, kind: str) -> None:
    load, client = lambda_env
    invoke = load()
    assert invoke(kind, "POST", "/api/feedback", body=feedback_body())["statusCode"] == 403
    wrong = {"x-pinup-board-token": board_token("another-secret", "hero")}
    r = invoke(kind, "POST", "/api/feedback", body=feedback_body(), headers=wrong)
    assert r["statusCode"] == 403 and body_of(r)["error"] == "bad_board_token"
    assert all_keys(client, "hosted/feedback/") == []


@pytest.mark.parametrize("kind", KINDS)
def test_foreign_origin_is_refused(lambda_env, kind: str) -> None:
    load, client = lambda_env
    invoke = load()
    r = invoke(kind, "POST", "/api/feedback", body=feedback_body(), headers={**TOKEN, "Origin": "https://evil.example"})
    assert r["statusCode"] == 403 and body_of(r)["error"] == "origin_not_allowed"
    assert "access-control-allow-origin" not in headers_of(r)
    assert all_keys(client, "hosted/feedback/") == []


@pytest.mark.parametrize("kind", KINDS)
def test_preflight_cors_is_the_gateways_job_by_default(lambda_env, kind: str) -> None:
    load, _ = lambda_env
    invoke = load()
    pre = {
        "Origin": ORIGIN,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,x-pinup-board-token",
    }
    r = invoke(kind, "OPTIONS", "/api/feedback", headers=pre)
    assert r["statusCode"] == 405  # deployed: API Gateway / function URL CORS answers the preflight
    assert "access-control-allow-origin" not in headers_of(r)
    r = invoke(kind, "POST", "/api/feedback", body=feedback_body(), headers=TOKEN)
    assert r["statusCode"] == 200 and "access-control-allow-origin" not in headers_of(r)


@pytest.mark.parametrize("kind", KINDS)
def test_preflight_when_cors_is_in_the_app(lambda_env, kind: str) -> None:
    load, _ = lambda_env
    invoke = load(PINUP_CORS_IN_APP="true")
    pre = {
        "Origin": ORIGIN,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,x-pinup-board-token",
    }
    r = invoke(kind, "OPTIONS", "/api/feedback", headers=pre)
    assert r["statusCode"] == 200
    h = headers_of(r)
    assert h["access-control-allow-origin"] == ORIGIN and "x-pinup-board-token" in h["access-control-allow-headers"]
    bad = invoke(kind, "OPTIONS", "/api/feedback", headers={**pre, "Origin": "https://evil.example"})
    assert bad["statusCode"] == 400 and "access-control-allow-origin" not in headers_of(bad)
    r = invoke(kind, "POST", "/api/feedback", body=feedback_body(), headers=TOKEN)
    assert headers_of(r)["access-control-allow-origin"] == ORIGIN


@pytest.mark.parametrize("kind", KINDS)
def test_413_over_the_limit(lambda_env, kind: str) -> None:
    load, client = lambda_env
    invoke = load(PINUP_MAX_BODY="1024")
    r = invoke(kind, "POST", "/api/feedback", body=feedback_body(overall="x" * 3000), headers=TOKEN)
    assert r["statusCode"] == 413 and body_of(r)["error"] == "payload_too_large"
    assert all_keys(client, "hosted/feedback/") == []


@pytest.mark.parametrize("kind", KINDS)
def test_429_rate_limit(lambda_env, kind: str) -> None:
    load, client = lambda_env
    invoke = load(PINUP_RATE_LIMIT="3")
    codes = [invoke(kind, "POST", "/api/feedback", body=feedback_body(), headers=TOKEN)["statusCode"] for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    r = invoke(kind, "POST", "/api/feedback", body=feedback_body(), headers=TOKEN)
    assert r["statusCode"] == 429 and int(headers_of(r)["retry-after"]) >= 1
    assert len(all_keys(client, "hosted/feedback/hero/")) == 3


@pytest.mark.parametrize("kind", KINDS)
def test_manifest_in_s3_is_enforced_and_hosted_has_no_reload(lambda_env, kind: str) -> None:
    load, _ = lambda_env
    invoke = load()
    r = invoke(kind, "POST", "/api/feedback", body=feedback_body(ratings={"Z": 2}), headers=TOKEN)
    assert r["statusCode"] == 422 and body_of(r)["detail"][0]["path"] == "ratings.Z"
    r = invoke(kind, "POST", "/api/reload", body={"board": "hero"}, headers={"Authorization": "Bearer x"})
    assert r["statusCode"] == 404
    r = invoke(kind, "GET", "/healthz")
    assert r["statusCode"] == 200 and body_of(r)["mode"] == "hosted"
    r = invoke(kind, "GET", "/api/progress", query="board=hero")
    assert r["statusCode"] == 200 and body_of(r)["status"] == "serving"


def test_many_reviewers_one_object_each(lambda_env) -> None:
    load, client = lambda_env
    invoke = load()
    acks = [
        body_of(invoke(KINDS[n % 3], "POST", "/api/feedback", body=feedback_body(clientId=f"r{n}"), headers=TOKEN))
        for n in range(6)
    ]
    replay = body_of(invoke("apigw_v2", "POST", "/api/feedback", body=feedback_body(clientId="r2"), headers=TOKEN))
    assert replay["id"] == acks[2]["id"]
    keys = all_keys(client, "hosted/feedback/hero/")
    assert len(keys) == 6 and len(all_keys(client, "hosted/feedback/_claims/")) == 6


def test_bad_settings_fail_at_import(monkeypatch: pytest.MonkeyPatch) -> None:
    from pinup_feedback.settings import SettingsError

    monkeypatch.delenv("PINUP_STORE", raising=False)
    with pytest.raises(SettingsError, match="PINUP_STORE"):
        importlib.reload(importlib.import_module("pinup_feedback.lambda_handler"))


def test_events_in_hosted_mode_end_after_the_state(lambda_env) -> None:
    load, _ = lambda_env
    invoke = load()
    r = invoke("apigw_v2", "GET", "/api/events", query="board=hero")
    assert r["statusCode"] == 200 and headers_of(r)["content-type"].startswith("text/event-stream")
    assert 'data: {"board":"hero","status":"serving"}' in r["body"]


def test_mangum_runs_with_lifespan_off(lambda_env) -> None:
    load, _ = lambda_env
    load()
    module = importlib.import_module("pinup_feedback.lambda_handler")
    assert module.handler.lifespan == "off"
    assert module.handler.app.state.settings.mode == "hosted"
    assert module.handler.app.state.settings.store == f"s3://{BUCKET}/hosted"


@pytest.mark.parametrize("kind", KINDS)
def test_logs_are_json_with_the_gateway_request_id_and_no_text_or_ip(
    lambda_env, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    load, _ = lambda_env
    invoke = load()
    secrets = ("PRIVATE-REMARK-42", "Zed Secretname", "SECRET-COMMENT-7")
    logger = logging.getLogger("pinup_feedback")
    logger.addHandler(caplog.handler)
    try:
        with caplog.at_level(logging.INFO, logger="pinup_feedback"):
            ok = invoke(
                kind,
                "POST",
                "/api/feedback",
                headers=TOKEN,
                body=feedback_body(overall=secrets[0], reviewer=secrets[1], comments={"B": secrets[2]}),
            )
            bad = invoke(
                kind, "POST", "/api/feedback", headers=TOKEN, body=feedback_body(overall=secrets[0], ratings={"Q": 5})
            )
            denied = invoke(kind, "POST", "/api/feedback", body=feedback_body(overall=secrets[0]))
            odd = invoke(
                kind, "POST", "/api/feedback", headers=TOKEN, body=feedback_body(board="Not A Slug PRIVATE-BOARD-TEXT")
            )
    finally:
        logger.removeHandler(caplog.handler)
    assert (ok["statusCode"], bad["statusCode"], denied["statusCode"], odd["statusCode"]) == (200, 422, 403, 403)
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "pinup_feedback"]
    requests = [line for line in lines if line["event"] == "request"]
    assert [line["status"] for line in requests] == [200, 422, 403, 403]
    assert requests.pop()["board"] == "-"  # a board that is not a slug is user text: never logged
    gateway_id = load_event(kind)["requestContext"]["requestId"]
    for line in requests:
        assert line["request_id"] == gateway_id and line["board"] == "hero" and line["path"] == "/api/feedback"
        assert isinstance(line["latency_ms"], (int, float)) and line["latency_ms"] >= 0
        assert len(line["client"]) == 16  # a salted hash, never the address
    assert requests[0]["feedback_id"] == body_of(ok)["id"]
    assert [line["error"] for line in requests[1:]] == ["invalid_feedback", "bad_board_token"]
    assert headers_of(ok)["x-request-id"] == gateway_id
    text = caplog.text + json.dumps(lines)
    for private in (*secrets, "Secretname", "PRIVATE-BOARD-TEXT", "203.0.113.9", "198.51.100.7", "192.0.2.44"):
        assert private not in text


@pytest.mark.parametrize("kind", KINDS)
def test_rate_limit_is_per_client_address_and_board(lambda_env, kind: str) -> None:
    load, client = lambda_env
    invoke = load(PINUP_RATE_LIMIT="2")
    bad = feedback_body(ratings={"Z": 1})  # 422 (not on the board): counted, nothing stored

    def post(ip: str, body: dict[str, Any] = bad) -> int:
        token = {"x-pinup-board-token": board_token(SECRET, body["board"])}
        return invoke(kind, "POST", "/api/feedback", body=body, headers=token, source_ip=ip)["statusCode"]

    assert [post("198.51.100.20") for _ in range(3)] == [422, 422, 429]
    assert post("198.51.100.21") == 422  # another reviewer's address has its own bucket
    other_board = feedback_body(board="cards", ratings={"A": 9})
    assert post("198.51.100.20", other_board) == 422  # same address, another board: its own bucket
    assert post("198.51.100.20") == 429
    assert all_keys(client, "hosted/feedback/") == []


def test_default_rate_limit_is_30_a_minute(lambda_env) -> None:
    load, _ = lambda_env
    invoke = load(PINUP_RATE_LIMIT="")  # unset: the default applies
    bad = feedback_body(ratings={"Z": 1})
    # The bucket refills one request every 2 s, so on a slow machine a few more may pass before the 429.
    started, codes = time.monotonic(), []
    while len(codes) < 80 and 429 not in codes:
        codes.append(invoke("apigw_v2", "POST", "/api/feedback", body=bad, headers=TOKEN)["statusCode"])
    refilled = int((time.monotonic() - started) / 2) + 1
    assert codes[-1] == 429 and set(codes[:-1]) == {422}, codes
    assert 30 <= len(codes) - 1 <= 30 + refilled, (len(codes), refilled)


@pytest.mark.parametrize("kind", KINDS)
def test_honeypot_is_a_fake_ack_and_stores_nothing(lambda_env, kind: str) -> None:
    load, client = lambda_env
    invoke = load()
    r = invoke(kind, "POST", "/api/feedback", body=feedback_body(website="http://spam.example"), headers=TOKEN)
    assert r["statusCode"] == 200 and body_of(r)["received"] is True and len(body_of(r)["id"]) == 32
    assert all_keys(client, "hosted/feedback/") == []


def test_an_invalid_manifest_in_s3_refuses_and_stores_nothing(lambda_env) -> None:
    load, client = lambda_env
    client.put_object(Bucket=BUCKET, Key="hosted/boards/hero.json", Body=b'{"board": "hero", "round": 1}')
    invoke = load()
    r = invoke("apigw_v2", "POST", "/api/feedback", body=feedback_body(), headers=TOKEN)
    assert r["statusCode"] == 500 and body_of(r)["error"] == "store_failed"
    assert all_keys(client, "hosted/feedback/") == []
