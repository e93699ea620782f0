"""Readable boards and the v2 loop, in Chromium against a real `pinup serve`: words for errors,
focus after submit, the custom request as its own field, pins/tweaks stored, earlier items shown."""

from __future__ import annotations

import json
import subprocess

import httpx
import pytest
from boards_helpers import PINUP, Served, post_reload, rebuild, wait_until

pytestmark = pytest.mark.browser

BOARD = "trail-home"


def open_board(page, served: Served, query: str = ""):  # type: ignore[no-untyped-def]
    page.goto(served.board_url(BOARD) + query)
    page.wait_for_selector("#submit-btn")
    return page


def wait_status(page, value: str) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_function(f"() => document.querySelector('#status').textContent === {json.dumps(value)}")


def test_limits_come_from_the_schema(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    from pinup_feedback import schema

    open_board(page, served)
    assert page.get_attribute("#reviewer-name", "maxlength") == str(schema.MAX_REVIEWER)
    assert page.get_attribute("#overall-feedback", "maxlength") == str(schema.MAX_OVERALL)
    assert page.get_attribute("#comment-A", "maxlength") == str(schema.MAX_COMMENT)
    assert page.get_attribute("#regen-custom", "maxlength") == str(schema.MAX_ACTION)
    assert page.get_attribute("#pin-note-A", "maxlength") == str(schema.MAX_NOTE)
    assert page.evaluate("window.pinupBoard.limits.pins") == schema.MAX_PINS


def test_server_errors_speak_to_a_person(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    open_board(page, served)
    page.check("input[name=preferred][value=A]")
    # a name over the limit reaches the real server (the page's own check and maxlength are bypassed)
    page.evaluate(
        "document.querySelector('#reviewer-name').removeAttribute('maxlength');"
        "window.pinupBoard.limits.reviewer = 100000"
    )
    page.fill("#reviewer-name", "N" * 150)
    page.click("#submit-btn")
    page.wait_for_selector("#error-box:not([hidden])")
    text = page.inner_text("#error-box")
    assert "Your name is too long: 100 characters at most." in text
    detail = page.inner_text("#error-detail") + page.inner_text("#error-list")
    assert "{" not in detail and "string_too_long" not in detail and "loc" not in detail
    assert served.records(BOARD) == []


def test_page_checks_lengths_before_sending(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    open_board(page, served)
    page.evaluate("document.querySelector('#comment-B').removeAttribute('maxlength')")
    page.fill("#comment-B", "x" * 5001)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url) if "/api/feedback" in r.url else None)
    page.click("#submit-btn")
    page.wait_for_selector("#error-box:not([hidden])")
    assert "Your comment on B is too long: 5000 characters at most." in page.inner_text("#error-list")
    assert requests == []


def test_focus_moves_to_the_success_message(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    open_board(page, served)
    page.check("input[name=preferred][value=C]")
    page.click("#submit-btn")
    wait_status(page, "submitted")
    assert page.evaluate("document.activeElement.id") == "success-msg"
    assert page.locator("#success-msg").is_visible()


def test_custom_words_are_never_an_action_code(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    open_board(page, served)
    page.click(".regen-chiclet[data-action=different]")
    page.fill("#regen-custom", "remix")  # the reviewer's own words, which happen to be a code
    assert page.get_attribute(".regen-chiclet[data-action=different]", "aria-pressed") == "false"
    page.click("#regen-btn")
    wait_status(page, "regenerate")
    record = served.records(BOARD)[0]
    assert record["schemaVersion"] == 2
    assert record["regenerateAction"] == "custom"
    assert record["regenerateText"] == "remix"
    assert record["remixSpec"] is None


def test_pins_tweaks_submitted_and_shown_next_round_with_reopen(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    open_board(page, served)
    page.click(".pin-add-btn[data-variant=B]")
    page.fill("#pin-note-B", "Map labels too small")
    page.select_option("#pin-severity-B", "blocker")
    page.click(".pin-editor[data-variant=B] .pin-save")
    page.fill('.tweak-input[data-token="colors.primary"]', "#1a73e8")
    page.fill(".feedback-input[data-variant=A]", "Button is great")
    page.click(".regen-chiclet[data-action=different]")
    page.click("#regen-btn")
    wait_status(page, "regenerate")
    record = served.records(BOARD)[0]
    assert record["schemaVersion"] == 2
    assert record["pins"][0]["note"] == "Map labels too small" and record["pins"][0]["severity"] == "blocker"
    assert record["tweaks"] == {"colors.primary": "#1a73e8"}

    # the agent resolves the pin, then builds round 2
    items = httpx.get(f"{served.base}/api/items", params={"board": BOARD}).json()["items"]
    pin_item = next(i for i in items if i["kind"] == "pin")
    env_src = ["--src", str(served.src)]
    done = subprocess.run(
        [
            *PINUP,
            "feedback",
            "resolve",
            str(pin_item["n"]),
            "--board",
            BOARD,
            "--status",
            "resolved",
            "--summary",
            "Labels are 14px now",
            *env_src,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    board_yaml = served.src / "boards" / BOARD / "board.yaml"
    board_yaml.write_text(
        board_yaml.read_text().replace("round: 1", "round: 2") + "history:\n  - round: 1\n    variants: []\n"
    )
    rebuild(served)
    post_reload(served, BOARD)
    page.wait_for_function("() => document.body.dataset.round === '2'", timeout=20000)
    page.wait_for_selector("#earlier-items:not([hidden])")
    row = page.locator(f"#earlier-list li[data-item='{pin_item['n']}']")
    assert "Resolved" in row.inner_text() and "Labels are 14px now" in row.inner_text()
    assert "Map labels too small" in row.inner_text()
    row.locator(".reopen-btn").click()
    assert row.locator(".reopen-btn").get_attribute("aria-pressed") == "true"
    page.check("input[name=preferred][value=B]")
    page.click("#submit-btn")
    wait_status(page, "submitted")
    assert wait_until(lambda: len(served.records(BOARD)) == 2)
    final = served.records(BOARD)[1]
    assert final["reopen"] == [pin_item["n"]] and final["schemaVersion"] == 2


def test_no_items_endpoint_means_no_section(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    page.route("**/api/items*", lambda route: route.fulfill(status=404, body="not found"))
    open_board(page, served)
    page.wait_for_timeout(300)
    assert page.locator("#earlier-items").is_hidden()
    page.check("input[name=preferred][value=A]")
    page.click("#submit-btn")
    wait_status(page, "submitted")
    assert served.records(BOARD)[0]["schemaVersion"] == 1  # nothing v2 in it: still a v1 body
