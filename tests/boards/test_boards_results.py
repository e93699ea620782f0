"""The results page and CSV: reviewers who picked, actions in words, local times, comments in the CSV."""

from __future__ import annotations

import csv
import io
import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
from bs4 import BeautifulSoup

from pinup.hosted.results import aggregate, local_time, render_results_page, results_csv
from pinup_feedback.records import StoredRecord

BOARD = "trail-home"


def rec(n: int, **fields: Any) -> StoredRecord:
    base: dict[str, Any] = {
        "schemaVersion": 1,
        "board": BOARD,
        "round": 1,
        "id": f"id{n}",
        "kind": "final",
        "receivedAt": f"2026-11-30T14:0{n}:00.000000Z",
        "clientId": f"c{n}",
        "ratings": {},
        "comments": {},
        "regenerated": False,
        "regenerateAction": None,
        "remixSpec": None,
    }
    base.update(fields)
    if base["regenerated"]:
        base["kind"] = "regenerate"
    return StoredRecord.from_dict(base)


@pytest.fixture()
def in_berlin() -> Iterator[None]:
    old = os.environ.get("TZ")
    os.environ["TZ"] = "Europe/Berlin"
    time.tzset()
    yield
    if old is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = old
    time.tzset()


def results() -> Any:
    records = [
        rec(1, reviewer="Ana", preferred="B", comments={"B": '=HYPERLINK("x")', "A": "Too busy"}),
        rec(2, reviewer="Bo", preferred=None, overall="no favourite"),  # final, but no pick
        rec(3, reviewer="Cy", preferred="A"),
        rec(4, regenerated=True, regenerateAction="different"),
        rec(5, regenerated=True, regenerateAction="more_like_B"),
        rec(6, regenerated=True, regenerateAction="remix", remixSpec={"layout": "B", "colors": "A"}),
        rec(7, regenerated=True, regenerateAction="Keep B's map, larger type"),
    ]
    return aggregate(BOARD, records, variants=[("A", "Capture first"), ("B", "Map first")], title="Mossbook")


def test_counts_reviewers_with_a_final_pick_and_names_actions(in_berlin: None) -> None:
    res = results()
    assert res.pickers == 2 and res.submissions == 3
    assert [(q.label, q.words) for q in res.regenerate] == [
        ("Totally different", None),
        ("More like B", None),
        ("Remix: layout from B, colors from A", None),
        ("In their own words", "Keep B's map, larger type"),
    ]
    html = render_results_page(res, theme_css="", site_name="Mossbook", store_label="local feedback store")
    soup = BeautifulSoup(html, "html.parser")
    assert soup.select_one("#reviewer-count").get_text() == "2"
    assert "gave a final pick" in soup.select_one("#reviewer-count").parent.get_text()
    actions = [p.get_text(" ", strip=True) for p in soup.select("#regenerate .action")]
    assert actions[0] == "Totally different" and actions[1] == "More like B"
    assert actions[3].startswith("In their own words") and "Keep B's map" in actions[3]
    assert "more_like_B" not in soup.select_one("#regenerate").get_text()
    when = soup.select_one("#regenerate time")
    assert when["datetime"] == "2026-11-30T14:04:00.000000Z"
    assert when.get_text() == "30 Nov 2026, 15:04 (UTC+01:00)"  # Berlin is UTC+1 in November
    assert soup.select_one('a[href="results.csv"]') is not None


def test_local_time_keeps_what_it_cannot_read() -> None:
    assert local_time("yesterday") == "yesterday"
    assert local_time("") == ""


def test_csv_has_the_comments_and_no_formulas() -> None:
    rows = list(csv.DictReader(io.StringIO(results_csv(results()))))
    by_variant = {r["variant"]: r for r in rows}
    assert by_variant["A"]["comments"] == "Ana: Too busy" and by_variant["A"]["comment_count"] == "1"
    assert by_variant["B"]["comments"] == 'Ana: =HYPERLINK("x")'  # starts with the name: never a formula
    assert by_variant["B"]["picks"] == "1"
    hostile = aggregate(BOARD, [rec(1, reviewer=None, comments={"A": "x"})], variants=[("A", "=cmd|' /C calc'!A0")])
    assert list(csv.DictReader(io.StringIO(results_csv(hostile))))[0]["label"].startswith("'=")


@pytest.mark.browser
@pytest.mark.parametrize("width", [375, 768, 1440])
def test_results_page_never_scrolls_sideways(width: int, page: Any, tmp_path: Any) -> None:
    """The tally table scrolls inside its own box on a phone; the page itself stays put."""
    res = aggregate(
        BOARD,
        [rec(1, reviewer="Ana", preferred="A", ratings={"A": 4}), rec(2, reviewer="Bo", preferred="B")],
        variants=[("A", "Capture first, then the map"), ("B", "Map first"), ("C", "Journal page")],
        title="Mossbook home screen",
    )
    html = render_results_page(res, theme_css="", site_name="Mossbook", store_label="local feedback store")
    path = tmp_path / "results.html"
    path.write_text(html, "utf-8")
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(path.as_uri())
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    box = page.locator(".table-scroll")
    assert box.evaluate("b => b.scrollWidth > b.clientWidth") == (width == 375)
    csv_link = page.locator('a[href="results.csv"]').bounding_box()
    title = page.locator("h1").bounding_box()
    assert csv_link and title and csv_link["x"] == title["x"]  # aligned with the rest of the page
