"""`pinup mcp` through the SDK's own stdio client, against a real `pinup serve` and a Chromium submission."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.mcp.threaded import in_thread

ROOT = Path(__file__).resolve().parents[2]
BOARD = "trail-home"
ENV = {"PYTHONPATH": os.pathsep.join([str(ROOT / "generator"), str(ROOT / "functions")])}
TOOLS = {
    "list_boards",
    "get_feedback",
    "wait_for_feedback",
    "list_items",
    "get_item",
    "claim_item",
    "resolve_item",
    "handoff",
    "reload_board",
    "spec",
    "verify",
    "drift",
}


def wait_until(predicate: Any, timeout: float = 60) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return bool(predicate())


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A copy of the example workspace, built and served by `pinup serve` on a free port."""
    src = tmp_path / "ws"
    shutil.copytree(ROOT / "site_src", src, ignore=shutil.ignore_patterns(".pinup", "__pycache__"))
    site = tmp_path / "site"
    with subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pinup",
            "serve",
            str(src),
            "--no-open",
            "--port",
            "0",
            "--out",
            str(site),
            "--timeout",
            "0",
        ],
        cwd=tmp_path,
        env={**os.environ, **ENV},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:  # leaving the block closes the stderr pipe
        try:
            assert wait_until(lambda: (site / "serve.json").is_file() or proc.poll() is not None, 120)
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            info = json.loads((site / "serve.json").read_text())
            yield {"src": src, "site": site, "base": f"http://127.0.0.1:{info['port']}", "tmp": tmp_path}
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


def text_of(result: Any) -> str:
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def data_of(result: Any) -> Any:
    assert not result.is_error, text_of(result)
    if result.structured_content is not None and set(result.structured_content) == {"result"}:
        return result.structured_content["result"]
    return json.loads(text_of(result))


async def agent_session(src: Path, submitted: threading.Event, out: dict[str, Any]) -> None:
    """What a coding agent does: wait for the review, read it, claim and resolve, reload the board."""
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "pinup", "mcp", "--workspace", str(src)], env=ENV, cwd=str(src.parent)
    )
    async with Client(params, read_timeout_seconds=120) as client:
        out["tools"] = {t.name for t in (await client.list_tools()).tools}
        waiting = asyncio.create_task(client.call_tool("wait_for_feedback", {"board": BOARD, "timeout": 90}))
        await asyncio.sleep(0.5)
        out["blocked"] = not waiting.done()
        submitted.set()  # the browser may submit now
        out["waited"] = data_of(await waiting)
        out["boards"] = data_of(await client.call_tool("list_boards", {}))
        out["latest"] = data_of(await client.call_tool("get_feedback", {"board": BOARD}))
        out["items"] = data_of(await client.call_tool("list_items", {"board": BOARD}))
        out["claim"] = data_of(await client.call_tool("claim_item", {"n": 1, "board": BOARD, "agent": "agent-1"}))
        out["claim_again"] = await client.call_tool("claim_item", {"n": 1, "board": BOARD, "agent": "agent-2"})
        out["unknown"] = await client.call_tool(
            "resolve_item", {"n": 99, "board": BOARD, "status": "resolved", "summary": "x"}
        )
        out["resolve"] = data_of(
            await client.call_tool(
                "resolve_item",
                {
                    "n": 1,
                    "board": BOARD,
                    "status": "resolved",
                    "summary": "Removed the second banner",
                    "agent": "agent-1",
                },
            )
        )
        out["open"] = data_of(await client.call_tool("list_items", {"board": BOARD, "status": "open"}))
        out["handoff_md"] = data_of(await client.call_tool("handoff", {"board": BOARD}))
        out["handoff_json"] = data_of(await client.call_tool("handoff", {"board": BOARD, "format": "json"}))
        out["reload"] = data_of(await client.call_tool("reload_board", {"board": BOARD}))
        out["spec"] = data_of(await client.call_tool("spec", {"rules": True}))
        out["timeout"] = data_of(await client.call_tool("wait_for_feedback", {"board": BOARD, "timeout": 0.2}))


@pytest.mark.browser
def test_an_agent_acts_on_a_chromium_review_over_mcp(served: dict[str, Any], page: Any) -> None:
    submitted = threading.Event()
    out: dict[str, Any] = {}
    errors: list[BaseException] = []

    def agent() -> None:
        try:
            asyncio.run(agent_session(served["src"], submitted, out))
        except BaseException as exc:  # reported below
            errors.append(exc)
            submitted.set()

    worker = threading.Thread(target=agent)
    worker.start()
    assert submitted.wait(120)
    page.goto(f"{served['base']}/boards/{BOARD}/index.html")
    page.wait_for_selector("#submit-btn")
    page.fill("#reviewer-name", "Ines <b>")
    page.check("input[name=preferred][value=B]")
    page.click(".stars[data-variant=B] .star[data-value='5']")
    page.fill(".feedback-input[data-variant=A]", "Too busy")
    page.fill("#overall-feedback", "Go with the map\n## Next step\n<script>alert(1)</script>")
    page.click("#submit-btn")
    page.wait_for_function("document.querySelector('#status').textContent === 'submitted'")
    worker.join(180)
    assert not worker.is_alive() and errors == [], errors

    assert out["tools"] == TOOLS and out["blocked"] is True
    record = out["waited"]["record"]
    assert out["waited"]["status"] == "final" and record["preferred"] == "B" and record["ratings"] == {"B": 5}
    assert out["latest"]["id"] == record["id"]
    [board] = [b for b in out["boards"]["boards"] if b["board"] == BOARD]
    assert board["records"] == 1 and board["openItems"] == 2 and board["url"].startswith(served["base"])
    assert [(i["n"], i["kind"], i["variant"]) for i in out["items"]["items"]] == [
        (2, "overall", None),  # the newest first
        (1, "comment", "A"),
    ]
    assert out["claim"]["status"] == "in_progress"
    assert out["claim_again"].is_error and "already claimed by agent-1" in text_of(out["claim_again"])
    assert out["unknown"].is_error and "no item #99" in text_of(out["unknown"])
    assert out["resolve"]["status"] == "resolved" and out["resolve"]["summary"] == "Removed the second banner"
    assert [i["n"] for i in out["open"]["items"]] == [2]
    md = out["handoff_md"]
    assert "## Open items (1)" in md and "<" not in md and md.splitlines().count("## Next step") == 1
    assert (
        '#2 overall (open, round 1): "Go with the map\\n## Next step\\n\\u003cscript\\u003ealert(1)'
        '\\u003c/script\\u003e"'
    ) in md
    assert 'Reviewer: "Ines \\u003cb\\u003e"' in md
    assert out["handoff_json"]["preferredVariant"]["label"] == "Map first"
    assert out["reload"] == {"reloaded": True, "board": BOARD}
    assert httpx.get(f"{served['base']}/api/progress", params={"board": BOARD}).json()["status"] == "serving"
    assert "## Lint rules" in out["spec"] and "`broken-ref`" in out["spec"]
    assert out["timeout"] == {"status": "timeout", "record": None}
    # the CLI sees what the agent did over MCP
    cli = subprocess.run(
        [sys.executable, "-m", "pinup", "feedback", "items", "--src", str(served["src"]), "--format", "json", "--all"],
        capture_output=True,
        text=True,
        env={**os.environ, **ENV},
        timeout=60,
        cwd=served["tmp"],
    )
    assert [i["status"] for i in json.loads(cli.stdout)["items"]] == ["resolved", "open"]


def test_mcp_reports_a_missing_server_and_bad_arguments(tmp_path: Path) -> None:
    src = tmp_path / "ws"
    shutil.copytree(ROOT / "site_src", src, ignore=shutil.ignore_patterns(".pinup", "__pycache__"))

    async def session() -> dict[str, Any]:
        from mcp import Client, StdioServerParameters

        params = StdioServerParameters(
            command=sys.executable, args=["-m", "pinup", "mcp", "--workspace", str(src)], env=ENV, cwd=str(tmp_path)
        )
        async with Client(params, read_timeout_seconds=60) as client:
            return {
                "reload": await client.call_tool("reload_board", {"board": BOARD}),
                "items": await client.call_tool("list_items", {}),
                "status": await client.call_tool(
                    "resolve_item", {"n": 1, "board": BOARD, "status": "done", "summary": "x"}
                ),
                "boards": data_of(await client.call_tool("list_boards", {})),
            }

    out = in_thread(session())
    assert out["reload"].is_error and "no `pinup serve` is running" in text_of(out["reload"])
    assert out["items"].is_error and "no feedback yet" in text_of(out["items"])
    assert out["status"].is_error
    assert out["boards"] == {"boards": [], "served": False}


def test_a_client_gone_mid_wait_ends_the_server(tmp_path: Path) -> None:
    """The client closes the stream while `wait_for_feedback` blocks: `pinup mcp` exits at once.

    Driven as raw JSON-RPC lines, because the SDK's client kills its server on close and would
    hide how long the server would have lived on: until the wait's timeout, here ten minutes.
    """
    src = tmp_path / "ws"
    shutil.copytree(ROOT / "site_src", src, ignore=shutil.ignore_patterns(".pinup", "__pycache__"))
    lines = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "wait_for_feedback", "arguments": {"board": BOARD, "timeout": 600}},
        },
    ]
    with subprocess.Popen(
        [sys.executable, "-m", "pinup", "mcp", "--workspace", str(src)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **ENV},
        cwd=tmp_path,
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write((json.dumps(lines[0]) + "\n").encode())
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == 1
        for line in lines[1:]:
            proc.stdin.write((json.dumps(line) + "\n").encode())
        proc.stdin.flush()
        # the server reads in order: once it answers this ping, the wait's call is under way
        proc.stdin.write((json.dumps({"jsonrpc": "2.0", "id": 3, "method": "ping"}) + "\n").encode())
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == 3
        proc.stdin.close()
        try:
            code = proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise AssertionError("pinup mcp kept running after its client closed the stream") from None
        assert code == 0, proc.stderr.read() if proc.stderr else ""
