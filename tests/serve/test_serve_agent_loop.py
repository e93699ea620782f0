"""The agent loop of docs/boards.md, run command for command against a real `pinup serve` and Chromium.

The reviewer asks for another round in the board; `pinup wait` returns 10; the agent writes the
next round into boards/<slug>/ and runs `pinup build` with no arguments. The reviewer's tab,
never touched by the test, moves to the new round by itself.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from serve_helpers import BOARD, run_pinup, start, wait_until, write_round_two

pytestmark = pytest.mark.browser


def ask_for_another_round(page, url: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(url)
    page.wait_for_selector("#regen-btn")
    page.evaluate("window.__sameTab = 'yes'")
    assert page.evaluate("document.body.dataset.round") == "1"
    page.click(".more-like-this[data-variant=C]")
    page.click("#regen-btn")
    page.wait_for_function("() => document.querySelector('#status').textContent === 'regenerate'")


@pytest.mark.parametrize("extra", [[], ["--no-watch"]], ids=["defaults", "no-watch"])
def test_documented_agent_loop_moves_the_open_tab_to_the_new_round(page, checkout: Path, extra: list[str]) -> None:  # type: ignore[no-untyped-def]
    server = start(checkout, "--board", BOARD, "--no-open", *extra)  # 1. serve
    try:
        assert server.url == f"http://127.0.0.1:{server.port}/boards/{BOARD}/"
        ask_for_another_round(page, server.url)
        waited = run_pinup("wait", "--board", BOARD, cwd=checkout)  # 2. block until they submit
        assert waited.returncode == 10, waited.stderr
        assert json.loads(waited.stdout)["regenerateAction"] == "more_like_C"
        write_round_two(checkout / "site_src")  # 10) the next round, written into boards/<slug>/
        # `pinup build` from inside the workspace: it finds the workspace and the site that is served
        built = run_pinup("build", cwd=checkout / "site_src" / "boards" / BOARD)
        assert built.returncode == 0, built.stderr
        assert "reloaded trail-home (round 2)" in built.stderr or not extra  # watching may reload first
        page.wait_for_function("() => document.body && document.body.dataset.round === '2'", timeout=30_000)
        assert page.evaluate("window.__sameTab") is None  # the page reloaded itself, in the same tab
        frames = page.eval_on_selector_all("iframe.variant-frame", "els => els.map(e => e.getAttribute('src') || '')")
        assert frames and all("round-2/variants/" in src for src in frames), frames
        assert (checkout / "site" / "boards" / BOARD / "round-2" / "variants" / "a.html").is_file()
        assert not (checkout / "site_src" / "boards" / BOARD / "site").exists()  # no stray site folder
    finally:
        server.stop()


def test_build_without_arguments_in_the_bundled_example_folder(tmp_path: Path) -> None:
    """`pinup serve` in an empty folder copies the example; `pinup build` there (or inside it) builds it."""
    server = start(tmp_path, "--no-open", "--timeout", "0")
    try:
        site = tmp_path / "pinup-example" / "site"
        assert wait_until(lambda: (site / "serve.json").is_file())
        for cwd in (tmp_path, tmp_path / "pinup-example", tmp_path / "pinup-example" / "site_src" / "boards"):
            built = run_pinup("build", cwd=cwd)
            assert built.returncode == 0, built.stderr
            assert f"pinup serve ({server.base})" in built.stderr  # the served site, wherever we stand
        assert not (tmp_path / "site").exists() and not (tmp_path / "pinup-example" / "site_src" / "site").exists()
    finally:
        server.stop()


def test_build_outside_any_workspace_says_what_to_do(tmp_path: Path) -> None:
    built = run_pinup("build", cwd=tmp_path)
    assert built.returncode == 1
    assert "workspace not found" in built.stderr and "DESIGN.md" in built.stderr and "Traceback" not in built.stderr
