"""`pinup results` and `pinup feedback pull` with no --src: the nearest workspace from the current folder up.

The same rule as `pinup build`: a folder with a DESIGN.md (or its site_src/), looked for from the
current folder up. An explicit --src still wins, and with no workspace anywhere the commands keep
working on ./site_src as before (or on --store / --into, which need no workspace).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pinup.cli import cli

BOARD = "checkout"
NAME = "20261130T010203.123456Z-final-{rid}.json"


def record(rid: str, preferred: str, *, board: str = BOARD, second: int = 0) -> dict[str, Any]:
    return {
        "schemaVersion": 1,
        "board": board,
        "round": 1,
        "id": rid,
        "receivedAt": f"2026-11-30T01:02:{second:02d}.123456Z",
        "kind": "final",
        "clientId": f"client-{rid}",
        "preferred": preferred,
        "ratings": {},
        "comments": {},
        "regenerated": False,
        "regenerateAction": None,
        "remixSpec": None,
    }


def write_records(store: Path, records: list[dict[str, Any]]) -> None:
    for r in records:
        folder = store / r["board"]
        folder.mkdir(parents=True, exist_ok=True)
        stamp = r["receivedAt"].replace(":", "")
        (folder / f"{stamp}-{r['kind']}-{r['id']}.json").write_text(json.dumps(r), encoding="utf-8")


def make_workspace(folder: Path, label: str, picks: list[str]) -> Path:
    """A workspace (DESIGN.md, one board whose variant A is labelled `label`) with one final pick per entry."""
    board = folder / "boards" / BOARD
    (board / "variants").mkdir(parents=True)
    (folder / "DESIGN.md").write_text("---\nname: Test\n---\n# Test\n", encoding="utf-8")
    for vid in "ab":
        (board / "variants" / f"{vid}.html").write_text(f"<p>{vid}</p>", encoding="utf-8")
    (board / "board.yaml").write_text(
        f"title: {label} board\nround: 1\nvariants:\n"
        f"  - {{id: A, label: {label}, file: variants/a.html}}\n"
        "  - {id: B, label: Other, file: variants/b.html}\n",
        encoding="utf-8",
    )
    write_records(
        folder / ".pinup" / "feedback", [record(f"{label}{n}", pick, second=n) for n, pick in enumerate(picks)]
    )
    return folder


def results_json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["results", BOARD, "--format", "json", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


@pytest.fixture()
def no_store_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PINUP_STORE", raising=False)


# -- results ------------------------------------------------------------------------------------


@pytest.mark.usefixtures("no_store_env")
@pytest.mark.parametrize("where", [".", "boards", "boards/checkout/variants"])
def test_results_uses_the_workspace_it_runs_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    ws = make_workspace(tmp_path / "brand", "Split", ["A", "A", "B"])
    monkeypatch.chdir(ws / where)
    data = results_json()
    assert data["title"] == "Split board"  # the workspace's board.yaml
    assert data["submissions"] == 3 and data["winner"] == "A"  # its store, <workspace>/.pinup/feedback
    assert {v["id"]: v["label"] for v in data["variants"]} == {"A": "Split", "B": "Other"}


@pytest.mark.usefixtures("no_store_env")
def test_results_finds_site_src_below_a_folder_on_the_way_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_workspace(tmp_path / "project" / "site_src", "Stacked", ["B"])
    (tmp_path / "project" / "docs").mkdir()
    monkeypatch.chdir(tmp_path / "project" / "docs")
    data = results_json()
    assert data["title"] == "Stacked board" and data["winner"] == "B" and data["submissions"] == 1


@pytest.mark.usefixtures("no_store_env")
def test_results_explicit_src_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    here = make_workspace(tmp_path / "here", "Split", ["A", "A"])
    other = make_workspace(tmp_path / "other", "Cards", ["B"])
    monkeypatch.chdir(here / "boards")
    data = results_json("--src", str(other))
    assert data["title"] == "Cards board" and data["submissions"] == 1 and data["winner"] == "B"
    monkeypatch.chdir(tmp_path)
    relative = results_json("--src", "other")  # relative to the current folder, as before
    assert relative["title"] == "Cards board" and relative["submissions"] == 1


@pytest.mark.usefixtures("no_store_env")
def test_results_explicit_store_wins_over_the_workspace_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = make_workspace(tmp_path / "brand", "Split", ["A", "A"])
    store = tmp_path / "elsewhere"
    write_records(store, [record("x1", "B"), record("x2", "B", second=1), record("x3", "B", second=2)])
    monkeypatch.chdir(ws)
    data = results_json("--store", str(store))
    assert data["submissions"] == 3 and data["winner"] == "B"
    assert data["title"] == "Split board"  # labels still from the workspace found here


def test_results_pinup_store_env_wins_over_the_workspace_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = make_workspace(tmp_path / "brand", "Split", ["A", "A"])
    store = tmp_path / "env-store"
    write_records(store, [record("e1", "B")])
    monkeypatch.setenv("PINUP_STORE", str(store))
    monkeypatch.chdir(ws / "boards")
    data = results_json()
    assert data["submissions"] == 1 and data["winner"] == "B" and data["title"] == "Split board"


@pytest.mark.usefixtures("no_store_env")
def test_results_without_a_workspace_still_reads_site_src_or_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    empty = CliRunner().invoke(cli, ["results", BOARD, "--format", "json"], catch_exceptions=False)
    assert empty.exit_code == 0, empty.output
    assert json.loads(empty.stdout)["submissions"] == 0
    assert f"note: no local store at {tmp_path.resolve() / 'site_src' / '.pinup' / 'feedback'}" in empty.stderr

    # a bare ./site_src store (no DESIGN.md): read as before
    write_records(tmp_path / "site_src" / ".pinup" / "feedback", [record("s1", "A")])
    assert results_json()["submissions"] == 1

    store = tmp_path / "store"
    write_records(store, [record("t1", "B"), record("t2", "B", second=1)])
    data = results_json("--store", str(store))
    assert data["submissions"] == 2 and data["title"] is None


# -- feedback pull ------------------------------------------------------------------------------


def put_record(s3: Any, bucket: str, rid: str, board: str = BOARD) -> str:
    key = f"p/feedback/{board}/2026/11/30/" + NAME.format(rid=rid)
    body = {"schemaVersion": 1, "board": board, "round": 1, "id": rid, "kind": "final"}
    body["receivedAt"] = "2026-11-30T01:02:03.123456Z"
    s3.put_object(Bucket=bucket, Key=key, Body=json.dumps(body).encode(), ContentType="application/json")
    return key


def pull_json(bucket: str, endpoint: str, *args: str) -> dict[str, Any]:
    result = CliRunner().invoke(
        cli,
        ["feedback", "pull", "--store", f"s3://{bucket}/p", "--endpoint-url", endpoint, "--json", *args],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def pulled(store: Path) -> list[str]:
    return sorted(p.name for p in store.rglob("*.json"))


@pytest.mark.parametrize("where", [".", "boards/checkout"])
def test_pull_fills_the_store_of_the_workspace_it_runs_in(
    s3: Any, bucket: str, moto_endpoint: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    put_record(s3, bucket, "r1")
    ws = make_workspace(tmp_path / "brand", "Split", [])
    monkeypatch.chdir(ws / where)
    report = pull_json(bucket, moto_endpoint)
    store = ws.resolve() / ".pinup" / "feedback"
    assert report["into"] == str(store) and report["pulled"] == 1
    assert pulled(store) == [NAME.format(rid="r1")]
    assert not (ws / where / "site_src").exists()


def test_pull_explicit_src_and_into_win(
    s3: Any, bucket: str, moto_endpoint: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    put_record(s3, bucket, "r1")
    here = make_workspace(tmp_path / "here", "Split", [])
    other = make_workspace(tmp_path / "other", "Cards", [])
    monkeypatch.chdir(here / "boards")
    report = pull_json(bucket, moto_endpoint, "--src", str(other))
    assert report["into"] == str(other / ".pinup" / "feedback") and report["pulled"] == 1
    assert pulled(other / ".pinup" / "feedback") == [NAME.format(rid="r1")]
    assert pulled(here / ".pinup" / "feedback") == []

    monkeypatch.chdir(tmp_path)
    relative = pull_json(bucket, moto_endpoint, "--src", "here")  # relative to the current folder, as before
    assert relative["into"] == str(Path("here") / ".pinup" / "feedback") and relative["pulled"] == 1

    monkeypatch.chdir(other)
    into = pull_json(bucket, moto_endpoint, "--into", str(tmp_path / "mirror"))
    assert into["into"] == str(tmp_path / "mirror") and pulled(tmp_path / "mirror") == [NAME.format(rid="r1")]


def test_pull_without_a_workspace_still_works(
    s3: Any, bucket: str, moto_endpoint: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    put_record(s3, bucket, "r1")
    monkeypatch.chdir(tmp_path)
    into = pull_json(bucket, moto_endpoint, "--into", "mirror")
    assert into["into"] == "mirror" and pulled(tmp_path / "mirror") == [NAME.format(rid="r1")]
    assert not (tmp_path / "site_src").exists()

    fallback = pull_json(bucket, moto_endpoint)  # no workspace anywhere: ./site_src's store, as before
    store = tmp_path.resolve() / "site_src" / ".pinup" / "feedback"
    assert fallback["into"] == str(store) and pulled(store) == [NAME.format(rid="r1")]
