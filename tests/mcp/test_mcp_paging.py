"""`list_items` over MCP pages like `pinup feedback items`: the newest first, `limit`, `since` and
`all`, with the same answers, and an answer that says what it left out and how to ask for it;
through the SDK's own stdio client against `pinup mcp`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tests.mcp.threaded import in_thread

ROOT = Path(__file__).resolve().parents[2]
ENV = {"PYTHONPATH": os.pathsep.join([str(ROOT / "generator"), str(ROOT / "functions")])}
BOARD = "trail-home"
RECORDS = 30


def make_workspace(tmp_path: Path) -> Path:
    """The example with RECORDS final submissions (three items each) in its local store, one a minute."""
    from pinup_feedback.store.base import iso_ts
    from pinup_feedback.store.file import FileStore

    src = tmp_path / "ws"
    shutil.copytree(ROOT / "site_src", src, ignore=shutil.ignore_patterns(".pinup", "__pycache__"))
    store = FileStore(src / ".pinup" / "feedback")
    start = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
    for k in range(RECORDS):
        store.save(
            {
                "schemaVersion": 1,
                "board": BOARD,
                "round": 1,
                "id": uuid.uuid4().hex,
                "receivedAt": iso_ts(start + timedelta(minutes=k)),
                "kind": "final",
                "reviewer": f"reviewer {k}",
                "preferred": "A",
                "comments": {"A": f"too busy ({k})", "B": "good"},
                "overall": f"tighter spacing ({k})",
            }
        )
    return src


def cli_items(src: Path, *args: str) -> list[dict[str, Any]]:
    """What `pinup feedback items --format json` shows with these options."""
    done = subprocess.run(
        [sys.executable, "-m", "pinup", "feedback", "items", "--board", BOARD, "--src", str(src), "--format", "json"]
        + list(args),
        env={**os.environ, **ENV},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)["items"]
    return found


async def session(src: Path) -> dict[str, Any]:
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "pinup", "mcp", "--workspace", str(src)], env=ENV, cwd=str(src.parent)
    )
    out: dict[str, Any] = {}
    async with Client(params, read_timeout_seconds=60) as client:

        async def call(key: str, args: dict[str, Any]) -> Any:
            out[key] = await client.call_tool("list_items", {"board": BOARD, **args})
            return out[key].structured_content

        first = await call("default", {})
        await call("page", {"limit": 7})
        await call("since", {"since": first["newest"], "limit": 100})
        await call("hour", {"since": "2026-12-01T09:20", "limit": 100})
        await call("all", {"all": True})
        await call("open", {"status": "open", "limit": 5})
        await call("followed", {"limit": first["total"]})
        await call("zero", {"limit": 0})
        await call("word", {"since": "yesterday"})
        await call("maybe", {"all": "maybe"})
    return out


def text_of(result: Any) -> str:
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def test_list_items_pages_as_the_command_line_does(tmp_path: Path) -> None:
    src = make_workspace(tmp_path)
    out = dict(in_thread(session(src)))
    answers = {key: result.structured_content for key, result in out.items() if not result.is_error}
    total = RECORDS * 3

    default = answers["default"]
    assert (default["shown"], default["total"], default["more"]) == (50, total, total - 50)
    assert default["items"] == cli_items(src)  # the command line's default page, item for item
    assert default["newest"] == "2026-12-01T09:29:00.000000Z"
    assert f"{total - 50} older items are not shown" in default["next"]
    assert f"`limit` {total}" in default["next"] and "`all` true" in default["next"]
    assert '`since` "2026-12-01T09:29:00.000000Z"' in default["next"]

    page = answers["page"]
    assert page["items"] == cli_items(src, "--limit", "7") and page["more"] == total - 7
    numbers = [item["n"] for item in page["items"]]
    assert numbers == sorted(numbers, reverse=True) and numbers[0] == total  # the newest first

    # `since` the newest an answer named: only what was received then (the last submission's items)
    assert [item["n"] for item in answers["since"]["items"]] == [total, total - 1, total - 2]
    assert answers["since"]["more"] == 0 and answers["since"]["next"].startswith("These are all 3 items.")
    assert answers["hour"]["items"] == cli_items(src, "--since", "2026-12-01T09:20", "--limit", "100")
    assert answers["hour"]["total"] == 30

    everything = answers["all"]
    assert [item["n"] for item in everything["items"]] == list(range(1, total + 1))  # by number
    assert everything["items"] == cli_items(src, "--all") and everything["more"] == 0

    opened = answers["open"]
    assert opened["items"] == cli_items(src, "--status", "open", "--limit", "5")
    assert "older open items are not shown" in opened["next"]

    # following `next` shows the rest
    followed = answers["followed"]
    assert followed["shown"] == total and followed["more"] == 0

    refusals = {key: text_of(out[key]) for key in ("zero", "word", "maybe")}
    assert all(out[key].is_error for key in refusals)
    assert refusals["zero"] == "list_items: `limit` must be a whole number of 1 or more; it got 0."
    assert "'yesterday' is not an ISO date or time, such as 2026-12-05" in refusals["word"]
    assert refusals["maybe"] == 'list_items: `all` must be true or false; it got "maybe".'
