"""Image attachments through the feedback API: uploaded, checked by their bytes, stored bare beside
the board's records, then named by a submission; every bad file refused by name, nothing stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from attachment_images import has_metadata, noisy_png, photo
from feedback_helpers import body, stored

from pinup_feedback.attachments import MAX_BYTES
from pinup_feedback.tokens import board_token

pytestmark = pytest.mark.anyio


def pin(pid: str = "p1") -> dict[str, object]:
    return {
        "id": pid,
        "variant": "A",
        "note": "logo too small",
        "severity": "major",
        "box": {"x": 0.1, "y": 0.1, "w": 0.2, "h": 0.1},
    }


def v2(**overrides: object) -> dict[str, object]:
    return body(schemaVersion=2, pins=[pin()], **overrides)


async def upload(client, data: bytes, name: str, ctype: str | None = "image/png", board: str = "hero", **headers):
    if ctype is not None:
        headers["content-type"] = ctype
    return await client.post("/api/attachments", params={"board": board, "name": name}, content=data, headers=headers)


def files(store_dir: Path, board: str = "hero") -> list[Path]:
    folder = store_dir / board / "attachments"
    return sorted(folder.iterdir()) if folder.is_dir() else []


@pytest.mark.parametrize(
    ("fmt", "name", "ctype", "ext"),
    [
        ("PNG", "shot.png", "image/png", "png"),
        ("JPEG", "photo.JPG", "image/jpeg", "jpg"),
        ("WEBP", "clip.webp", "image/webp", "webp"),
    ],
)
async def test_an_image_is_stored_without_its_metadata_and_named_by_the_record(
    make_client, local_settings, store_dir, fmt, name, ctype, ext
):
    client = make_client(local_settings)
    original = photo(fmt)
    r = await upload(client, original, name, ctype)
    assert r.status_code == 201, r.text
    answer = r.json()
    assert answer["file"].startswith("attachments/") and answer["file"].endswith("." + ext)
    assert (answer["type"], answer["width"], answer["height"]) == (ctype, 64, 48)
    [path] = files(store_dir)
    assert path.relative_to(store_dir / "hero").as_posix() == answer["file"]
    kept = path.read_bytes()
    assert has_metadata(original) and not has_metadata(kept)

    attachments = [{"name": name, "file": answer["file"], "pin": "p1"}]
    r = await client.post("/api/feedback", json=v2(attachments=attachments))
    assert r.status_code == 200, r.text
    [record] = stored(store_dir)
    assert record["attachments"] == attachments and record["pins"][0]["id"] == "p1"


async def test_the_same_image_twice_is_one_file(make_client, local_settings, store_dir):
    client = make_client(local_settings)
    first = (await upload(client, photo(), "a.png")).json()
    again = (await upload(client, photo(), "b.png")).json()
    assert first["file"] == again["file"] and len(files(store_dir)) == 1


@pytest.mark.parametrize(
    ("data", "name", "ctype", "status", "says"),
    [
        (b"%PDF-1.7 not an image at all", "notes.png", "image/png", 415, "is not a PNG, JPEG or WebP image"),
        (b"hello", "hello.txt", "text/plain", 415, "not as an image"),
        (None, "shot.jpg", "image/jpeg", 415, "is named as JPEG but is a PNG image"),
        (None, "shot", "image/jpeg", 415, "is sent as image/jpeg but is a PNG image"),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "broken.png", "image/png", 415, "is not a readable PNG image"),
        (b"GIF89a" + b"\x00" * 32, "anim.gif", "image/gif", 415, "not a PNG, JPEG or WebP image"),
    ],
)
async def test_a_bad_file_is_refused_by_name_and_nothing_is_stored(
    make_client, local_settings, store_dir, data, name, ctype, status, says
):
    client = make_client(local_settings)
    r = await upload(client, photo() if data is None else data, name, ctype)
    assert r.status_code == status, r.text
    detail = r.json()["detail"]
    assert detail["file"] == name and name in detail["msg"] and says in detail["msg"]
    assert files(store_dir) == [] and stored(store_dir) == []


async def test_a_file_over_2_mb_is_refused_by_name(make_client, local_settings, store_dir):
    client = make_client(local_settings)
    big = noisy_png(MAX_BYTES + 1)
    r = await upload(client, big, "huge.png")
    assert r.status_code == 413 and r.json()["error"] == "attachment_too_large"
    assert r.json()["detail"]["file"] == "huge.png" and "2 MB" in r.json()["detail"]["msg"]
    assert files(store_dir) == []


async def test_a_submission_naming_a_file_never_uploaded_is_refused(make_client, local_settings, store_dir):
    client = make_client(local_settings)
    missing = "attachments/" + "0" * 64 + ".png"
    r = await client.post("/api/feedback", json=v2(attachments=[{"name": "ghost.png", "file": missing}]))
    assert r.status_code == 422
    [error] = r.json()["detail"]
    assert error["path"] == "attachments.0.file" and "ghost.png" in error["msg"]
    assert stored(store_dir) == []


@pytest.mark.parametrize(
    ("attachment", "path"),
    [
        ({"name": "a.png", "file": "attachments/../../etc/passwd"}, "attachments.0.file"),
        ({"name": "a.png", "pin": "nope"}, "attachments.0.pin"),
        ({"name": "a.png", "variant": "Q"}, "attachments.0.variant"),
        ({"name": "a/b.png"}, "attachments.0.name"),
    ],
)
async def test_attachment_fields_are_checked(make_client, local_settings, store_dir, attachment, path):
    client = make_client(local_settings)
    file = (await upload(client, photo(), "a.png")).json()["file"]
    r = await client.post("/api/feedback", json=v2(attachments=[{"file": file, **attachment}]))
    assert r.status_code == 422, r.text
    assert path in [e["path"] for e in r.json()["detail"]]
    assert stored(store_dir) == []


async def test_at_most_five_attachments(make_client, local_settings, store_dir):
    client = make_client(local_settings)
    file = (await upload(client, photo(), "a.png")).json()["file"]
    six = [{"name": f"{n}.png", "file": file} for n in range(6)]
    r = await client.post("/api/feedback", json=v2(attachments=six))
    assert r.status_code == 422 and r.json()["detail"][0]["path"] == "attachments"
    five = await client.post("/api/feedback", json=v2(attachments=six[:5]))
    assert five.status_code == 200 and len(stored(store_dir)[0]["attachments"]) == 5


async def test_uploads_need_the_board_token_and_a_board(make_client, local_settings, store_dir):
    client = make_client(local_settings.model_copy(update={"board_secret": "s3cret"}))
    r = await upload(client, photo(), "a.png")
    assert r.status_code == 403 and files(store_dir) == []
    token = board_token("s3cret", "hero")
    r = await upload(client, photo(), "a.png", **{"x-pinup-board-token": token})
    assert r.status_code == 201
    r = await upload(client, photo(), "a.png", board="../etc")
    assert r.status_code == 400


async def test_v1_and_v2_bodies_without_attachments_are_stored_as_before(make_client, local_settings, store_dir):
    client = make_client(local_settings)
    assert (
        await client.post("/api/feedback", json=body(regenerated=True, regenerateAction="different"))
    ).status_code == 200
    assert (await client.post("/api/feedback", json=v2())).status_code == 200
    records = stored(store_dir)
    assert len(records) == 2 and not any("attachments" in r for r in records)
    assert json.dumps(records).count("attachments") == 0


async def test_an_attached_image_is_served_for_the_next_round_and_listed_with_its_item(
    make_client, local_settings, store_dir
):
    client = make_client(local_settings)
    answer = (await upload(client, photo(), "a.png")).json()
    attachments = [{"name": "a.png", "file": answer["file"], "pin": "p1"}]
    assert (await client.post("/api/feedback", json=v2(attachments=attachments))).status_code == 200
    name = answer["file"].split("/", 1)[1]
    r = await client.get(f"/api/attachments/hero/{name}")
    assert r.status_code == 200 and r.headers["content-type"] == "image/png"
    assert r.content == (store_dir / "hero" / answer["file"]).read_bytes() and "immutable" in r.headers["cache-control"]
    for bad in (
        f"/api/attachments/hero/{'0' * 64}.png",
        "/api/attachments/hero/x.png",
        f"/api/attachments/nope/{name}",
    ):
        assert (await client.get(bad)).status_code == 404, bad
    items = (await client.get("/api/items?board=hero")).json()["items"]
    [pin_item] = [i for i in items if i["kind"] == "pin"]
    assert pin_item["attachments"] == [{"name": "a.png", "file": answer["file"]}]
    assert all("attachments" not in i for i in items if i["kind"] != "pin")
