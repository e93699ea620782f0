"""The board, in Chromium under the real CSP, against a real `pinup serve` whose store fails.

The reviewer must read what happened in plain words, get what they typed back as JSON they can
select, copy or download, and see nothing that looks like an acknowledgement; once the disk
works again the same draft goes through. The store is a real tmpfs when the tests run as root
(64 KB filled to the last byte, or remounted read-only); otherwise a read-only directory
(not as root, which ignores permission bits), else a file-size limit (RLIMIT_FSIZE) on the server
process, so its record writes fail as they would on a full disk.
"""

from __future__ import annotations

import errno
import json
import os
import resource
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from reliability_helpers import BOARD, Served, start_serve, stored_ids, temp_files

WIDTHS = (375, 768, 1440)
ROOT_USER = os.geteuid() == 0


def run(*cmd: str) -> bool:
    return subprocess.run(cmd, capture_output=True).returncode == 0


def fill_to_the_last_byte(folder: Path) -> None:
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        for size in (4096, 1):
            try:
                while os.write(fd, b"\0" * size):
                    pass
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)


@contextmanager
def file_size_limit(limit: int) -> Iterator[None]:
    """Children started inside inherit the limit; this process gets its own back at once."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


class FailingStore:
    """A `pinup serve` whose feedback store is full or read-only, and a way to repair it."""

    def __init__(self, src: Path, site: Path, kind: str) -> None:
        self.src, self.site, self.kind = src, site, kind
        self.store = src / ".pinup" / "feedback"
        self.mounted = False
        self.served: Served | None = None

    def start(self) -> Served:
        self.store.mkdir(parents=True, exist_ok=True)
        if ROOT_USER and run("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(self.store)):
            self.mounted = True
            self.how = "tmpfs"
            if self.kind == "full":
                fill_to_the_last_byte(self.store)
            else:
                assert run("mount", "-o", "remount,ro", str(self.store))
            self.served = start_serve(self.src, self.site)
        elif self.kind == "full" or ROOT_USER:  # root ignores permission bits: a failing write instead
            self.how = "RLIMIT_FSIZE"
            with file_size_limit(600):  # below any record, above nothing the server needs to start
                self.served = start_serve(self.src, self.site)
        else:
            self.how = "read-only directory"
            self.store.chmod(0o500)
            self.served = start_serve(self.src, self.site)
        return self.served

    def repair(self) -> None:
        """Room again (the filler removed, or read-write): the same server, no restart."""
        if self.mounted and self.kind == "full":
            (self.store / "filler").unlink()
        elif self.mounted:
            assert run("mount", "-o", "remount,rw", str(self.store))
        elif self.how == "RLIMIT_FSIZE":  # a process's limit cannot be lifted from outside: restart it
            assert self.served is not None
            port = self.served.port
            self.served.stop()
            self.served = start_serve(self.src, self.site, "--port", str(port))  # same origin, same draft
        else:
            self.store.chmod(0o700)

    def close(self) -> None:
        if self.served is not None:
            self.served.stop()
        if self.mounted:
            run("umount", "-l", str(self.store))
        elif self.store.exists():
            self.store.chmod(0o700)


@pytest.fixture(params=["full", "read-only"])
def failing(request: pytest.FixtureRequest, built: tuple[Path, Path]) -> Iterator[FailingStore]:
    store = FailingStore(*built, kind=request.param)
    try:
        yield store
    finally:
        store.close()


def test_a_failing_store_shows_a_plain_message_and_copyable_json(
    failing: FailingStore, browser: object, artifacts_dir: Path
) -> None:
    from playwright.sync_api import Browser

    assert isinstance(browser, Browser)
    served = failing.start()
    context = browser.new_context(viewport={"width": 1440, "height": 900})  # the real CSP
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=served.base)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    replies: list[int] = []
    page.on("response", lambda r: replies.append(r.status) if r.url.endswith("/api/feedback") else None)

    manifest = json.loads((failing.site / "boards" / BOARD / "board.json").read_text())
    first = manifest["variants"][0]
    page.goto(f"{served.base}/boards/{BOARD}/index.html")
    page.wait_for_selector("#submit-btn")
    comment = "The hero photo is lovely; the price needs to be larger. " * 20  # bigger than any leftover room
    page.fill("#reviewer-name", "Dana")
    page.check(f"input[name=preferred][value={first}]")
    page.click(f".stars[data-variant={first}] .star[data-value='4']")
    page.fill(f".feedback-input[data-variant={first}]", comment)
    page.fill("#overall-feedback", "Ship it after the price fix.")
    page.click("#submit-btn")
    page.wait_for_selector("#error-box:not([hidden])", timeout=20_000)

    # what the person reads: plain words, what happened, what to do; nothing acknowledged
    box = page.inner_text("#error-box")
    assert replies and all(code >= 500 for code in replies), (failing.how, replies)
    assert page.inner_text("#error-title") == "Your feedback was not saved", failing.how
    detail = page.inner_text("#error-detail")
    assert "could not be saved" in detail and "Nothing was stored" in detail, detail
    assert "cannot write to its storage" in detail and "full or read-only" in detail, detail
    assert "Traceback" not in box and "store_failed" not in box and "errno" not in box.lower()
    assert page.is_hidden("#success-msg") and "Reference:" not in page.inner_text("body")
    assert page.inner_text("#status") == "" and not page.is_disabled("#submit-btn")
    assert page.evaluate(f"sessionStorage.getItem('pinup:done:{BOARD}:1')") is None

    # what they typed, as JSON: readable, all selected on focus, copied by the button, downloadable
    typed = json.loads(page.input_value("#feedback-json"))
    assert typed["reviewer"] == "Dana" and typed["preferred"] == first and typed["ratings"] == {first: 4}
    assert typed["comments"] == {first: comment.strip()} and typed["overall"] == "Ship it after the price fix."
    page.focus("#feedback-json")
    assert page.evaluate(
        "(() => { const t = document.querySelector('#feedback-json');"
        " return t.selectionStart === 0 && t.selectionEnd === t.value.length; })()"
    )
    page.click("#copy-json-btn")
    page.wait_for_selector("#copy-status:has-text('Copied')")
    assert json.loads(page.evaluate("navigator.clipboard.readText()")) == typed
    with page.expect_download() as download:
        page.click("#download-json")
    assert json.loads(Path(download.value.path()).read_text()) == typed

    # the record is in no file, and no half-written file is left behind
    assert stored_ids(served.store) == [] and not temp_files(served.store), failing.how
    assert json.loads(page.evaluate(f"localStorage.getItem('pinup:draft:{BOARD}:1')"))["overall"]

    for width in WIDTHS:  # legible at phone, tablet and desktop widths, nothing cut off sideways
        page.set_viewport_size({"width": width, "height": 900})
        page.locator("#error-box").scroll_into_view_if_needed()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), width
        page.locator("#error-box").screenshot(path=str(artifacts_dir / f"store-{failing.kind}-error-{width}.png"))

    # once the store works again, the same draft goes through and is stored once
    failing.repair()
    assert failing.served is not None and failing.served.base == served.base
    page.click("#submit-btn")
    page.wait_for_selector("#success-msg", state="visible", timeout=20_000)
    assert page.is_hidden("#error-box")
    [record] = [json.loads(p.read_text()) for p in (served.store / BOARD).glob("*.json")]
    assert record["comments"] == typed["comments"] and record["clientId"] == typed["clientId"]
    assert f"Reference: {record['id']}" in page.inner_text("#success-msg")
    context.close()
    assert errors == [], errors
