"""What `pinup serve` watches: each source folder on its own, never the feedback store or the site.

Every submission writes several files in the store; watching it made the kernel queue an event
per write and the watcher wake for each. These tests read the server's inotify watches from
/proc (Linux, as in CI), and check that folders made after start (a new board, a round's
variants) are watched.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import httpx
from serve_helpers import BOARD, start, wait_until

from pinup.serve.watch import watched_folders
from pinup.workspace import Workspace


def test_watched_folders_leave_out_the_store_the_site_and_dot_folders(tmp_path: Path) -> None:
    src = tmp_path / "ws"
    for folder in (
        "boards/hero/variants",
        "boards/hero/round-2/variants",
        ".pinup/feedback/hero",
        ".git/objects",
        "boards/hero/node_modules/x",
        "site/assets",
        "notes",
    ):
        (src / folder).mkdir(parents=True)
    (src / "boards" / "loop").symlink_to(src / "boards")  # a link loop is walked once
    ws = Workspace(src=src, out=src / "site", store=src / "notes")
    found = {Path(p).relative_to(src).as_posix() for p in watched_folders(ws)}
    assert found == {
        ".",
        "boards",
        "boards/hero",
        "boards/hero/variants",
        "boards/hero/round-2",
        "boards/hero/round-2/variants",
    }
    assert watched_folders(Workspace(src=tmp_path / "gone", out=tmp_path / "site", store=tmp_path / "s")) == []


def inotify_inodes(pid: int) -> set[int]:
    """The inodes the process's inotify instances watch (from /proc/PID/fdinfo)."""
    inodes: set[int] = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") != "anon_inode:inotify":
                continue
            info = Path(f"/proc/{pid}/fdinfo/{fd}").read_text()
        except OSError:
            continue
        for line in info.splitlines():
            if line.startswith("inotify wd:"):
                inodes.add(int(line.split("ino:")[1].split()[0], 16))
    return inodes


def test_the_store_is_not_watched_and_a_new_board_folder_is(checkout: Path) -> None:
    ws = checkout / "site_src"
    server = start(checkout, "--no-open", "--timeout", "0")
    try:
        base = server.base
        for i in range(3):
            answer = httpx.post(
                f"{base}/api/feedback",
                json={
                    "schemaVersion": 1,
                    "board": BOARD,
                    "round": 1,
                    "preferred": "A",
                    "regenerated": True,
                    "regenerateAction": "different",
                    "overall": f"submission {i}",
                },
                headers={"Origin": base},
                timeout=10,
            )
            assert answer.status_code == 200, answer.text
        store = ws / ".pinup" / "feedback"
        assert wait_until(lambda: os.stat(ws).st_ino in inotify_inodes(server.proc.pid))
        watched = inotify_inodes(server.proc.pid)
        assert os.stat(ws / "boards" / BOARD / "variants").st_ino in watched
        store_inodes = {os.stat(folder).st_ino for folder, _d, _f in os.walk(store)}
        assert store_inodes and not store_inodes & watched
        assert not server.has("SERVE_REBUILT:")  # submissions are not edits

        # a board folder copied in after start is built, and its later edits are seen
        fresh = ws / "boards" / "fresh-board"
        shutil.copytree(ws / "boards" / BOARD, fresh)
        board_page = checkout / "site" / "boards" / "fresh-board" / "index.html"
        assert wait_until(board_page.is_file, timeout=30)
        assert wait_until(lambda: os.stat(fresh / "variants").st_ino in inotify_inodes(server.proc.pid), timeout=30)
        yaml = fresh / "board.yaml"
        yaml.write_text(yaml.read_text(encoding="utf-8").replace("title:", "title: Fresh copy of", 1), encoding="utf-8")
        assert wait_until(lambda: "Fresh copy of" in board_page.read_text(encoding="utf-8"), timeout=30)
        variant = next(p for p in (fresh / "variants").iterdir() if p.suffix == ".html")
        variant.write_text(variant.read_text(encoding="utf-8") + "<!-- edited in the new folder -->", encoding="utf-8")
        built = checkout / "site" / "boards" / "fresh-board" / "variants" / variant.name
        assert wait_until(
            lambda: built.is_file() and "edited in the new folder" in built.read_text(encoding="utf-8"), timeout=30
        )
    finally:
        server.stop()
