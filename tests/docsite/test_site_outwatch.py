"""A rebuild in the same process keeps a group of outputs without a stat per file when the kernel
saw nothing touch them (pinup.outwatch), and rewrites them when anything did, even an edit the
stamps cannot see (same size, mtime put back)."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pinup import outwatch
from pinup.buildcache import active
from pinup.output import MANIFEST, OutputWriter

ROOT = Path(__file__).resolve().parents[2]
FILES = {"brand/index.html": "<p>index</p>", "brand/assets/site.css": "p{}", "brand/downloads/tokens.json": "{}"}


def _build(out: Path) -> str:
    """Build group "site" of FILES: "kept" when the previous build's files were reused."""
    with OutputWriter(out) as writer:
        if writer.reuse("site", "same inputs") is not None:
            return "kept"
        with writer.group("site", "same inputs"):
            for rel, text in FILES.items():
                writer.write_text(rel, text)
    return "written"


@pytest.fixture()
def out(tmp_path: Path) -> Path:
    out = tmp_path / "site"
    assert _build(out) == "written"
    assert _build(out) == "kept"  # a second build in this process: the folders are watched from now on
    return out


def _stats_of(out: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths under `out` that os.stat is asked about from now on."""
    seen: list[str] = []
    real = os.stat

    def counting(path: object, *args: object, **kwargs: object) -> os.stat_result:
        seen.append(str(path))
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", counting)
    return seen


def test_an_untouched_group_is_kept_without_a_stat_per_file(out: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _stats_of(out, monkeypatch)
    assert _build(out) == "kept"
    assert not [path for path in seen if path.endswith(("index.html", "site.css", "tokens.json"))]
    monkeypatch.undo()
    assert _build(out) == "kept"


def test_a_kept_file_written_again_is_kept_as_written(out: Path) -> None:
    """A rebuild takes a kept group's entries over from the build that last kept it (`_Kept`), unless
    that build wrote one of its files again: the manifest then holds what is in the file now."""
    with OutputWriter(out) as writer:
        assert writer.reuse("site", "same inputs") is not None
        writer.write_text("brand/index.html", "<p>changed</p>")
    for _ in range(2):
        assert _build(out) == "kept"
        saved = json.loads((out / MANIFEST).read_text("utf-8"))
        assert saved["files"]["brand/index.html"] == hashlib.sha256(b"<p>changed</p>").hexdigest()
        assert saved["sizes"]["brand/index.html"] == len("<p>changed</p>")
    assert (out / "brand" / "index.html").read_text() == "<p>changed</p>"


def test_an_edit_the_stamps_cannot_see_is_still_noticed(out: Path) -> None:
    page = out / "brand" / "index.html"
    before = page.stat()
    with page.open("r+b") as fh:  # the same size, in place (same inode) ...
        fh.write(b"<p>INDEX</p>")
    os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns))  # ... and its mtime put back
    assert [page.stat().st_size, page.stat().st_mtime_ns, page.stat().st_ino] == [
        before.st_size,
        before.st_mtime_ns,
        before.st_ino,
    ]
    assert _build(out) == "written"
    assert page.read_text() == "<p>index</p>"
    assert _build(out) == "kept"  # watched again after the rewrite


@pytest.mark.parametrize(
    "change",
    [
        "delete a file",
        "replace a folder with a copy",
        "move the output folder and put a copy back",
        "touch a file",
    ],
)
def test_touched_files_are_checked_and_rewritten(out: Path, change: str) -> None:
    if change == "delete a file":
        (out / "brand" / "assets" / "site.css").unlink()
    elif change == "replace a folder with a copy":
        shutil.copytree(out / "brand", out.parent / "copy")
        shutil.rmtree(out / "brand")
        (out.parent / "copy").rename(out / "brand")
        (out / "brand" / "downloads" / "tokens.json").write_text("{} ")  # changed in the copy
    elif change == "move the output folder and put a copy back":
        out.rename(out.parent / "moved")
        shutil.copytree(out.parent / "moved", out)
        (out / "brand" / "index.html").write_text("<p>INDEX</p>")
    else:
        os.utime(out / "brand" / "index.html", ns=(0, 0))
    assert _build(out) in ("written", "kept")
    for rel, text in FILES.items():
        assert (out / rel).read_text() == text
    assert _build(out) == "kept"


def test_files_in_a_folder_moved_away_and_back_are_written_again(out: Path) -> None:
    (out / "brand").rename(out / "elsewhere")
    (out / "elsewhere").rename(out / "brand")
    assert _build(out) == "written"  # the kernel saw the folder go: what came back is not trusted
    assert _build(out) == "kept"  # the folder now there is watched


def test_lost_events_mean_every_file_is_checked(out: Path) -> None:
    others = [out / "brand" / "notes.txt", out / "brand" / "todo.txt"]  # not pinup's: they only fill the queue
    for other in others:
        other.write_text("x")
    for n in range(17_000):  # more than the kernel queues (16,384 by default), none merged with the last
        os.utime(others[n % 2], ns=(n, n))
    outwatch.begin(str(out.resolve()))  # as a build starts
    assert outwatch.check(str(out.resolve()), list(FILES), _stamps(str(out.resolve()))) is None
    assert _build(out) == "kept"  # every file checked with a stat, all intact


def _stamps(folder: str) -> dict[str, list[int]]:
    """The stamps the last build of `folder` left in the test's build cache (what armed the watches)."""
    return active().output.stamps[folder]


def _child_untouched(folder: str, stamps: dict[str, list[int]]) -> bool | None:
    outwatch.begin(folder)
    return outwatch.check(folder, list(FILES), stamps)


def test_a_forked_child_does_not_use_its_parents_watches(out: Path) -> None:
    folder = str(out.resolve())
    outwatch.begin(folder)
    assert outwatch.check(folder, list(FILES), _stamps(folder)) is True
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply(_child_untouched, (folder, _stamps(folder))) is None
    outwatch.begin(folder)
    assert (
        outwatch.check(folder, list(FILES), _stamps(folder)) is True
    )  # the child read nothing from the parent's queue


def test_another_cache_s_build_gets_no_answer_from_the_watches(out: Path) -> None:
    """Watches armed by one build cache's build answer only a build that starts from its stamps: a
    build with another cache (which may have written the folder meanwhile) checks each file."""
    from pinup.buildcache import BuildCache, using

    folder = str(out.resolve())
    with using(BuildCache()):
        assert _build(out) == "kept"  # by its manifest and a stat per file
    outwatch.begin(folder)
    assert outwatch.check(folder, list(FILES), {}) is None
    assert outwatch.check(folder, list(FILES), _stamps(folder)) is None  # the other build armed them now


BUILDS = """
import json, sys
from pathlib import Path
from pinup.build import BuildOptions, build_all
if sys.argv[3] == "serve":
    from pinup import outwatch
    outwatch.expect_rebuilds()
watched = []
for _ in range(int(sys.argv[4])):
    result = build_all(BuildOptions(src=Path(sys.argv[1]), out=Path(sys.argv[2])))
    watched.append("inotify_simple" in sys.modules)
print(json.dumps({"watched": watched, "written": result.written}))
"""


@pytest.mark.parametrize(
    ("process", "builds", "watched"),
    [("build", 1, [False]), ("build", 3, [False, True, True]), ("serve", 2, [True, True])],
)
def test_only_a_process_that_builds_again_watches(
    tmp_path: Path, process: str, builds: int, watched: list[bool]
) -> None:
    """A one-shot build never loads inotify; the second build of a process arms the watches, and
    the first of one that says it will rebuild (`pinup serve`)."""
    workspace = tmp_path / "ws"
    shutil.copytree(ROOT / "site_src", workspace)
    result = subprocess.run(
        [sys.executable, "-c", BUILDS, str(workspace), str(tmp_path / "site"), process, str(builds)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["watched"] == watched
    if builds > 1:
        assert report["written"] == 0  # the last build, watched or not, kept every file
