"""One module decides where a workspace and its site are; the build manifest says what a site holds."""

from __future__ import annotations

import json
from pathlib import Path

from serve_helpers import BOARD, copy_example

from pinup.build import BuildOptions, build_all
from pinup.output import build_info
from pinup.serve.workspace import needs_build
from pinup.workspace import find_workspace, resolve, write_state


def test_the_nearest_workspace_wins_from_any_folder_below_or_above(tmp_path: Path) -> None:
    ws = copy_example(tmp_path)
    assert find_workspace(tmp_path) == ws  # a checkout: ./site_src
    assert find_workspace(ws) == ws
    assert find_workspace(ws / "boards" / BOARD) == ws  # inside the workspace
    example = tmp_path / "other" / "pinup-example"
    copy_example(example)
    assert find_workspace(tmp_path / "other") == example / "site_src"  # the copy `pinup serve` makes
    assert find_workspace(tmp_path / "other" / "pinup-example") == example / "site_src"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert find_workspace(empty) == ws  # from a sibling folder: the checkout above it


def test_the_output_is_beside_the_workspace_unless_serve_recorded_another(tmp_path: Path) -> None:
    ws = copy_example(tmp_path)
    assert resolve(ws).out == tmp_path / "site"
    write_state(ws, out=str(tmp_path / "served"), port=41234)
    assert resolve(ws).out == tmp_path / "served"
    assert resolve(ws, tmp_path / "explicit").out == tmp_path / "explicit"
    assert json.loads((ws / ".pinup" / "workspace.json").read_text())["port"] == 41234


def test_a_built_site_names_its_workspace(tmp_path: Path) -> None:
    ws = copy_example(tmp_path)
    out = tmp_path / "elsewhere"
    build_all(BuildOptions(src=ws, out=out))
    assert find_workspace(out) == ws and find_workspace(out / "boards") == ws


def test_manifest_records_api_url_and_serve_rebuilds_a_hosted_build(tmp_path: Path) -> None:
    ws = copy_example(tmp_path)
    result = build_all(BuildOptions(src=ws, out=tmp_path / "site", api_url="https://api.example.test"))
    info = build_info(tmp_path / "site")
    assert info["apiUrl"] == "https://api.example.test" and info["src"] == str(ws)
    assert info["id"] == result.build_id and len(result.build_id) == 16
    assert needs_build(resolve(ws))  # built for hosting: a local review must not post there
    build_all(BuildOptions(src=ws, out=tmp_path / "site"))
    assert build_info(tmp_path / "site")["apiUrl"] == "" and not needs_build(resolve(ws))


def test_plain_build_never_reads_the_store_results_only_when_asked(tmp_path: Path) -> None:
    ws = copy_example(tmp_path)
    out = tmp_path / "site"
    build_all(BuildOptions(src=ws, out=out))
    assert not (out / "boards" / BOARD / "results.html").exists()
    assert "results.html" not in (out / "boards" / "index.html").read_text(encoding="utf-8")
    build_all(BuildOptions(src=ws, out=out, results=True))
    assert (out / "boards" / BOARD / "results.html").is_file()
    assert f"{BOARD}/results.html" in (out / "boards" / "index.html").read_text(encoding="utf-8")
    again = build_all(BuildOptions(src=ws, out=out))  # and a plain build removes them again
    assert not (out / "boards" / BOARD / "results.html").exists() and again.removed >= 2
