"""The MCP tool `drift` through the SDK's own stdio client: the same report as `pinup drift --format json`."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TREE = Path(__file__).resolve().parent / "drift_tree"
ENV = {"PYTHONPATH": os.pathsep.join([str(ROOT / "generator"), str(ROOT / "functions")])}


def text_of(result: Any) -> str:
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def session(workspace: Path) -> dict[str, Any]:
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "pinup", "mcp", "--workspace", str(workspace)], env=ENV, cwd=str(TREE)
    )
    async with Client(params, read_timeout_seconds=60) as client:
        return {
            "tools": {t.name for t in (await client.list_tools()).tools},
            "drift": await client.call_tool("drift", {"paths": ["src/app.js", "src/button.css"]}),
            "no_design": await client.call_tool("drift", {"paths": ["src"], "design": "nowhere/DESIGN.md"}),
            "bad_baseline": await client.call_tool("drift", {"paths": ["src"], "baseline": "DESIGN.md"}),
        }


def test_the_drift_tool_reports_like_the_command(tmp_path: Path) -> None:
    out = asyncio.run(session(tmp_path))
    assert "drift" in out["tools"]
    result = out["drift"]
    assert not result.is_error, text_of(result)
    report = result.structured_content if result.structured_content is not None else json.loads(text_of(result))
    expected = json.loads((TREE / "expected.json").read_text("utf-8"))
    wanted = [d for d in expected if d["file"] in ("src/app.js", "src/button.css")]
    assert [(d["file"], d["line"], d["column"], d["token"]) for d in report["drift"]] == [
        (d["file"], d["line"], d["column"], d["token"]) for d in wanted
    ]
    assert report["design"] == str(TREE / "DESIGN.md") and report["summary"]["drift"] == len(wanted)
    assert out["no_design"].is_error and 'Error: "nowhere/DESIGN.md" not found' in text_of(out["no_design"])
    assert out["bad_baseline"].is_error and "is not a pinup drift baseline" in text_of(out["bad_baseline"])
