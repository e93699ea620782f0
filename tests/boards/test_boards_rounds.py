"""The round history: earlier rounds kept viewable read-only, with their feedback, and compared with the
current round side by side, as an overlay and as a difference, offline and under `pinup serve`."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest
from boards_helpers import EXAMPLE, PINUP, Served, post_reload, rebuild

pytestmark = pytest.mark.browser

BOARD = "trail-home"


def _second_round(src: Path) -> None:
    """Round 2 of trail-home: A recoloured, B unchanged; round 1's three variants kept in history."""
    board = src / "boards" / BOARD
    folder = board / "round-2" / "variants"
    folder.mkdir(parents=True)
    first_a = (board / "variants" / "a-capture-first.html").read_text("utf-8")
    (folder / "a.html").write_text(first_a.replace("#3d5a2a", "#8a5a12"), "utf-8")
    shutil.copyfile(board / "variants" / "b-map-first.html", folder / "b.html")
    text = (board / "board.yaml").read_text("utf-8")
    head, old = text.split("variants:\n", 1)
    history = "".join(f"    {line}\n" if line.strip() else "\n" for line in old.splitlines())
    (board / "board.yaml").write_text(
        head.replace("round: 1", "round: 2")
        + "variants:\n  - id: A\n    label: Capture first, warmer\n    file: round-2/variants/a.html\n    device: phone\n"
        + "  - id: B\n    label: Map first\n    file: round-2/variants/b.html\n"
        + "history:\n  - round: 1\n    variants:\n"
        + history,
        "utf-8",
    )


@pytest.fixture()
def two_rounds(tmp_path: Path) -> Path:
    src = tmp_path / "ws"
    shutil.copytree(EXAMPLE, src)
    _second_round(src)
    out = tmp_path / "site"
    done = subprocess.run([*PINUP, "build", str(src), "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return out


def _config(page_html: str) -> dict[str, object]:
    start = page_html.index('<script type="application/json" id="board-config">') + len(
        '<script type="application/json" id="board-config">'
    )
    return json.loads(page_html[start : page_html.index("</script>", start)])


def test_earlier_rounds_are_published_with_the_board(two_rounds: Path) -> None:
    board = two_rounds / "boards" / BOARD
    for rel in ("variants/a-capture-first.html", "variants/b-map-first.html", "variants/c-journal-page.html"):
        assert (board / rel).is_file(), rel
    config = _config((board / "index.html").read_text("utf-8"))
    rounds = config["rounds"]
    assert isinstance(rounds, list) and [r["round"] for r in rounds] == [1]
    assert [v["id"] for v in rounds[0]["variants"]] == ["A", "B", "C"]
    assert [v["id"] for v in config["current"]] == ["A", "B"]  # type: ignore[union-attr]
    # the earlier round's files are shown as they were: without the pin agent the current round gets
    assert "data-pinup-agent" not in (board / "variants" / "c-journal-page.html").read_text("utf-8")


def test_the_earlier_pick_is_compared_first(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    src = tmp_path / "ws"
    shutil.copytree(EXAMPLE, src)
    _second_round(src)
    board_yaml = src / "boards" / BOARD / "board.yaml"
    board_yaml.write_text(
        board_yaml.read_text("utf-8").replace("  - round: 1\n", "  - round: 1\n    pick: C\n"), "utf-8"
    )
    out = tmp_path / "site"
    done = subprocess.run([*PINUP, "build", str(src), "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    page.goto((out / "boards" / BOARD / "index.html").as_uri())
    page.wait_for_selector("#compare")
    assert page.input_value("#compare-before") == "C"
    assert "(the pick)" in page.inner_text("#compare-hint")
    assert "picked C" in page.inner_text(".round-step[data-round='1']")


def test_a_pick_that_is_not_one_of_the_round_s_variants_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "ws"
    shutil.copytree(EXAMPLE, src)
    _second_round(src)
    board_yaml = src / "boards" / BOARD / "board.yaml"
    board_yaml.write_text(
        board_yaml.read_text("utf-8").replace("  - round: 1\n", "  - round: 1\n    pick: Z\n"), "utf-8"
    )
    done = subprocess.run(
        [*PINUP, "build", str(src), "--out", str(tmp_path / "site")], capture_output=True, text=True, timeout=120
    )
    assert done.returncode != 0
    assert "pick 'Z' is not one of its variants (A, B, C)" in done.stderr


def test_a_board_without_history_has_no_round_history(tmp_path: Path) -> None:
    out = tmp_path / "site"
    done = subprocess.run(
        [*PINUP, "build", str(EXAMPLE), "--out", str(out)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    page = (out / "boards" / BOARD / "index.html").read_text("utf-8")
    assert 'id="rounds"' not in page and _config(page)["rounds"] == []


def _dark_share(png: bytes) -> float:
    from PIL import Image

    pixels = Image.open(io.BytesIO(png)).convert("L").tobytes()
    return sum(1 for p in pixels if p < 16) / len(pixels)


def test_round_view_and_compare_offline(page, two_rounds: Path) -> None:  # type: ignore[no-untyped-def]
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto((two_rounds / "boards" / BOARD / "index.html").as_uri())
    page.wait_for_selector("#rounds")
    assert page.locator("#round-1").is_hidden()
    page.click(".round-open[data-round='1']")
    assert page.get_attribute(".round-open[data-round='1']", "aria-expanded") == "true"
    assert page.locator("#round-1").is_visible()
    assert page.locator("#round-1 .round-variant").count() == 3
    # without an endpoint the round's feedback says where it can be seen
    assert "pinup serve" in page.inner_text("#round-1 .round-items")

    # side by side: round 1's A (the same slot) against round 2's A
    assert page.input_value("#compare-before") == "A" and page.input_value("#compare-after") == "A"
    assert page.locator("#compare-stage .compare-pane").count() == 2
    assert "the same slot" in page.inner_text("#compare-hint")

    # overlay: the slider sets how much of this round shows
    page.click(".compare-mode[data-mode='overlay']")
    assert page.locator("#compare-mix").is_visible()
    page.fill("#compare-mix", "30")
    page.dispatch_event("#compare-mix", "input")
    assert page.evaluate("getComputedStyle(document.querySelector('.compare-pane.after')).opacity") == "0.3"

    # difference: B did not change between the rounds, so the stage is black; A was recoloured
    page.click(".compare-mode[data-mode='diff']")
    page.select_option("#compare-after", "B")
    assert page.input_value("#compare-before") == "B"
    page.wait_for_timeout(800)  # the two frames paint
    same = _dark_share(page.locator("#compare-stage").screenshot())
    page.select_option("#compare-after", "A")
    page.wait_for_timeout(800)
    changed = _dark_share(page.locator("#compare-stage").screenshot())
    assert same > 0.97, same
    assert changed < same - 0.01, (same, changed)
    # another earlier variant against this round's A
    page.select_option("#compare-before", "C")
    assert "variant C against round 2, variant A" in page.inner_text("#compare-hint")
    assert errors == []


def test_earlier_round_shows_its_feedback_and_status_under_serve(page, served: Served) -> None:  # type: ignore[no-untyped-def]
    page.goto(served.board_url(BOARD))
    page.wait_for_selector("#submit-btn")
    page.click(".pin-add-btn[data-variant=B]")
    page.fill("#pin-note-B", "<img src=x onerror=alert(1)> labels too small")
    page.click(".pin-editor[data-variant=B] .pin-save")
    page.click(".regen-chiclet[data-action=different]")
    page.click("#regen-btn")
    page.wait_for_function("() => document.querySelector('#status').textContent === 'regenerate'")
    items = httpx.get(f"{served.base}/api/items", params={"board": BOARD}).json()["items"]
    pin = next(i for i in items if i["kind"] == "pin")
    done = subprocess.run(
        [*PINUP, "feedback", "resolve", str(pin["n"]), "--board", BOARD, "--status", "resolved",
         "--summary", "Labels are 14px now", "--src", str(served.src)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    _second_round(served.src)
    rebuild(served)
    post_reload(served, BOARD)
    page.goto(served.board_url(BOARD))
    page.wait_for_selector("#rounds")
    page.click(".round-open[data-round='1']")
    row = page.locator(f"#round-1 .round-item-list li[data-item='{pin['n']}']")
    row.wait_for()
    text = row.inner_text()
    assert "Resolved" in text and "Labels are 14px now" in text
    assert "<img src=x onerror=alert(1)> labels too small" in text  # shown as text, never as markup
    assert page.locator("#round-1 .round-item-list img").count() == 0
