"""`pinup feedback show` and the hand-off name where each attached image is."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from attachment_images import photo
from click.testing import CliRunner

from pinup.cli import cli
from pinup_feedback.attachments import clean
from pinup_feedback.store.base import iso_ts, now_utc
from pinup_feedback.store.file import FileStore


def test_show_and_handoff_give_each_image_its_path(tmp_path: Path) -> None:
    store = FileStore(tmp_path / "store")
    image = clean("logo.png", photo())
    store.put_attachment("hero", image.file, image.data, image.type)
    record = {
        "schemaVersion": 2,
        "board": "hero",
        "round": 1,
        "id": uuid.uuid4().hex,
        "receivedAt": iso_ts(now_utc()),
        "kind": "final",
        "clientHash": "0" * 16,
        "comments": {"A": "the logo is blurry"},
        "attachments": [{"name": "logo.png", "file": image.file, "variant": "A"}],
    }
    store.save(record)
    where = str(tmp_path / "store" / "hero" / image.file)

    shown = CliRunner().invoke(cli, ["feedback", "show", "latest", "--store", str(store.root)])
    assert shown.exit_code == 0, shown.output
    [listed] = json.loads(shown.output)["attachments"]
    assert listed == {"name": "logo.png", "file": image.file, "variant": "A", "path": where}
    assert Path(listed["path"]).read_bytes() == image.data

    handoff = CliRunner().invoke(cli, ["feedback", "handoff", "--store", str(store.root), "--format", "json"])
    assert handoff.exit_code == 0, handoff.output
    [item] = json.loads(handoff.output)["items"]
    assert item["kind"] == "comment" and item["attachments"] == [
        {"name": "logo.png", "file": image.file, "path": where}
    ]
    markdown = CliRunner().invoke(cli, ["feedback", "handoff", "--store", str(store.root)])
    assert f'  - image "logo.png": "{where}"' in markdown.output
