"""`resolve_item` with commit, pr and evidence through the `mcp` SDK's stdio client: recorded when
good, refused with a sentence and nothing recorded when not; the schema describes each of them."""

from __future__ import annotations

import io
import json
import os
import sys
import uuid
from pathlib import Path
from typing import Any

from PIL import Image

from pinup_feedback.store.base import iso_ts, now_utc
from pinup_feedback.store.file import FileStore
from tests.mcp.threaded import in_thread

ROOT = Path(__file__).resolve().parents[2]
ENV = {"PYTHONPATH": os.pathsep.join([str(ROOT / "generator"), str(ROOT / "functions")])}
SHA = "9fceb02d0ae598e95dc970b74767f19372d61af8"


def text_of(result: Any) -> str:
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def data_of(result: Any) -> Any:
    assert not result.is_error, text_of(result)
    if result.structured_content is not None and set(result.structured_content) == {"result"}:
        return result.structured_content["result"]
    return json.loads(text_of(result))


def test_resolve_item_with_evidence_over_mcp(tmp_path: Path) -> None:
    store = FileStore(tmp_path / "store")
    store.save(
        {
            "schemaVersion": 1,
            "board": "hero",
            "round": 1,
            "id": uuid.uuid4().hex,
            "receivedAt": iso_ts(now_utc()),
            "kind": "final",
            "clientHash": "0" * 16,
            "comments": {"A": "header too small", "B": "good"},
        }
    )
    buffer = io.BytesIO()
    Image.new("RGB", (20, 10), "green").save(buffer, "PNG")
    shot = tmp_path / "after.png"
    shot.write_bytes(buffer.getvalue())
    (tmp_path / "fake.png").write_text("not a picture")
    events = store.root / "_items" / "hero"

    async def session() -> dict[str, Any]:
        from mcp import Client, StdioServerParameters

        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "pinup", "mcp", "--store", str(store.root)],
            env=ENV,
            cwd=str(tmp_path),
        )
        out: dict[str, Any] = {}
        async with Client(params, read_timeout_seconds=120) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            out["schema"] = tools["resolve_item"].input_schema["properties"]
            base = {"board": "hero", "status": "resolved", "summary": "Header is 48px"}
            for name, args in {
                "bad_commit": {"n": 1, **base, "commit": "xyz"},
                "bad_pr": {"n": 1, **base, "pr": "javascript:alert(1)"},
                "bad_file": {"n": 1, **base, "evidence": str(tmp_path / "fake.png")},
            }.items():
                out[name] = await client.call_tool("resolve_item", args)
            out["after_bad"] = sorted(
                str(p)
                for p in events.rglob("*")
                if p.is_file() and {"e", "evidence"} & set(p.relative_to(events).parts)
            )
            out["good"] = data_of(
                await client.call_tool(
                    "resolve_item",
                    {"n": 1, **base, "commit": SHA, "pr": "https://example.com/pr/3", "evidence": str(shot)},
                )
            )
            out["handoff"] = data_of(await client.call_tool("handoff", {"board": "hero"}))
        return out

    out = in_thread(session())
    for name in ("commit", "pr", "evidence"):
        assert out["schema"][name].get("description"), name
    assert out["bad_commit"].is_error and "is not a commit SHA" in text_of(out["bad_commit"])
    assert out["bad_pr"].is_error and "is not an http(s) URL" in text_of(out["bad_pr"])
    assert out["bad_file"].is_error and "is not a readable PNG or JPEG" in text_of(out["bad_file"])
    assert out["after_bad"] == []  # nothing recorded: no event, no file
    good = out["good"]
    assert good["status"] == "resolved" and good["commit"] == SHA and good["pr"] == "https://example.com/pr/3"
    assert good["evidence"]["type"] == "image/png" and good["evidence"]["name"] == "after.png"
    assert (events / good["evidence"]["file"]).read_bytes() == shot.read_bytes()
    md = out["handoff"]
    assert "## Resolved items (1, the newest)" in md and f'  - commit: "{SHA}"' in md
    assert '  - pull request: "https://example.com/pr/3"' in md and good["evidence"]["file"] in md
