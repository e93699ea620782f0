"""The prose products one build saves let the next process rebuild an edited DESIGN.md without parsing its prose.

`pinup.prosememo`: after a token edit, a new `pinup build` process must write exactly
what a build without any cache writes, without importing markdown-it-py; after a prose edit it
must parse the new prose (and still write the same as a build without cache). Files made by
other code, damaged files and files in a folder others may write to are never used.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from site_helpers import private_cache, tree

from pinup import prosememo
from pinup.buildcache import BuildCache, using

ROOT = Path(__file__).resolve().parents[2]

#: one `pinup build` in a new process; prints whether it imported the Markdown parser
BUILD = """
import sys
from pathlib import Path
from pinup.build import BuildOptions, build_all
build_all(BuildOptions(src=Path(sys.argv[1]), out=Path(sys.argv[2])))
print("markdown_it" in sys.modules)
"""


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return private_cache(tmp_path, monkeypatch) / "prose"


def build_in_new_process(src: Path, out: Path, *, no_cache: bool = False) -> bool:
    """Build `src` into `out` in a new process; True when it imported markdown-it-py."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "generator")}
    if no_cache:
        env["PINUP_NO_CACHE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", BUILD, str(src), str(out)], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip().splitlines()[-1] == "True"


def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    shutil.copy(ROOT / "site_src" / "DESIGN.md", ws / "DESIGN.md")
    return ws


def edit(design: Path, old: str, new: str) -> None:
    text = design.read_text("utf-8")
    assert old in text
    design.write_text(text.replace(old, new, 1), "utf-8")


def test_a_token_edit_is_rebuilt_without_parsing_prose_and_writes_what_no_cache_writes(
    tmp_path: Path, cache: Path
) -> None:
    ws = workspace(tmp_path)
    assert build_in_new_process(ws, tmp_path / "first")  # nothing saved yet: the prose is parsed
    saved = list(cache.glob("*.pickle"))
    assert len(saved) == 1
    edit(ws / "DESIGN.md", 'primary: "#3d5a2a"', 'primary: "#3d5a2b"')
    assert not build_in_new_process(ws, tmp_path / "edited")  # the prose came from the saved products
    after = tree(tmp_path / "edited")
    assert "#3d5a2b" in after["colors.html"].decode()
    assert build_in_new_process(ws, tmp_path / "reference", no_cache=True)
    assert after == tree(tmp_path / "reference")
    assert list(cache.glob("*.pickle")) == saved  # one file per source, replaced, never added to


def test_a_prose_edit_is_parsed_again_and_shows(tmp_path: Path, cache: Path) -> None:
    ws = workspace(tmp_path)
    build_in_new_process(ws, tmp_path / "first")
    design = ws / "DESIGN.md"
    overview = design.read_text("utf-8").split("## Overview", 1)[1].strip().split("\n", 1)[0]
    edit(design, overview, "A sentence no earlier build rendered, with **bold** words.")
    assert build_in_new_process(ws, tmp_path / "edited")
    after = tree(tmp_path / "edited")
    assert "A sentence no earlier build rendered, with <strong>bold</strong> words." in after["index.html"].decode()
    build_in_new_process(ws, tmp_path / "reference", no_cache=True)
    assert after == tree(tmp_path / "reference")
    # the next process starts from the new prose: a token edit after it parses nothing again
    edit(design, 'primary: "#3d5a2a"', 'primary: "#3d5a2c"')
    assert not build_in_new_process(ws, tmp_path / "again")


@contextmanager
def kept(source: str, code: str, cache: BuildCache | None = None) -> Iterator[None]:
    """`prosememo.kept` within `cache` (None: a new one, as a new process would start with)."""
    with using(cache or BuildCache()), prosememo.kept(source, code):
        yield


def test_products_of_other_code_or_damaged_files_are_never_used(cache: Path) -> None:
    key = (False, "Some *prose*.")
    with kept("a source", "code A"):
        prosememo.keep("test", key, "<p>made by code A</p>")
    [saved] = cache.glob("*.pickle")
    with kept("a source", "code B"):
        assert prosememo.recall("test", key) is None  # another pinup: its products may differ
    saved.write_bytes(b"pinup-prose\n" + b"\x80\x05 not a pickle")
    with kept("a source", "code A"):
        assert prosememo.recall("test", key) is None
    with kept("a source", "code A"):
        prosememo.keep("test", key, "<p>made by code A</p>")
    with kept("a source", "code A"):
        assert prosememo.recall("test", key) == "<p>made by code A</p>"


def test_a_folder_others_can_write_to_is_never_read(cache: Path) -> None:
    key = (False, "Shared *prose*.")
    with kept("shared source", "code"):
        prosememo.keep("test", key, "<p>planted</p>")
    cache.chmod(0o777)
    try:
        with kept("shared source", "code"):
            assert prosememo.recall("test", key) is None
    finally:
        cache.chmod(0o700)


def test_an_unchanged_prose_is_not_written_again_and_a_failed_build_saves_nothing(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writes: list[str] = []
    write = prosememo._write
    monkeypatch.setattr(prosememo, "_write", lambda *args: writes.append(args[1]) or write(*args))
    key = (False, "Loop *prose*.")
    loop = BuildCache()  # `pinup serve`: one cache for every rebuild
    for _ in range(3):  # an edit loop: each build reads the same prose
        with kept("loop source", "code", loop):
            if prosememo.recall("test", key) is None:
                prosememo.keep("test", key, "<p>loop</p>")
    assert writes == ["code"]
    with pytest.raises(RuntimeError), kept("loop source", "code", loop):
        prosememo.keep("test", (False, "half a build"), "<p>half</p>")
        raise RuntimeError("the build failed")
    assert writes == ["code"]


def test_old_files_are_pruned(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prosememo, "MAX_FILES", 3)
    cache.mkdir(parents=True, mode=0o700)
    for number in range(5):
        old = cache / f"old{number}.pickle"
        old.write_bytes(b"")
        os.utime(old, ns=(number * 10**9, number * 10**9))
    with kept("new source", "code"):
        prosememo.keep("test", (False, "pruning"), "<p>p</p>")
    left = sorted(p.name for p in cache.glob("*.pickle"))
    assert len(left) == 3
    assert "old0.pickle" not in left and "old1.pickle" not in left and "old2.pickle" not in left


#: `pinup gallery` in a new process; prints which modules a rebuild should not need it imported,
#: then whether it imported the Markdown parser
GALLERY = """
import sys
from pathlib import Path
from pinup.gallery import build_gallery
build_gallery(Path(sys.argv[1]))
print(sorted(name for name in ("difflib", "pydantic") if name in sys.modules))
print("markdown_it" in sys.modules)
"""


def test_a_gallery_rebuild_after_a_token_edit_parses_no_prose(tmp_path: Path, cache: Path) -> None:
    """The gallery imports the page builders only once a brand must be modelled: the saved products
    must reach them all the same."""
    brands = tmp_path / "brands"
    shutil.copytree(ROOT / "brand_refs", brands)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "generator"), "PINUP_BRAND_REFS": str(brands)}

    unneeded: list[str] = []

    def gallery(out: str, **extra: str) -> bool:
        done = subprocess.run(
            [sys.executable, "-c", GALLERY, str(tmp_path / out)],
            env={**env, **extra},
            capture_output=True,
            text=True,
            check=True,
        )
        unneeded.append(done.stdout.strip().splitlines()[-2])
        return done.stdout.strip().splitlines()[-1] == "True"

    assert gallery("out")
    design = sorted(brands.glob("*/DESIGN.md"))[0]
    text = design.read_text("utf-8")
    found = re.search(r'^  [\w-]+: "#[0-9a-fA-F]{5}([0-9a-fA-F])"', text, re.M)
    assert found is not None
    digit = "0" if found.group(1) != "0" else "1"
    design.write_text(text[: found.start(1)] + digit + text[found.end(1) :], "utf-8")
    assert not gallery("out")
    assert unneeded[-1] == "[]"  # no diff to show, no validation: the model is read, not checked
    gallery("reference", PINUP_NO_CACHE="1")
    assert tree(tmp_path / "out") == tree(tmp_path / "reference")
