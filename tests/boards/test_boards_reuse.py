"""A build keeps a board's files without rendering it while nothing it is made from changed
(`pinup.boards.reuse`), and renders exactly the boards an edit touched, with the same bytes a
build from nothing writes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from boards_helpers import copy_workspace

from pinup.boards import build as boards_build
from pinup.boards import reuse
from pinup.build import BuildError, BuildOptions, BuildResult, build_all

Build = Callable[..., tuple[BuildResult, list[str]]]


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _boards(out: Path) -> dict[str, bytes]:
    return {rel: data for rel, data in _tree(out).items() if rel.startswith("boards/")}


@pytest.fixture()
def build(monkeypatch: pytest.MonkeyPatch) -> Build:
    """`build_all`, and the slugs of the boards it rendered (`index` for the boards index)."""
    rendered: list[str] = []
    render_board, render_index = boards_build.render_board, boards_build.render_index

    def board(board: object, *args: object, **kwargs: object) -> object:
        rendered.append(board.slug)  # type: ignore[attr-defined]
        return render_board(board, *args, **kwargs)  # type: ignore[arg-type]

    def index(*args: object, **kwargs: object) -> str:
        rendered.append("index")
        return render_index(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(boards_build, "render_board", board)
    monkeypatch.setattr(boards_build, "render_index", index)

    def run(src: Path, out: Path, **options: object) -> tuple[BuildResult, list[str]]:
        rendered.clear()
        time.sleep(0.02)  # a new clock tick: each edit below gets a stamp of its own
        result = build_all(BuildOptions(src=src, out=out, **options))  # type: ignore[arg-type]
        return result, sorted(rendered)

    return run


@pytest.fixture()
def ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The example workspace; stamps trusted at once (the two-second window has its own test)."""
    monkeypatch.setattr(reuse, "RACY_NS", 0)
    return copy_workspace(tmp_path)


def _fresh(ws: Path, tmp_path: Path, name: str, **options: object) -> dict[str, bytes]:
    """The boards a build into an empty folder writes (nothing to keep there)."""
    out = tmp_path / name
    build_all(BuildOptions(src=ws, out=out, **options))  # type: ignore[arg-type]
    return _boards(out)


BOTH = ["index", "sighting-badge", "trail-home"]


def test_a_build_with_nothing_changed_renders_no_board(ws: Path, tmp_path: Path, build: Build) -> None:
    out = tmp_path / "site"
    first, rendered = build(ws, out)
    assert rendered == BOTH
    before = _tree(out)
    again, rendered = build(ws, out)
    assert rendered == []
    assert again.written == 0 and _tree(out) == before
    assert sorted(again.boards) == sorted(first.boards) and len(first.boards) >= 7


def test_an_edit_renders_the_boards_it_touches_and_nothing_else(ws: Path, tmp_path: Path, build: Build) -> None:
    out = tmp_path / "site"
    build(ws, out)
    trail, badge = ws / "boards" / "trail-home", ws / "boards" / "sighting-badge"

    # a variant's text changed, size and mtime as they were: its ctime and the page still tell
    variant = trail / "variants" / "a-capture-first.html"
    text, st = variant.read_text("utf-8"), variant.stat()
    swapped = text.replace("Log a sighting", "Log a sighTING", 1)
    assert swapped != text and len(swapped) == len(text)
    variant.write_text(swapped, "utf-8")
    os.utime(variant, ns=(st.st_atime_ns, st.st_mtime_ns))
    _, rendered = build(ws, out)
    assert rendered == ["trail-home"]
    assert "Log a sighTING" in (out / "boards/trail-home/variants/a-capture-first.html").read_text("utf-8")
    assert _boards(out) == _fresh(ws, tmp_path, "fresh-1")

    # a new file in a board's folder (a round being written): that board
    (badge / "notes.txt").write_text("next round: a rounder badge\n", "utf-8")
    assert build(ws, out)[1] == ["sighting-badge"]

    # a board.yaml: that board and the index, which shows its title
    board_yaml = trail / "board.yaml"
    board_yaml.write_text(board_yaml.read_text("utf-8").replace("Mossbook home screen", "Mossbook home"), "utf-8")
    assert build(ws, out)[1] == ["index", "trail-home"]
    assert "Mossbook home<" in (out / "boards/index.html").read_text("utf-8")

    # the DESIGN.md's prose: the site's pages, no board (they show its theme, tokens and name only)
    design = ws / "DESIGN.md"
    text = design.read_text("utf-8")
    overview = text.index("## Overview\n") + len("## Overview\n")
    design.write_text(text[:overview] + "\nA sentence the boards never show.\n" + text[overview:], "utf-8")
    edited, rendered = build(ws, out)
    assert rendered == [] and edited.written > 0
    assert "A sentence the boards never show." in (out / "index.html").read_text("utf-8")
    assert _boards(out) == _fresh(ws, tmp_path, "fresh-prose")
    assert build(ws, out, allow_html=True)[1] == []  # an option only the site's pages use: the same

    # its name: every board and the index (their titles show it)
    text = design.read_text("utf-8")
    design.write_text(text.replace("\nname: Mossbook\n", "\nname: Mossbook Field Guide\n", 1), "utf-8")
    assert build(ws, out)[1] == BOTH
    assert "Mossbook Field Guide" in (out / "boards/index.html").read_text("utf-8")

    # a DESIGN.md token: every board (the theme and the tweak controls come from it)
    text = design.read_text("utf-8")
    line = next(row for row in text.splitlines() if row.strip().startswith("primary:") and "#" in row)
    design.write_text(text.replace(line, line[:-2] + ("0" if line[-2] != "0" else "1") + line[-1]), "utf-8")
    assert build(ws, out)[1] == BOTH

    # options a page shows: inlined variants, the endpoint, and the token it embeds
    assert build(ws, out, inline=True)[1] == BOTH
    assert build(ws, out, inline=True)[1] == []
    assert build(ws, out, api_url="https://feedback.example/api")[1] == BOTH
    os.environ["PINUP_BOARD_SECRET"] = "one secret"
    try:
        assert build(ws, out, api_url="https://feedback.example/api")[1] == ["sighting-badge", "trail-home"]
        assert build(ws, out, api_url="https://feedback.example/api")[1] == []
        os.environ["PINUP_BOARD_SECRET"] = "another secret"
        assert build(ws, out, api_url="https://feedback.example/api")[1] == ["sighting-badge", "trail-home"]
        assert _boards(out) == _fresh(ws, tmp_path, "fresh-2", api_url="https://feedback.example/api")
    finally:
        del os.environ["PINUP_BOARD_SECRET"]
    manifest = (out / ".pinup-build.json").read_text("utf-8")
    assert "another secret" not in manifest and "one secret" not in manifest

    # a built file of a kept board removed or edited by hand: that board is written again
    (out / "boards/sighting-badge/board.json").unlink()
    build(ws, out, api_url="https://feedback.example/api")
    assert json.loads((out / "boards/sighting-badge/board.json").read_text("utf-8"))["board"] == "sighting-badge"


def test_a_link_in_a_board_folder_is_never_trusted(ws: Path, tmp_path: Path, build: Build) -> None:
    """Its target's folder is not stamped: the board is rendered every time, and shows the target's text."""
    outside = tmp_path / "outside.txt"
    outside.write_text("one\n", "utf-8")
    os.symlink(outside, ws / "boards" / "sighting-badge" / "linked.txt")
    out = tmp_path / "site"
    build(ws, out)
    assert build(ws, out)[1] == ["sighting-badge"]


def test_a_recent_change_is_told_by_its_bytes(tmp_path: Path, build: Build, monkeypatch: pytest.MonkeyPatch) -> None:
    """Within two seconds of a change a stamp cannot vouch for the next one (coarse clock ticks):
    the file's bytes are hashed too, so a build within the window keeps the board while they stay
    the same and renders it when they change, even when the stamp does not."""
    ws = copy_workspace(tmp_path)
    # a window no build here outlasts, however slow the machine: every file in it is hashed
    monkeypatch.setattr(reuse, "RACY_NS", 3600 * 10**9)
    out = tmp_path / "site"
    assert build(ws, out)[1] == BOTH
    assert build(ws, out)[1] == []  # the same bytes: kept
    board = ws / "boards" / "sighting-badge"
    notes = board / "notes.txt"
    notes.write_text("x", "utf-8")
    assert build(ws, out)[1] == ["sighting-badge"]
    assert build(ws, out)[1] == []
    # an edit in the same clock tick as the last one leaves the stamp as it was: only the bytes tell
    monkeypatch.setattr(reuse, "_stat_line", lambda st: f"{st.st_mode}:{st.st_size}")
    assert build(ws, out)[1] == BOTH  # every fingerprint in the new form: rendered once
    notes.write_text("y", "utf-8")
    assert build(ws, out)[1] == ["sighting-badge"]
    assert build(ws, out)[1] == []
    assert _boards(out) == _fresh(ws, tmp_path, "fresh")
    # a board.yaml edited within the window: the boards index is told the same way
    spec = board / "board.yaml"
    spec.write_text(spec.read_text("utf-8").replace("title:", "title: ", 1), "utf-8")
    assert build(ws, out)[1] == ["index", "sighting-badge"]
    assert build(ws, out)[1] == []
    # a recent file too large to hash cheaply (here every file, all in the window): rendered every time
    monkeypatch.setattr(reuse, "RACY_MAX_BYTES", 0)
    assert reuse.board_fingerprint(board, "any", None) is None
    assert build(ws, out)[1] == BOTH
    assert build(ws, out)[1] == BOTH
    # out of the window the stamps vouch alone again (the hashes' form goes): rendered once, then kept
    monkeypatch.setattr(reuse, "RACY_NS", 0)
    assert build(ws, out)[1] == BOTH
    assert build(ws, out)[1] == []


def test_a_bad_board_yaml_fails_the_build_before_any_board_is_written(ws: Path, tmp_path: Path, build: Build) -> None:
    out = tmp_path / "site"
    build(ws, out)
    before = _boards(out)
    variant = ws / "boards" / "trail-home" / "variants" / "b-map-first.html"
    variant.write_text(variant.read_text("utf-8") + "<!-- edited -->\n", "utf-8")
    (ws / "boards" / "sighting-badge" / "board.yaml").write_text("title: [unclosed\n", "utf-8")
    with pytest.raises(BuildError, match="board.yaml"):
        build(ws, out)
    assert _boards(out) == before


PROCESS = """
import json, sys
from pathlib import Path
from pinup.build import BuildOptions, build_all
result = build_all(BuildOptions(src=Path(sys.argv[1]), out=Path(sys.argv[2])))
unneeded = ("shutil", "markdown_it", "markupsafe")  # no clean, no prose parsed, no template rendered
print(json.dumps({
    "written": result.written, "jinja2": "jinja2" in sys.modules, "also": [m for m in unneeded if m in sys.modules]
}))
"""


def test_a_new_process_with_nothing_to_do_never_imports_jinja2(tmp_path: Path) -> None:
    """`pinup build` with nothing changed keeps the site and every board without a template engine,
    and writes no file."""
    ws = copy_workspace(tmp_path)
    out = tmp_path / "site"

    def run() -> dict[str, object]:
        done = subprocess.run([sys.executable, "-c", PROCESS, str(ws), str(out)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        found: dict[str, object] = json.loads(done.stdout)
        return found

    time.sleep(reuse.RACY_NS / 1e9 + 0.1)  # the copied workspace's stamps can vouch for it from now on
    assert run()["jinja2"] is True
    before = _tree(out)
    manifest = (out / ".pinup-build.json").stat()
    assert run() == {"written": 0, "jinja2": False, "also": []}
    assert _tree(out) == before
    # not even the manifest is written again: the same file, only touched (it tells when the folder was built)
    now = (out / ".pinup-build.json").stat()
    assert now.st_ino == manifest.st_ino and now.st_mtime_ns >= manifest.st_mtime_ns
    shutil.rmtree(out / "boards" / "trail-home")
    assert run()["jinja2"] is True  # a board's files gone: rendered again
    assert _tree(out) == before
