"""`pinup mcp` refuses bad calls in words an agent can act on, and serves the DESIGN.md and each
board's latest hand-off as resources; through the SDK's own stdio client."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import serve_process

from tests.mcp.threaded import in_thread

ROOT = Path(__file__).resolve().parents[2]
ENV = {"PYTHONPATH": os.pathsep.join([str(ROOT / "generator"), str(ROOT / "functions")])}
BOARD = "trail-home"
FINAL = {
    "schemaVersion": 1,
    "board": BOARD,
    "round": 1,
    "clientId": "reviewer-tab-1",
    "preferred": "B",
    "ratings": {"B": 5},
    "comments": {"A": "Too busy"},
    "overall": "B reads best",
}
#: what pydantic's own report looks like; none of it may reach the agent
PYDANTIC = ("validation error", "errors.pydantic.dev", "Field required", "Arguments", "input_value", "type=")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The example with one reviewer's final feedback stored by a real `pinup serve` (two items)."""
    tmp = tmp_path_factory.mktemp("mcp")
    src = serve_process.copy_example(tmp / "ws")
    site = tmp / "site"
    served = serve_process.start(
        ["serve", str(src), "--no-open", "--port", "0", "--out", str(site), "--timeout", "0"],
        cwd=tmp,
        src=src,
        site=site,
    )
    try:
        assert httpx.post(f"{served.base}/api/feedback", json=FINAL, timeout=10).status_code == 200

        def numbered() -> bool:
            answer = httpx.get(f"{served.base}/api/items", params={"board": BOARD}, timeout=10)
            return answer.status_code == 200 and len(answer.json()["items"]) == 2

        assert serve_process.wait_until(numbered, 30)
    finally:
        served.stop()
    yield src


def text_of(result: Any) -> str:
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def session(src: Path) -> dict[str, Any]:
    from mcp import Client, StdioServerParameters
    from mcp.shared.exceptions import MCPError

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "pinup", "mcp", "--workspace", str(src)], env=ENV, cwd=str(src.parent)
    )
    calls = {
        "missing_n": ("claim_item", {"board": BOARD, "number": 3}),
        "n_word": ("claim_item", {"n": "two", "board": BOARD}),
        "n_zero": ("claim_item", {"n": 0, "board": BOARD}),
        "bad_resolve": ("resolve_item", {"n": 1, "board": BOARD, "status": "done", "summary": ""}),
        "unknown_board": ("list_items", {"board": "nope"}),
        "unknown_item": ("claim_item", {"n": 99, "board": BOARD}),
        "unknown_record": ("get_feedback", {"board": BOARD, "id": "no-such-record"}),
        "negative_wait": ("wait_for_feedback", {"board": BOARD, "timeout": -1}),
        "bad_spec": ("spec", {"format": "yaml", "rules": "maybe"}),
        "no_tool": ("deploy", {}),
        "good": ("list_items", {"board": BOARD}),
        "handoff": ("handoff", {"board": BOARD}),
    }
    out: dict[str, Any] = {}
    async with Client(params, read_timeout_seconds=60) as client:
        out["tools"] = (await client.list_tools()).tools
        for key, (tool, args) in calls.items():
            out[key] = await client.call_tool(tool, args)
        out["extra"] = {t.name: await client.call_tool(t.name, {"bogus": 1}) for t in out["tools"]}
        out["resources"] = [str(r.uri) for r in (await client.list_resources()).resources]
        out["templates"] = [t.uri_template for t in (await client.list_resource_templates()).resource_templates]
        out["design"] = (await client.read_resource("pinup://workspace/DESIGN.md")).contents[0]
        out["read_handoff"] = (await client.read_resource(f"pinup://boards/{BOARD}/handoff")).contents[0]
        for key, uri in (
            ("no_board", "pinup://boards/nope/handoff"),
            ("no_feedback", "pinup://boards/sighting-badge/handoff"),
        ):
            try:
                await client.read_resource(uri)
            except MCPError as exc:
                out[key] = str(exc)
    return out


def test_bad_calls_are_refused_in_words_and_resources_are_served(workspace: Path) -> None:
    out = in_thread(session(workspace))
    refusals = {k: v for k, v in out.items() if hasattr(v, "is_error") and k not in ("good", "handoff")}
    for key, result in refusals.items():
        text = text_of(result)
        assert result.is_error, key
        assert not any(p in text for p in PYDANTIC), (key, text)
    words = {k: text_of(v) for k, v in refusals.items()}
    assert words["missing_n"].startswith(
        "claim_item needs `n`, the item number, #n in the hand-off and list_items; it got `board`, `number`."
    )
    assert "claim_item does not take `number`. It takes `n` (the item number" in words["missing_n"]
    assert words["n_word"] == 'claim_item: `n` must be a whole number of 1 or more; it got "two".'
    assert words["n_zero"] == "claim_item: `n` must be a whole number of 1 or more; it got 0."
    assert (
        '`status` must be one of `resolved`, `wont_fix`, `needs_clarification`; it got "done".' in words["bad_resolve"]
    )
    assert '`summary` must be text that is not empty; it got "".' in words["bad_resolve"]
    assert "there is no board `nope`; the boards are `sighting-badge`, `trail-home`" in words["unknown_board"]
    assert "no item #99" in words["unknown_item"] and "its items are #1 to #2" in words["unknown_item"]
    assert "there is no feedback record `no-such-record`" in words["unknown_record"]
    assert "`timeout` must be a number of 0 or more; it got -1." in words["negative_wait"]
    assert "`format` must be one of `markdown`, `json`" in words["bad_spec"]
    assert "`rules` must be true or false" in words["bad_spec"]
    assert words["no_tool"].startswith("there is no tool `deploy`; the tools are `claim_item`, ")
    assert [i["n"] for i in out["good"].structured_content["items"]] == [2, 1]  # the newest first

    # every tool refuses an argument it does not take and says what it takes
    assert len(out["extra"]) >= 9
    for name, result in out["extra"].items():
        text = text_of(result)
        assert result.is_error and f"{name} does not take `bogus`." in text and "It take" in text, (name, text)
    # every parameter of these tools is described in the tool list an agent reads
    described = {"get_feedback", "wait_for_feedback", "list_items", "claim_item", "resolve_item", "handoff"}
    described |= {"reload_board", "spec"}
    for tool in out["tools"]:
        if tool.name not in described:
            continue
        for param, prop in tool.input_schema.get("properties", {}).items():
            assert prop.get("description"), (tool.name, param)

    assert "pinup://workspace/DESIGN.md" in out["resources"]
    assert f"pinup://boards/{BOARD}/handoff" in out["resources"]  # a board with feedback
    assert "pinup://boards/sighting-badge/handoff" not in out["resources"]  # none yet
    assert out["templates"] == ["pinup://boards/{board}/handoff"]
    assert out["design"].text == (workspace / "DESIGN.md").read_text(encoding="utf-8")
    assert out["read_handoff"].mime_type == "text/markdown"
    handoff = out["handoff"].structured_content["result"]
    assert out["read_handoff"].text == handoff and "## Open items (2)" in handoff
    assert "there is no board `nope`; the boards are `sighting-badge`, `trail-home`" in out["no_board"]
    assert "no feedback yet for board sighting-badge" in out["no_feedback"]
