"""Results aggregation: many reviewers, ties, missing ratings, one vote per browser, escaping in results.html."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner
from hosted_helpers import run_pinup

from pinup.cli import cli
from pinup.hosted.records import load_local
from pinup.hosted.results import ResultsOptions, aggregate, build_results_pages
from pinup_feedback.records import StoredRecord

BOARD = "checkout"
_seq = iter(range(10_000))


def rec(**fields: Any) -> dict[str, Any]:
    n = next(_seq)
    base = {
        "schemaVersion": 1,
        "board": BOARD,
        "round": 1,
        "id": f"id{n:04d}",
        "receivedAt": f"2026-11-30T01:{n // 60 % 60:02d}:{n % 60:02d}.000000Z",
        "kind": "final",
        "clientId": f"client-{n}",
        "ratings": {},
        "comments": {},
        "regenerated": False,
        "regenerateAction": None,
        "remixSpec": None,
    }
    base.update(fields)
    if base.get("regenerated"):
        base["kind"] = "regenerate"
    return base


def write_store(store: Path, records: list[dict[str, Any]], board: str = BOARD) -> None:
    folder = store / board
    folder.mkdir(parents=True, exist_ok=True)
    for r in records:
        stamp = r["receivedAt"].replace(":", "")
        (folder / f"{stamp}-{r['kind']}-{r['id']}.json").write_text(json.dumps(r))


def agg(records: list[dict[str, Any]], **kw: Any) -> Any:
    return aggregate(BOARD, [StoredRecord.from_dict(r) for r in records], **kw)


def by_id(res: Any) -> dict[str, Any]:
    return {v.id: v for v in res.variants}


def test_many_reviewers_tally_mean_median() -> None:
    records = [
        rec(reviewer="Ana", preferred="B", ratings={"A": 3, "B": 5, "C": 2}),
        rec(reviewer="Bo", preferred="B", ratings={"A": 4, "B": 4}),
        rec(reviewer="Cy", preferred="A", ratings={"A": 5, "B": 2, "C": 1}),
        rec(reviewer="Di", preferred="B", ratings={"B": 5}),
        rec(reviewer="Ed", preferred="C", ratings={"A": 2, "C": 4}, comments={"C": "bold"}),
        rec(reviewer="Fi", preferred=None, ratings={"A": 1}),
    ]
    res = agg(records, variants=[("A", "Split"), ("B", "Stacked"), ("C", "Cards")], title="Checkout hero")
    v = by_id(res)
    assert [x.id for x in res.variants] == ["A", "B", "C"]
    assert (v["A"].picks, v["B"].picks, v["C"].picks) == (1, 3, 1)
    assert res.winner == "B" and res.leaders == ["B"]
    assert res.submissions == 6 and res.reviewers == 6 and res.no_pick == 1
    assert v["A"].ratings == [3, 4, 5, 2, 1]
    assert v["A"].mean == 3.0 and v["A"].median == 3.0
    assert v["B"].mean == 4.0 and v["B"].median == 4.5
    assert v["C"].mean == pytest.approx(2.333, abs=1e-3) and v["C"].median == 2.0
    assert v["B"].pick_share == 0.5
    assert [c.text for c in v["C"].comments] == ["bold"]
    assert v["A"].label == "Split"


def test_tie_has_leaders_and_no_winner() -> None:
    res = agg(
        [rec(preferred="A"), rec(preferred="B"), rec(preferred="B"), rec(preferred="A")],
        variants=[("A", None), ("B", None), ("C", None)],
    )
    assert res.leaders == ["A", "B"] and res.winner is None
    assert by_id(res)["C"].picks == 0


def test_missing_and_invalid_ratings_are_not_counted() -> None:
    res = agg(
        [
            rec(preferred="A", ratings={"A": 5, "B": 0, "C": 6}),
            rec(preferred="A", ratings={"A": "4", "B": True, "C": 2.5}),
            rec(preferred="A", ratings={"A": 4.0}),
        ],
        variants=[("A", None), ("B", None), ("C", None)],
    )
    v = by_id(res)
    assert v["A"].ratings == [5, 4]
    assert v["B"].ratings == [] and v["B"].mean is None and v["B"].median is None
    assert v["C"].mean is None


def test_no_feedback_at_all() -> None:
    res = agg([], variants=[("A", None), ("B", None)])
    assert res.submissions == 0 and res.winner is None and res.leaders == []
    assert all(v.picks == 0 and v.mean is None for v in res.variants)


def test_one_vote_per_client_latest_wins_and_regenerate_is_not_a_vote() -> None:
    res = agg(
        [
            rec(clientId="same", preferred="A", reviewer="Ana"),
            rec(clientId="same", preferred="B", reviewer="Ana"),
            rec(clientId=None, preferred="A"),
            rec(clientId=None, preferred="A"),
            rec(regenerated=True, regenerateAction="more_like_B", reviewer="Bo"),
            rec(
                regenerated=True,
                regenerateAction="remix",
                remixSpec={"layout": "A", "colors": "B", "typography": None, "spacing": None},
            ),
        ]
    )
    v = by_id(res)
    assert (v["A"].picks, v["B"].picks) == (2, 1)
    assert res.submissions == 3
    assert [q.action for q in res.regenerate] == ["more_like_B", "remix"]
    assert res.regenerate[1].remixSpec == {"layout": "A", "colors": "B", "typography": None, "spacing": None}


def test_rounds_are_separate() -> None:
    records = [rec(round=1, preferred="A"), rec(round=2, preferred="B"), rec(round=2, preferred="B")]
    latest = agg(records)
    assert latest.round == 2 and latest.rounds_seen == [1, 2] and by_id(latest)["B"].picks == 2
    assert "A" not in by_id(latest)
    first = agg(records, round=1)
    assert by_id(first)["A"].picks == 1 and first.submissions == 1


def test_local_store_loading_skips_junk(tmp_path: Path) -> None:
    store = tmp_path / "store"
    write_store(store, [rec(preferred="A"), rec(preferred="B")])
    (store / BOARD / "20261130T010000Z-final-broken.json").write_text("{not json")
    (store / BOARD / ".20261130T010000Z-final-x.json.tmp").write_text("{}")
    (store / BOARD / "notes.txt").write_text("x")
    loaded = load_local(store, BOARD)
    assert len(loaded.records) == 2 and len(loaded.skipped) == 1
    with pytest.raises(ValueError):
        load_local(store, "../etc")


HOSTILE = '<script>alert("x")</script>'


def workspace(tmp_path: Path) -> Path:
    src = tmp_path / "ws"
    board = src / "boards" / BOARD
    (board / "variants").mkdir(parents=True)
    for vid in "ab":
        (board / "variants" / f"{vid}.html").write_text(f"<p>{vid}</p>")
    (board / "board.yaml").write_text(
        "title: Checkout <b>hero</b>\nround: 1\nvariants:\n"
        "  - {id: A, label: Split, file: variants/a.html}\n"
        "  - {id: B, label: '<img src=x onerror=alert(1)>', file: variants/b.html}\n"
    )
    write_store(
        src / ".pinup" / "feedback",
        [
            rec(
                reviewer=HOSTILE,
                preferred="A",
                ratings={"A": 5, "B": 2},
                comments={"A": HOSTILE, "B": "</p><script>x()</script>"},
                overall='<iframe src="javascript:alert(1)"></iframe>',
            ),
            rec(reviewer="Bo", preferred="A", ratings={"A": 4}),
            rec(reviewer="Cy", preferred="B"),
            rec(reviewer="Di", regenerated=True, regenerateAction='<svg onload="alert(1)">'),
        ],
    )
    return src


class ListWriter:
    """Writes like OutputWriter.write_text; used when the site workstream's writer is absent."""

    def __init__(self, out: Path) -> None:
        self.out = out

    def write_text(self, rel: str, text: str) -> None:
        target = self.out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def make_writer(out: Path) -> Any:
    try:
        from pinup.output import OutputWriter
    except ImportError:
        return ListWriter(out)
    return OutputWriter(out)


def test_results_page_escapes_every_user_string(tmp_path: Path) -> None:
    src, out = workspace(tmp_path), tmp_path / "site"
    writer = make_writer(out)
    written = build_results_pages(src, out, ResultsOptions(), writer)
    page = out / "boards" / BOARD / "results.html"
    assert written == [page]
    html = page.read_text("utf-8")
    soup = BeautifulSoup(html, "html.parser")
    assert soup.find("script") is None
    assert soup.find("iframe") is None and soup.find("svg") is None and soup.find("img") is None
    assert soup.find("b") is None  # the board title's markup is text too
    assert not any(attr.startswith("on") for tag in soup.find_all(True) for attr in tag.attrs)
    texts = [li.get_text(" ", strip=True) for li in soup.select("li.comment")]
    assert any(HOSTILE in t for t in texts)
    assert any("</p><script>x()</script>" in t for t in texts)
    assert HOSTILE in soup.select_one("#overall").get_text() or "<iframe" in soup.select_one("#overall").get_text()
    assert '<svg onload="alert(1)">' in soup.select_one("#regenerate").get_text()
    assert "<b>hero</b>" in soup.find("h1").get_text()
    row = soup.select_one('tr[data-variant="A"]')
    assert row.select_one(".picks").get_text() == "2"
    assert row.select_one(".mean").get_text() == "4.50"
    assert soup.select_one('tr[data-variant="B"] .mean').get_text() == "2.00"
    assert soup.select_one("#verdict strong").get_text() == "A"
    assert soup.select_one("#submission-count").get_text() == "3"
    assert str(src) not in html  # no local paths in a page that may be published


def test_results_page_without_feedback(tmp_path: Path) -> None:
    src, out = workspace(tmp_path), tmp_path / "site"
    import shutil

    shutil.rmtree(src / ".pinup")
    build_results_pages(src, out, ResultsOptions(), make_writer(out))
    soup = BeautifulSoup((out / "boards" / BOARD / "results.html").read_text("utf-8"), "html.parser")
    assert "No feedback yet" in soup.select_one("#verdict").get_text()
    assert [tr["data-variant"] for tr in soup.select("#tally tbody tr")] == ["A", "B"]


def test_results_cli_formats(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PINUP_STORE", raising=False)
    src = workspace(tmp_path)
    runner = CliRunner()
    as_json = runner.invoke(cli, ["results", BOARD, "--src", str(src), "--format", "json"])
    assert as_json.exit_code == 0, as_json.output
    data = json.loads(as_json.output)
    assert data["winner"] == "A" and data["submissions"] == 3 and len(data["regenerate"]) == 1
    assert [v["id"] for v in data["variants"]] == ["A", "B"]

    as_csv = runner.invoke(cli, ["results", BOARD, "--src", str(src), "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(as_csv.output)))
    assert [(r["variant"], r["picks"], r["mean"], r["median"]) for r in rows] == [
        ("A", "2", "4.5", "4.5"),
        ("B", "1", "2.0", "2.0"),
    ]

    table = runner.invoke(cli, ["results", BOARD, "--store", str(src / ".pinup" / "feedback"), "--src", str(src)])
    assert table.exit_code == 0, table.output
    assert "Most picked: A" in table.output and HOSTILE in table.output

    bad = runner.invoke(cli, ["results", "../x", "--src", str(src)])
    assert bad.exit_code == 2


def test_table_output_drops_terminal_escapes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PINUP_STORE", raising=False)
    store = tmp_path / "store"
    write_store(store, [rec(preferred="A", reviewer="\x1b]0;pwned\x07Eve", comments={"A": "ok\x1b[2J [bold]x[/bold]"})])
    result = CliRunner().invoke(cli, ["results", BOARD, "--store", str(store), "--src", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "ok[2J [bold]x[/bold]" in result.output and "]0;pwnedEve" in result.output


def test_build_reads_an_s3_store_through_the_endpoint_it_is_given(
    tmp_path: Path, s3: Any, bucket: str, moto_endpoint: str, aws_env: dict[str, str]
) -> None:
    """`pinup build --store s3://… --endpoint-url URL` reads the feedback from that S3-compatible endpoint."""
    import os

    from pinup_feedback.store.base import record_name

    src = workspace(tmp_path)
    (src / "DESIGN.md").write_text("---\nname: Checkout\n---\n\n## Overview\n\nA shop.\n")
    for record in (rec(preferred="B", ratings={"B": 5}), rec(preferred="B"), rec(preferred="A")):
        name = record_name(record)  # where the endpoint puts it: <board>/<YYYY>/<MM>/<DD>/<name>
        key = f"team/feedback/{BOARD}/{name[:4]}/{name[4:6]}/{name[6:8]}/{name}"
        s3.put_object(Bucket=bucket, Key=key, Body=json.dumps(record).encode())
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PINUP_", "AWS_"))}
    # a closed port as the ambient endpoint: a build that drops --endpoint-url fails here, never on AWS
    env.update(aws_env, AWS_ENDPOINT_URL="http://127.0.0.1:9", PINUP_CACHE_DIR=str(tmp_path / "cache"))
    args = ["build", str(src), "--out", str(tmp_path / "site"), "--store", f"s3://{bucket}/team"]
    built = run_pinup(*args, "--endpoint-url", moto_endpoint, env=env, cwd=tmp_path)
    assert "results for" not in built.stderr, built.stderr  # nothing skipped
    page = BeautifulSoup((tmp_path / "site" / "boards" / BOARD / "results.html").read_text("utf-8"), "html.parser")
    assert page.select_one('tr[data-variant="B"] .picks').get_text() == "2"
    assert page.select_one("#submission-count").get_text() == "3"
    assert "hosted feedback store" in page.get_text() and bucket not in str(page)
