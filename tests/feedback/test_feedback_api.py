"""The feedback API through httpx's ASGI transport: every status code and the board state machine."""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import pytest
from feedback_helpers import RELOAD_TOKEN, body, stored

from pinup_feedback.app import Hooks
from pinup_feedback.settings import Settings
from pinup_feedback.store.base import StoreError
from pinup_feedback.tokens import board_token

pytestmark = pytest.mark.anyio
JSON = {"content-type": "application/json"}
AUTH = {"authorization": f"Bearer {RELOAD_TOKEN}"}


async def test_final_submit_is_stored_with_metadata_and_agent_copy(make_client, local_settings, store_dir, site):
    client = make_client(local_settings)
    r = await client.post("/api/feedback", json=body())
    assert r.status_code == 200, r.text
    ack = r.json()
    assert ack["received"] is True and ack["action"] == "submitted"
    [record] = stored(store_dir)
    assert record["id"] == ack["id"] and record["kind"] == "final"
    assert record["preferred"] == "B" and record["ratings"] == {"A": 3, "B": 5}
    assert record["receivedAt"].endswith("Z") and "website" not in record
    assert "127.0.0.1" not in json.dumps(record) and len(record["clientHash"]) == 16
    [path] = (store_dir / "hero").glob("*.json")
    assert path.name.endswith(f"-final-{ack['id']}.json") and path.name[8] == "T"
    copy = json.loads((site / "boards" / "hero" / "feedback.json").read_text())
    assert copy == record


async def test_regenerate_writes_pending_copy_and_changes_state(make_client, local_settings, store_dir, site):
    client = make_client(local_settings)
    r = await client.post("/api/feedback", json=body(regenerated=True, regenerateAction="more_like_B"))
    assert r.status_code == 200 and r.json()["action"] == "regenerate"
    [record] = stored(store_dir)
    assert record["kind"] == "regenerate" and record["regenerateAction"] == "more_like_B"
    assert (site / "boards" / "hero" / "feedback-pending.json").exists()
    assert not (site / "boards" / "hero" / "feedback.json").exists()
    assert (await client.get("/api/progress?board=hero")).json()["status"] == "regenerating"


async def test_state_machine_serving_regenerating_reload_serving_done(make_client, local_settings, site):
    seen: list[tuple[str, Any]] = []

    def on_feedback(rec: dict[str, Any]) -> None:
        on_disk = list((local_settings.site_dir.parent / "store" / rec["board"]).glob(f"*-{rec['id']}.json"))
        assert len(on_disk) == 1  # hooks run only after the store acknowledged the record
        seen.append(("feedback", rec["kind"]))

    hooks = Hooks(
        on_feedback=on_feedback,
        on_regenerate=lambda rec, boards: seen.append(("regenerate", boards.status(rec["board"]))),
    )
    client = make_client(local_settings, hooks=hooks)

    async def status() -> str:
        r = await client.get("/api/progress", params={"board": "hero"})
        assert r.status_code == 200
        return str(r.json()["status"])

    assert await status() == "serving"
    r = await client.post("/api/feedback", json=body(regenerated=True, regenerateAction="different"))
    assert r.status_code == 200
    assert await status() == "regenerating"
    # the next round is built: manifest moves to round 2, then the reload
    (site / "boards/hero/board.json").write_text(json.dumps({"board": "hero", "round": 2, "variants": ["D", "E"]}))
    assert (await client.get("/api/progress?board=hero")).json()["round"] == 2
    r = await client.post("/api/reload", json={"board": "hero"}, headers=AUTH)
    assert r.status_code == 200 and r.json() == {"reloaded": True, "board": "hero"}
    assert await status() == "serving"
    old = await client.post("/api/feedback", json=body())
    assert old.status_code == 422 and old.json()["detail"][0]["path"] == "round"
    r = await client.post("/api/feedback", json=body(round=2, preferred="E", ratings={"D": 2}, comments={}))
    assert r.status_code == 200
    assert await status() == "done"
    assert seen == [("feedback", "regenerate"), ("regenerate", "regenerating"), ("feedback", "final")]


async def test_reload_event_names_the_build_in_the_manifest(make_client, local_settings, site):
    """Open pages compare it with their own build (board.js); a manifest without one sends none."""
    client = make_client(local_settings)
    boards = client.app.state.boards
    sub = boards.subscribe("hero")
    try:
        manifest = {"board": "hero", "round": 2, "variants": ["D", "E"], "build": "0123456789abcdef"}
        (site / "boards/hero/board.json").write_text(json.dumps(manifest))
        r = await client.post("/api/reload", json={"board": "hero"}, headers=AUTH)
        assert r.status_code == 200
        event = await asyncio.wait_for(sub.queue.get(), 5)
        assert event["reload"] is True and event["build"] == "0123456789abcdef"
        del manifest["build"]
        (site / "boards/hero/board.json").write_text(json.dumps(manifest))
        r = await client.post("/api/reload", json={"board": "hero"}, headers=AUTH)
        assert r.status_code == 200
        event = await asyncio.wait_for(sub.queue.get(), 5)
        assert event["reload"] is True and "build" not in event
    finally:
        boards.unsubscribe(sub)


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (b"{not json", "invalid_json"),
        (b"[1, 2]", "not_an_object"),
        (b'"text"', "not_an_object"),
        (b"\xff\xfe", "invalid_json"),
    ],
)
async def test_400_invalid_json_or_not_an_object(make_client, local_settings, store_dir, content, code):
    client = make_client(local_settings)
    r = await client.post("/api/feedback", content=content, headers=JSON)
    assert r.status_code == 400 and r.json()["error"] == code
    assert stored(store_dir) == []


@pytest.mark.parametrize("ctype", [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
async def test_415_wrong_content_type(make_client, local_settings, ctype):
    client = make_client(local_settings)
    headers = {"content-type": ctype} if ctype else {}
    r = await client.post("/api/feedback", content=json.dumps(body()).encode(), headers=headers)
    assert r.status_code == 415 and r.json()["error"] == "unsupported_media_type"


async def test_json_with_charset_is_accepted(make_client, local_settings):
    client = make_client(local_settings)
    r = await client.post(
        "/api/feedback",
        content=json.dumps(body()).encode(),
        headers={"content-type": "application/json; charset=utf-8"},
    )
    assert r.status_code == 200


async def test_413_declared_length(make_client, local_settings, store_dir):
    client = make_client(local_settings)
    big = json.dumps(body(overall="x" * 70000)).encode()
    r = await client.post("/api/feedback", content=big, headers=JSON)
    assert r.status_code == 413 and r.json()["error"] == "payload_too_large"
    assert stored(store_dir) == []


async def test_413_enforced_while_streaming_without_length(make_client, local_settings, store_dir):
    client = make_client(local_settings.model_copy(update={"max_body": 1024}))
    chunks_sent = []

    async def stream():
        for i in range(100):
            chunks_sent.append(i)
            yield b" " * 512

    r = await client.post("/api/feedback", content=stream(), headers=JSON)
    assert r.status_code == 413
    assert len(chunks_sent) < 100  # stopped reading early: never buffered the whole body
    assert stored(store_dir) == []


async def test_body_at_the_limit_is_accepted(make_client, local_settings):
    raw = json.dumps(body()).encode()
    client = make_client(local_settings.model_copy(update={"max_body": len(raw)}))
    r = await client.post("/api/feedback", content=raw, headers=JSON)
    assert r.status_code == 200


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"ratings": {"A": 6}}, "ratings.A"),
        ({"ratings": {"A": 0}}, "ratings.A"),
        ({"ratings": {"A": "5"}}, "ratings.A"),
        ({"ratings": {"Z": 4}}, "ratings.Z"),
        ({"comments": {"Q": "hm"}}, "comments.Q"),
        ({"preferred": "Q"}, "preferred"),
        ({"surprise": 1}, "surprise"),
        ({"round": 3}, "round"),
        ({"schemaVersion": 3}, "schemaVersion"),
        ({"board": "../etc"}, "board"),
        ({"overall": "x" * 10001}, "overall"),
        ({"regenerated": True, "regenerateAction": "more_like_Q"}, "regenerateAction"),
        (
            {"regenerated": True, "regenerateAction": "remix", "remixSpec": {"layout": "A", "colors": "Q"}},
            "remixSpec.colors",
        ),
        ({"remixSpec": {"layout": "A"}}, "(body)"),
    ],
)
async def test_422_with_field_paths(make_client, local_settings, store_dir, change, path):
    client = make_client(local_settings)
    r = await client.post("/api/feedback", json=body(**change))
    assert r.status_code == 422, r.text
    err = r.json()
    assert err["error"] == "invalid_feedback"
    assert path in [d["path"] for d in err["detail"]]
    assert stored(store_dir) == []


async def test_without_manifest_only_the_shape_is_checked(make_client, local_settings, store_dir, site):
    (site / "boards/hero/board.json").unlink()
    client = make_client(local_settings)
    r = await client.post("/api/feedback", json=body(round=7, ratings={"Z": 4}, preferred="Z"))
    assert r.status_code == 200
    assert stored(store_dir)[0]["round"] == 7


async def test_409_second_final_and_same_client_replays(make_client, local_settings, store_dir):
    client = make_client(local_settings)
    first = await client.post("/api/feedback", json=body())
    assert first.status_code == 200
    again = await client.post("/api/feedback", json=body())
    assert again.status_code == 200 and again.json() == first.json()
    other = await client.post("/api/feedback", json=body(clientId="another-browser"))
    assert other.status_code == 409 and other.json()["error"] == "already_submitted"
    changed = await client.post("/api/feedback", json=body(overall="changed my mind"))
    assert changed.status_code == 409
    assert len(stored(store_dir)) == 1
    # another board is independent
    r = await client.post("/api/feedback", json=body(board="cards", round=2, preferred="X", ratings={}, comments={}))
    assert r.status_code == 200


async def test_regenerate_double_click_replays(make_client, local_settings, store_dir):
    client = make_client(local_settings)
    b = body(regenerated=True, regenerateAction="different")
    r1 = await client.post("/api/feedback", json=b)
    r2 = await client.post("/api/feedback", json=b)
    assert r1.json() == r2.json()
    assert len(stored(store_dir)) == 1


async def test_concurrent_regenerates_one_per_client_and_double_clicks_replay(make_client, local_settings, store_dir):
    import asyncio

    client = make_client(local_settings)
    same = body(regenerated=True, regenerateAction="different", clientId="tab-1")
    others = [body(regenerated=True, regenerateAction="different", clientId=f"tab-{n}") for n in range(2, 6)]
    results = await asyncio.gather(*[client.post("/api/feedback", json=b) for b in [same, same, same, *others]])
    assert [r.status_code for r in results] == [200] * 7
    assert len({r.json()["id"] for r in results[:3]}) == 1  # the double clicks replay the first
    assert len({r.json()["id"] for r in results}) == 5
    assert len(stored(store_dir)) == 5
    assert client.app.state.ctx.ledger._locks == {}  # no lock outlives its requests


async def test_500_when_the_store_fails_and_nothing_is_acknowledged(make_client, local_settings, store_dir, site):
    store_dir.mkdir()
    (store_dir / "hero").write_text("a file where the board folder should be")
    calls = []
    client = make_client(local_settings, hooks=Hooks(on_feedback=calls.append))
    r = await client.post("/api/feedback", json=body())
    assert r.status_code == 500 and r.json()["error"] == "store_failed"
    assert calls == [] and not (site / "boards/hero/feedback.json").exists()
    assert (await client.get("/api/progress?board=hero")).json()["status"] == "serving"


async def test_500_when_fsync_fails(make_client, local_settings, store_dir, monkeypatch):
    def broken(fd: int) -> None:
        raise OSError(5, "Input/output error")

    client = make_client(local_settings)
    monkeypatch.setattr(os, "fsync", broken)
    r = await client.post("/api/feedback", json=body())
    monkeypatch.undo()
    assert r.status_code == 500
    assert list((store_dir / "hero").iterdir()) == []  # no record, no tmp left behind
    # the same submission succeeds once the disk is back (nothing was acknowledged, so no replay)
    r = await client.post("/api/feedback", json=body())
    assert r.status_code == 200 and len(stored(store_dir)) == 1


async def test_503_when_the_remote_store_is_unavailable(make_client, local_settings):
    from pinup_feedback.store.base import StoreUnavailable
    from pinup_feedback.store.file import FileStore

    class DownStore(FileStore):
        def save(self, record: dict[str, Any]) -> str:
            raise StoreUnavailable("S3 put failed: SlowDown")

        async def save_async(self, record: dict[str, Any], copy_to: Any = None, *, inline: bool = False) -> Any:
            return self.save(record), None

    client = make_client(local_settings, store=DownStore("/nonexistent"))
    r = await client.post("/api/feedback", json=body())
    assert r.status_code == 503 and r.headers["retry-after"] == "5"
    assert r.json()["error"] == "store_unavailable"


async def test_unreadable_manifest_is_500_not_a_traceback(make_client, local_settings, site):
    (site / "boards/hero/board.json").write_text("{broken")
    client = make_client(local_settings)
    r = await client.post("/api/feedback", json=body())
    assert r.status_code == 500 and r.json()["error"] == "store_failed"


async def test_403_board_token(make_client, local_settings, store_dir):
    client = make_client(local_settings.model_copy(update={"board_secret": "s3cret"}))
    r = await client.post("/api/feedback", json=body())
    assert r.status_code == 403 and r.json()["error"] == "bad_board_token"
    r = await client.post("/api/feedback", json=body(), headers={"x-pinup-board-token": board_token("s3cret", "cards")})
    assert r.status_code == 403
    r = await client.post("/api/feedback", json=body(), headers={"x-pinup-board-token": board_token("s3cret", "hero")})
    assert r.status_code == 200
    assert len(stored(store_dir)) == 1


def test_board_token_is_hmac_sha256_hex() -> None:
    import hashlib
    import hmac

    assert board_token("k", "hero") == hmac.new(b"k", b"hero", hashlib.sha256).hexdigest()


async def test_429_rate_limit_per_client_and_board(make_client, local_settings):
    client = make_client(local_settings.model_copy(update={"rate_limit": 3}))
    bad = body(ratings={"A": 9})  # invalid on purpose: 422s count too, and nothing is stored
    codes = [(await client.post("/api/feedback", json=bad)).status_code for _ in range(4)]
    assert codes == [422, 422, 422, 429]
    r = await client.post("/api/feedback", json=bad)
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
    other_board = await client.post(
        "/api/feedback", json=body(board="cards", round=2, preferred="X", ratings={}, comments={})
    )
    assert other_board.status_code == 200
    other_client = make_client(local_settings.model_copy(update={"rate_limit": 3}), client_host="127.0.0.2")
    assert (await other_client.post("/api/feedback", json=bad)).status_code == 422


async def test_honeypot_fake_ack_and_nothing_stored(make_client, local_settings, store_dir, site):
    calls = []
    client = make_client(local_settings, hooks=Hooks(on_feedback=calls.append))
    r = await client.post("/api/feedback", json=body(website="http://spam.example"))
    assert r.status_code == 200 and r.json()["received"] is True and r.json()["id"]
    assert stored(store_dir) == [] and calls == []
    assert not (site / "boards/hero/feedback.json").exists()
    assert (await client.get("/api/progress?board=hero")).json()["status"] == "serving"


async def test_foreign_origin_is_refused_and_own_origin_allowed(make_client, local_settings):
    client = make_client(local_settings)
    r = await client.post("/api/feedback", json=body(), headers={"origin": "https://evil.example"})
    assert r.status_code == 403 and r.json()["error"] == "origin_not_allowed"
    r = await client.post("/api/feedback", json=body(), headers={"origin": "http://127.0.0.1:8765"})
    assert r.status_code == 200


async def test_cors_in_app_local_mode(make_client, local_settings):
    settings = local_settings.model_copy(update={"allowed_origins": ("http://localhost:3000",)})
    client = make_client(settings)
    pre = await client.options(
        "/api/feedback",
        headers={
            "origin": "http://localhost:3000",
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type,x-pinup-board-token",
        },
    )
    assert pre.status_code == 200
    assert pre.headers["access-control-allow-origin"] == "http://localhost:3000"
    bad = await client.options(
        "/api/feedback", headers={"origin": "https://evil.example", "access-control-request-method": "POST"}
    )
    assert bad.status_code == 400 and "access-control-allow-origin" not in bad.headers
    r = await client.post("/api/feedback", json=body(), headers={"origin": "http://localhost:3000"})
    assert r.status_code == 200 and r.headers["access-control-allow-origin"] == "http://localhost:3000"


async def test_hosted_mode_has_no_cors_headers_and_no_reload(make_client, store_dir):
    settings = Settings(
        mode="hosted", store=str(store_dir), allowed_origins=("https://boards.example",), log_requests=False
    )
    client = make_client(settings)
    r = await client.post("/api/feedback", json=body(), headers={"origin": "https://boards.example"})
    assert r.status_code == 200 and "access-control-allow-origin" not in r.headers
    r = await client.post("/api/reload", json={"board": "hero"}, headers=AUTH)
    assert r.status_code in (404, 405)
    doc = (await client.get("/api/openapi.json")).json()
    assert "/api/reload" not in doc["paths"]


async def test_hosted_many_reviewers_one_board(make_client, store_dir):
    settings = Settings(mode="hosted", store=str(store_dir), log_requests=False)
    client = make_client(settings)
    ids = set()
    for n in range(3):
        r = await client.post("/api/feedback", json=body(clientId=f"reviewer-{n}"))
        assert r.status_code == 200
        ids.add(r.json()["id"])
    replay = await client.post("/api/feedback", json=body(clientId="reviewer-1"))
    assert replay.status_code == 200 and replay.json()["id"] in ids
    changed = await client.post("/api/feedback", json=body(clientId="reviewer-1", overall="other"))
    assert changed.status_code == 409
    assert len(stored(store_dir)) == 3
    # a second instance (fresh memory) still honours the claim: replay, nothing written
    client2 = make_client(settings)
    r = await client2.post("/api/feedback", json=body(clientId="reviewer-2"))
    assert r.status_code == 200 and r.json()["id"] in ids
    assert len(stored(store_dir)) == 3
    assert (await client.get("/api/progress?board=hero")).json()["status"] == "serving"


def flaky_file_store(failures: int) -> Any:
    """A FileStore subclass whose first `failures` saves, counted across all its instances, raise StoreError."""
    from pinup_feedback.store.file import FileStore

    left = {"n": failures}

    class Flaky(FileStore):
        def save(self, record: dict[str, Any]) -> str:
            if left["n"]:
                left["n"] -= 1
                raise StoreError("disk hiccup")
            return super().save(record)

        async def save_async(self, record: dict[str, Any], copy_to: Any = None, *, inline: bool = False) -> Any:
            return self.save(record), None

    return Flaky


async def test_hosted_claim_without_record_is_completed_on_retry(make_client, store_dir, monkeypatch):
    settings = Settings(mode="hosted", store=str(store_dir), log_requests=False)
    flaky = flaky_file_store(failures=1)

    client = make_client(settings, store=flaky(store_dir))
    r1 = await client.post("/api/feedback", json=body())
    assert r1.status_code == 500 and stored(store_dir) == []
    client2 = make_client(settings, store=flaky(store_dir))
    r2 = await client2.post("/api/feedback", json=body())
    assert r2.status_code == 200
    r3 = await client2.post("/api/feedback", json=body())
    assert r3.json() == r2.json()
    assert [rec["id"] for rec in stored(store_dir)] == [r2.json()["id"]]


async def test_progress_needs_a_board(make_client, local_settings):
    client = make_client(local_settings)
    assert (await client.get("/api/progress")).status_code == 400
    assert (await client.get("/api/progress?board=../x")).status_code == 400
    client = make_client(local_settings.model_copy(update={"default_board": "hero"}))
    assert (await client.get("/api/progress")).json() == {"board": "hero", "status": "serving", "round": 1}


async def test_reload_rules(make_client, local_settings, site, tmp_path):
    client = make_client(local_settings)
    outside = tmp_path / "outside.html"
    outside.write_text("secret")
    (site / "boards/hero/escape.html").symlink_to(outside)
    (site / "boards/hero/inner.html").symlink_to(site / "boards/hero/index.html")
    cases = [
        ({"board": "hero"}, AUTH, 200),
        ({"html": "boards/hero/index.html"}, AUTH, 200),
        ({"html": "boards/hero/inner.html"}, AUTH, 200),
        ({"html": "boards/hero/escape.html"}, AUTH, 403),
        ({"html": "../outside.html"}, AUTH, 403),
        ({"html": str(outside)}, AUTH, 403),
        ({"html": "boards/hero"}, AUTH, 400),
        ({"html": "boards/hero/missing.html"}, AUTH, 400),
        ({"board": "nope"}, AUTH, 400),
        ({"board": "hero", "html": "x"}, AUTH, 400),
        ({"board": "hero"}, {}, 401),
        ({"board": "hero"}, {"authorization": "Bearer wrong"}, 401),
    ]
    for payload, headers, status in cases:
        r = await client.post("/api/reload", json=payload, headers=headers)
        assert r.status_code == status, (payload, r.text)
        assert r.headers["content-type"] == "application/json"
    remote = make_client(local_settings, client_host="192.0.2.10")
    r = await remote.post("/api/reload", json={"board": "hero"}, headers=AUTH)
    assert r.status_code == 403 and r.json()["error"] == "not_loopback"


async def test_static_site_served_without_escapes(make_client, local_settings, site, tmp_path):
    (tmp_path / "secret.txt").write_text("top secret")
    (site / "serve.json").write_text('{"token": "x"}')
    (site / ".hidden").write_text("hidden")
    (site / "boards/hero/link.txt").symlink_to(tmp_path / "secret.txt")
    client = make_client(local_settings)
    r = await client.get("/boards/hero/")
    assert r.status_code == 200 and "<h1>hero</h1>" in r.text
    assert (await client.get("/")).status_code == 200
    for path in ["/serve.json", "/.hidden", "/boards/hero/link.txt", "/../secret.txt", "/%2e%2e/secret.txt"]:
        r = await client.get(path)
        assert r.status_code == 404, path
        assert "top secret" not in r.text
    r = await client.get("/boards/")  # a folder without index.html: no listing
    assert r.status_code == 404


async def test_healthz_and_unknown_routes(make_client, local_settings):
    client = make_client(local_settings)
    r = await client.get("/healthz")
    assert r.status_code == 200 and r.json()["ok"] is True
    r = await client.get("/api/nothing")
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    r = await client.get("/api/feedback")
    assert r.status_code == 405 and r.json()["error"] == "method_not_allowed"


async def test_openapi_document_is_valid(make_client, local_settings):
    client = make_client(local_settings)
    doc = (await client.get("/api/openapi.json")).json()
    from openapi_spec_validator import validate

    validate(doc)
    assert {"/api/feedback", "/api/progress", "/api/events", "/api/reload", "/healthz"} <= set(doc["paths"])
    feedback = doc["components"]["schemas"]["Feedback"]
    assert feedback["additionalProperties"] is False
    assert set(doc["paths"]["/api/feedback"]["post"]["responses"]) >= {
        "200",
        "400",
        "403",
        "409",
        "413",
        "415",
        "422",
        "429",
        "500",
        "503",
    }


async def test_hook_failure_does_not_fail_a_stored_submit(make_client, local_settings, store_dir):
    def boom(record: dict[str, Any]) -> None:
        raise RuntimeError("hook bug")

    client = make_client(local_settings, hooks=Hooks(on_feedback=boom))
    r = await client.post("/api/feedback", json=body())
    assert r.status_code == 200 and len(stored(store_dir)) == 1


async def test_logs_are_json_without_text_or_ip(make_client, local_settings, caplog):
    import logging

    client = make_client(local_settings.model_copy(update={"log_requests": True}))
    logger = logging.getLogger("pinup_feedback")
    logger.addHandler(caplog.handler)
    try:
        with caplog.at_level(logging.INFO, logger="pinup_feedback"):
            await client.post("/api/feedback", json=body(overall="PRIVATE-REMARK", reviewer="Zed Secretname"))
    finally:
        logger.removeHandler(caplog.handler)
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "pinup_feedback"]
    [line] = [x for x in lines if x.get("path") == "/api/feedback"]
    assert line["status"] == 200 and line["board"] == "hero" and line["request_id"] and "latency_ms" in line
    text = caplog.text
    assert "PRIVATE-REMARK" not in text and "Secretname" not in text and "127.0.0.1" not in text


async def test_concurrent_finals_one_wins(make_client, local_settings, store_dir):
    import asyncio

    client = make_client(local_settings)
    results = await asyncio.gather(*[client.post("/api/feedback", json=body(clientId=f"tab-{n}")) for n in range(6)])
    codes = sorted(r.status_code for r in results)
    assert codes == [200, 409, 409, 409, 409, 409]
    assert len(stored(store_dir)) == 1


async def test_openapi_lists_exactly_the_app_routes(make_client, local_settings, store_dir):
    from starlette.routing import Mount, Route

    for settings in (local_settings, Settings(mode="hosted", store=str(store_dir), log_requests=False)):
        client = make_client(settings)
        doc = (await client.get("/api/openapi.json")).json()
        served = set()
        for route in client.app.routes:
            if isinstance(route, Mount) and route.path == "/api":
                served |= {
                    ("/api" + r.path, m.lower())
                    for r in route.routes
                    if isinstance(r, Route)
                    for m in r.methods - {"HEAD"}
                }
            elif isinstance(route, Route):
                served |= {(route.path, m.lower()) for m in route.methods - {"HEAD"}}
        documented = {(path, method) for path, ops in doc["paths"].items() for method in ops}
        assert served == documented


async def test_hosted_changed_body_after_an_unacknowledged_failure_is_stored(make_client, store_dir):
    settings = Settings(mode="hosted", store=str(store_dir), log_requests=False)
    flaky = flaky_file_store(failures=1)

    client = make_client(settings, store=flaky(store_dir))
    assert (await client.post("/api/feedback", json=body(overall="first try"))).status_code == 500
    second = make_client(settings, store=flaky(store_dir))
    r = await second.post("/api/feedback", json=body(overall="edited after the error"))
    assert r.status_code == 200  # nothing was acknowledged before, so the edit is not a double submit
    third = make_client(settings, store=flaky(store_dir))
    assert (await third.post("/api/feedback", json=body(overall="edited after the error"))).json() == r.json()
    assert (await third.post("/api/feedback", json=body(overall="first try"))).status_code == 409
    assert [rec["overall"] for rec in stored(store_dir)] == ["edited after the error"]
