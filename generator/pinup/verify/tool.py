"""The MCP server's `verify` tool: the verdict as JSON and the diff picture as image content."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

#: the diff picture an agent gets is at most this size (the report keeps the full one)
PICTURE_MAX = (1440, 3000)


def verify_tool(
    ws: Any,
    store: Any,
    board: str,
    url: str | None,
    page_file: str | None,
    variant: str | None,
    round_: int | None,
    threshold: float,
    allow_hosts: list[str],
) -> list[Any]:
    """Run `pinup verify` for an agent; ValueError (a tool error) when it could not run."""
    from mcp.types import ImageContent, TextContent

    from pinup.verify.report import png
    from pinup.verify.run import verify
    from pinup.verify.target import VerifyError, file_target, url_target

    if (url is None) == (page_file is None):
        raise ValueError("give the implementation as either url or file")
    if not 0 <= threshold <= 1:
        raise ValueError("threshold is a share of pixels, from 0 to 1")
    try:
        target = url_target(url, tuple(allow_hosts)) if url is not None else file_target(Path(str(page_file)))
        verdict = verify(
            Path(ws.src),
            store,
            board,
            target,
            variant=variant,
            round_=round_,
            threshold=threshold,
            report_dir=Path(ws.out) / "boards" / board / "verify",
        )
    except VerifyError as exc:
        raise ValueError(str(exc)) from None
    picture = verdict.diff.image.copy()
    picture.thumbnail(PICTURE_MAX)
    return [
        TextContent(type="text", text=json.dumps(verdict.as_json(), ensure_ascii=False, indent=2)),
        ImageContent(type="image", data=base64.b64encode(png(picture)).decode("ascii"), mimeType="image/png"),
    ]
