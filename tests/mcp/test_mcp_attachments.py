"""`pinup mcp` hands an agent the images a reviewer attached: `get_item` answers with the item and
each image as image content, through the SDK's own stdio client; the hand-off names their paths."""

from __future__ import annotations

import base64
import shutil
import sys
from pathlib import Path
from typing import Any

from attachment_images import photo
from test_mcp_e2e import ENV, ROOT, in_thread, text_of

from pinup_feedback.attachments import clean
from pinup_feedback.records import new_record
from pinup_feedback.store.base import iso_ts, new_id, now_utc
from pinup_feedback.store.file import FileStore

BOARD = "trail-home"


def review_with_images(src: Path) -> tuple[bytes, bytes]:
    """A stored v2 record with a pin carrying a PNG and the overall note a JPEG (as the endpoint
    stores them: cleaned, named by content, the record after its files)."""
    store = FileStore(src / ".pinup" / "feedback")
    png, jpeg = clean("map.png", photo()), clean("site.jpg", photo("JPEG", color="#884400"))
    for image in (png, jpeg):
        store.put_attachment(BOARD, image.file, image.data, image.type)
    body = {
        "schemaVersion": 2,
        "board": BOARD,
        "round": 1,
        "pins": [
            {
                "id": "p1",
                "variant": "A",
                "note": "Add a legend",
                "severity": "major",
                "box": {"x": 0.1, "y": 0.2, "w": 0.3, "h": 0.2},
            }
        ],
        "overall": "See the photo from the site",
        "attachments": [
            {"name": "map.png", "file": png.file, "pin": "p1"},
            {"name": "site.jpg", "file": jpeg.file},
        ],
    }
    store.save(new_record(body, "final", "0" * 16, new_id(), iso_ts(now_utc())))
    return png.data, jpeg.data


def test_get_item_returns_the_attached_images_as_image_content(tmp_path: Path) -> None:
    src = tmp_path / "ws"
    shutil.copytree(ROOT / "site_src", src, ignore=shutil.ignore_patterns(".pinup", "__pycache__"))
    png, jpeg = review_with_images(src)

    async def session() -> dict[str, Any]:
        from mcp import Client, StdioServerParameters

        params = StdioServerParameters(
            command=sys.executable, args=["-m", "pinup", "mcp", "--workspace", str(src)], env=ENV, cwd=str(src)
        )
        async with Client(params, read_timeout_seconds=60) as client:
            return {
                "pin": await client.call_tool("get_item", {"n": 1, "board": BOARD}),
                "overall": await client.call_tool("get_item", {"n": 2, "board": BOARD}),
                "missing": await client.call_tool("get_item", {"n": 99, "board": BOARD}),
                "handoff": await client.call_tool("handoff", {"board": BOARD, "format": "markdown"}),
            }

    out = in_thread(session())
    # a pin comes with a PNG of its region of variant A, rendered in Chromium, before its attachments
    crop = out["pin"].content[1]
    assert crop.type == "image" and crop.mime_type == "image/png"
    from io import BytesIO

    from PIL import Image

    shot = Image.open(BytesIO(base64.b64decode(crop.data)))
    assert 0 < shot.width < 1440 and 0 < shot.height  # the pinned region with a margin, not the whole page
    assert "pinned region" in out["pin"].content[0].text
    for key, data, mime, name in (("pin", png, "image/png", "map.png"), ("overall", jpeg, "image/jpeg", "site.jpg")):
        result = out[key]
        assert not result.is_error, text_of(result)
        text, image = result.content[0], result.content[-1]
        assert len(result.content) == (3 if key == "pin" else 2)
        assert text.type == "text" and name in text.text
        assert image.type == "image" and image.mime_type == mime and base64.b64decode(image.data) == data
    assert out["missing"].is_error
    handoff = text_of(out["handoff"])
    assert 'image "map.png": ".pinup/feedback/trail-home/attachments/' in handoff
    assert 'image "site.jpg"' in handoff
