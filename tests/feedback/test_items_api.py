"""GET /api/items and POST /api/items/reopen through the real app (httpx ASGI client)."""

from __future__ import annotations

import asyncio

import pytest
from feedback_helpers import body

from pinup_feedback.settings import Settings
from pinup_feedback.tokens import board_token

pytestmark = pytest.mark.anyio

PIN = {
    "id": "p1",
    "variant": "B",
    "note": "Logo clipped",
    "severity": "blocker",
    "box": {"x": 0, "y": 0, "w": 0.25, "h": 0.1},
    "selector": "header > img",
    "text": "",
    "html": "<img>",
}


async def items_of(client, board: str = "hero", **params: str) -> list[dict]:
    r = await client.get("/api/items", params={"board": board, **params})
    assert r.status_code == 200, r.text
    assert r.json()["board"] == board and r.headers["cache-control"] == "no-store"
    return r.json()["items"]


async def wait_items(client, count: int) -> list[dict]:
    for _ in range(200):  # local numbering runs in a background thread; a read numbers too
        found = await items_of(client)
        if len(found) >= count:
            return found
        await asyncio.sleep(0.01)
    raise AssertionError("items never appeared")


async def test_items_after_a_v2_submission(make_client, local_settings) -> None:
    client = make_client(local_settings)
    r = await client.post("/api/feedback", json=body(schemaVersion=2, pins=[PIN], comments={"A": "busy"}))
    assert r.status_code == 200
    found = await wait_items(client, 3)
    assert [(i["n"], i["kind"], i["variant"], i["status"]) for i in found] == [
        (1, "pin", "B", "open"),
        (2, "comment", "A", "open"),
        (3, "overall", None, "open"),
    ]
    assert found[0]["pin"] == {"box": PIN["box"], "selector": "header > img", "text": "", "html": "<img>"}
    assert found[0]["feedbackId"] == r.json()["id"] and found[0]["round"] == 1
    assert await items_of(client, status="resolved") == []


async def test_reopen_through_the_api_and_through_a_submission(make_client, local_settings, store_dir) -> None:
    client = make_client(local_settings)
    assert (await client.post("/api/feedback", json=body(schemaVersion=2, pins=[PIN]))).status_code == 200
    await wait_items(client, 3)
    life = client.app.state.ctx.lifecycle
    life.resolve("hero", 1, "resolved", "Logo has room now")
    life.resolve("hero", 2, "wont_fix", "A stays busy by design")
    r = await client.post("/api/items/reopen", json={"board": "hero", "n": 1})
    assert r.status_code == 200 and r.json()["status"] == "open" and r.json()["summary"] == "Logo has room now"
    r = await client.post("/api/items/reopen", json={"board": "hero", "n": 99})
    assert r.status_code == 404 and r.json()["error"] == "unknown_item"
    for bad in (
        {"board": "hero"},
        {"board": "hero", "n": "1"},
        {"board": "hero", "n": 0},
        {"board": "../x", "n": 1},
        {"board": "hero", "n": 1, "extra": 1},
        {"board": "hero", "n": True},
    ):
        r = await client.post("/api/items/reopen", json=bad)
        assert r.status_code == 422, bad
    r = await client.post("/api/items/reopen", content=b"{}", headers={"content-type": "text/plain"})
    assert r.status_code == 415
    r = await client.post(
        "/api/items/reopen", json={"board": "hero", "n": 2}, headers={"origin": "https://evil.example"}
    )
    assert r.status_code == 403
    # the reviewer's next round reopens #2 with the body's `reopen`
    client.app.state.boards.reload("hero")
    r = await client.post(
        "/api/feedback", json=body(schemaVersion=2, reopen=[2], clientId="second-round", comments={}, overall=None)
    )
    assert r.status_code == 200, r.text
    for _ in range(200):
        statuses = {i["n"]: i["status"] for i in await items_of(client)}
        if statuses[2] == "open":
            break
        await asyncio.sleep(0.01)
    assert statuses == {1: "open", 2: "open", 3: "open"}


async def test_reopen_needs_the_board_token_when_a_secret_is_set(make_client, store_dir) -> None:
    settings = Settings(mode="hosted", store=str(store_dir), board_secret="s3cret", log_requests=False)
    client = make_client(settings)
    token = {"X-Pinup-Board-Token": board_token("s3cret", "hero")}
    r = await client.post("/api/feedback", json=body(schemaVersion=2, pins=[PIN]), headers=token)
    assert r.status_code == 200
    found = await items_of(client)  # hosted: the read numbers the record
    assert [i["n"] for i in found] == [1, 2, 3]
    client.app.state.ctx.lifecycle.resolve("hero", 1, "resolved", "done")
    r = await client.post("/api/items/reopen", json={"board": "hero", "n": 1})
    assert r.status_code == 403 and r.json()["error"] == "bad_board_token"
    r = await client.post("/api/items/reopen", json={"board": "hero", "n": 1}, headers=token)
    assert r.status_code == 200 and r.json()["status"] == "open"


async def test_items_bad_queries(make_client, local_settings) -> None:
    client = make_client(local_settings)
    assert (await client.get("/api/items")).status_code == 400
    assert (await client.get("/api/items", params={"board": "a/b"})).status_code == 400
    r = await client.get("/api/items", params={"board": "hero", "status": "done"})
    assert r.status_code == 400 and r.json()["error"] == "bad_status"
    assert await items_of(client, "cards") == []
