"""Image attachments on a board, in real Chromium against a real `pinup serve`: chosen with the file
picker, pasted and dropped; stored without their metadata beside the records; every bad file refused
by name, nothing stored and the draft kept."""

from __future__ import annotations

import base64
import json

import pytest
from attachment_images import has_metadata, noisy_png, photo
from boards_helpers import Served
from test_boards_e2e import next_round

from pinup_feedback.attachments import MAX_BYTES

pytestmark = pytest.mark.browser

BOARD = "trail-home"

#: a synthetic paste or drop carrying one real file, as the browser builds them from the clipboard
GIVE_FILE = """([selector, kind, b64, name, type]) => {
  const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
  const data = new DataTransfer();
  data.items.add(new File([bytes], name, {type}));
  const target = document.querySelector(selector);
  const event = kind === 'paste'
    ? new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true})
    : new DragEvent('drop', {dataTransfer: data, bubbles: true, cancelable: true});
  target.dispatchEvent(event);
}"""


def open_board(page, served: Served):  # type: ignore[no-untyped-def]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(served.board_url(BOARD))
    page.wait_for_selector("#submit-btn")
    return errors


def give(page, selector: str, kind: str, data: bytes, name: str, mime: str) -> None:  # type: ignore[no-untyped-def]
    page.evaluate(GIVE_FILE, [selector, kind, base64.b64encode(data).decode(), name, mime])


def attachment_files(served: Served) -> list:  # type: ignore[type-arg]
    folder = served.store / BOARD / "attachments"
    return sorted(folder.iterdir()) if folder.is_dir() else []


def test_picked_pasted_and_dropped_images_are_stored_bare(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    errors = open_board(page, served)
    page.fill("#comment-A", "The hero photo is too dark")
    page.set_input_files(
        '.attach-input[data-target="variant:A"]',
        files=[{"name": "hero.png", "mimeType": "image/png", "buffer": photo()}],
    )
    give(page, "#overall-feedback", "paste", photo("JPEG", color="#aa3300"), "image.png", "image/jpeg")
    page.click(".pin-add-btn[data-variant=B]")
    page.fill("#pin-note-B", "The map needs a legend")
    page.click(".pin-editor[data-variant=B] .pin-save")
    pin_li = ".pin-list[data-variant=B] li"
    give(page, pin_li, "drop", photo("WEBP", color="#00aa55"), "legend.webp", "image/webp")
    assert page.locator('.attach-list[data-target="variant:A"] li').inner_text().startswith("hero.png")
    assert page.locator('.attach-list[data-target="overall"] li').inner_text().startswith("pasted-2.jpg")
    assert "legend.webp" in page.inner_text(pin_li)

    page.click("#submit-btn")
    page.wait_for_function("document.getElementById('status').textContent === 'submitted'")
    [record] = served.records(BOARD)
    by_name = {a["name"]: a for a in record["attachments"]}
    assert set(by_name) == {"hero.png", "pasted-2.jpg", "legend.webp"}
    assert by_name["hero.png"]["variant"] == "A" and "pin" not in by_name["hero.png"]
    assert by_name["legend.webp"]["pin"] == record["pins"][0]["id"]
    assert "pin" not in by_name["pasted-2.jpg"] and "variant" not in by_name["pasted-2.jpg"]
    files = attachment_files(served)
    assert sorted(p.suffix for p in files) == [".jpg", ".png", ".webp"]
    for a in record["attachments"]:
        stored = served.store / BOARD / a["file"]
        assert stored.is_file() and not has_metadata(stored.read_bytes())

    # the next round's board shows each image with the earlier point it was attached to
    next_round(served, 2)
    page.goto(served.board_url(BOARD))
    page.wait_for_selector("#earlier-items:not([hidden]) img.item-image")
    page.wait_for_function(
        "Array.from(document.querySelectorAll('img.item-image')).every(i => i.complete && i.naturalWidth === 64)"
    )
    images = page.locator("#earlier-list img.item-image")
    assert images.count() == 3
    pin_item = page.locator("#earlier-list li", has_text="The map needs a legend")
    assert pin_item.locator("img").get_attribute("alt") == "Attached image legend.webp"
    assert errors == []


BAD = [
    ("notes.png", "image/png", b"%PDF-1.7 this is a document", 415, "is not a PNG, JPEG or WebP image"),
    ("shot.jpg", "image/jpeg", None, 415, "is named as JPEG but is a PNG image"),
    ("shot.webp", "image/webp", None, 415, "is named as WEBP but is a PNG image"),
    ("declared.png", "image/jpeg", None, 415, "is sent as image/jpeg but is a PNG image"),
    ("huge.png", "image/png", "big", 413, "is over 2 MB"),
]


def test_a_bad_file_is_refused_by_name_nothing_stored_and_the_draft_kept(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    errors = open_board(page, served)
    page.fill("#comment-A", "Keep this comment")
    big = noisy_png(MAX_BYTES + 1)
    for name, mime, data, status, says in BAD:
        content = photo() if data is None else big if data == "big" else data
        page.set_input_files(
            '.attach-input[data-target="variant:A"]', files=[{"name": name, "mimeType": mime, "buffer": content}]
        )
        page.click("#submit-btn")
        page.wait_for_selector("#error-box:not([hidden])")
        detail = page.inner_text("#error-detail")
        assert name in detail and says in detail and f"HTTP {status}" in detail, detail
        assert served.records(BOARD) == [] and attachment_files(served) == []
        assert page.input_value("#comment-A") == "Keep this comment"  # the draft is kept
        assert name in page.inner_text('.attach-list[data-target="variant:A"]')
        assert page.is_enabled("#submit-btn")
        page.click(f'.attach-remove[aria-label="Remove the image {name}"]')
    # with the bad files removed, the same draft goes through
    page.set_input_files(
        '.attach-input[data-target="variant:A"]',
        files=[{"name": "fine.png", "mimeType": "image/png", "buffer": photo()}],
    )
    page.click("#submit-btn")
    page.wait_for_function("document.getElementById('status').textContent === 'submitted'")
    [record] = served.records(BOARD)
    assert record["comments"]["A"] == "Keep this comment"
    assert [a["name"] for a in record["attachments"]] == ["fine.png"]
    assert len(attachment_files(served)) == 1
    assert json.dumps(record).count("base64") == 0 and errors == []
