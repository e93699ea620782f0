"""The site cache (page models kept between builds) never changes what a build writes.

Each test gets its own cache folder. Builds with an empty cache, a warm cache and the
cache off must give byte-identical trees; an edited DESIGN.md must show in the next
build even though the cache holds pages of its previous version.
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import warnings
from pathlib import Path

import pytest
from site_helpers import private_cache, tree

from pinup.buildcache import BuildCache, using

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return private_cache(tmp_path, monkeypatch) / "sites"


def site_build(src: Path, out: Path) -> dict[str, bytes]:
    from pinup.build import BuildOptions, build_all

    build_all(BuildOptions(src=src, out=out))
    return tree(out)


def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    shutil.copy(ROOT / "site_src" / "DESIGN.md", ws / "DESIGN.md")
    return ws


def test_site_is_byte_identical_with_cold_warm_and_no_cache(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = workspace(tmp_path)
    cold = site_build(ws, tmp_path / "cold")
    entries = list(cache.glob("*.pickle"))
    assert len(entries) == 1  # the first build filled the cache
    warm = site_build(ws, tmp_path / "warm")
    monkeypatch.setenv("PINUP_NO_CACHE", "1")
    off = site_build(ws, tmp_path / "off")
    assert "colors.html" in cold and len(cold) > 15
    assert cold == warm == off
    assert list(cache.glob("*.pickle")) == entries  # the warm build read it, added nothing


def test_edited_design_md_is_picked_up_with_a_warm_cache(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = workspace(tmp_path)
    before = site_build(ws, tmp_path / "before")
    design = ws / "DESIGN.md"
    design.write_text(design.read_text("utf-8").replace('primary: "#3d5a2a"', 'primary: "#3d5a2b"', 1), "utf-8")
    after = site_build(ws, tmp_path / "after")  # a fresh folder: only the cache could make it stale
    assert "#3d5a2b" in after["colors.html"].decode() and "#3d5a2b" not in before["colors.html"].decode()
    monkeypatch.setenv("PINUP_NO_CACHE", "1")
    assert site_build(ws, tmp_path / "reference") == after
    from pinup import sitecache

    # one entry per version of the file; this process saves the edited one when it ends
    assert len(list(cache.glob("*.pickle"))) == 1
    sitecache.save_pending()
    assert len(list(cache.glob("*.pickle"))) == 2


def test_damaged_entries_are_rebuilt_not_trusted(tmp_path: Path, cache: Path) -> None:
    ws = workspace(tmp_path)
    good = site_build(ws, tmp_path / "good")
    for entry in cache.glob("*.pickle"):
        entry.write_bytes(b"pinup-site-cache\nnot a pickle")
    assert site_build(ws, tmp_path / "again") == good
    for entry in cache.glob("*.pickle"):
        entry.write_bytes(entry.read_bytes()[:100])  # truncated, as after a full disk
    assert site_build(ws, tmp_path / "third") == good


def test_a_folder_others_can_write_to_is_never_read(tmp_path: Path, cache: Path) -> None:
    from pinup import sitecache

    sitecache.save("k" * 64, {"pages": 1})
    assert sitecache.load("k" * 64) == {"pages": 1}
    cache.chmod(0o777)  # another user could plant a pickle here
    assert sitecache.load("k" * 64) is None
    sitecache.save("j" * 64, {"pages": 2})
    assert not (cache / f"{'j' * 64}.pickle").exists()


def test_old_entries_are_pruned(tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pinup import sitecache

    monkeypatch.setattr(sitecache, "MAX_ENTRIES", 3)
    for i in range(5):
        key = f"{i:064d}"
        sitecache.save(key, i)
        os.utime(cache / f"{key}.pickle", ns=(i * 10**9, i * 10**9))
    sitecache.save("f" * 64, "newest")
    left = sorted(p.stem for p in cache.glob("*.pickle"))
    assert left == [f"{3:064d}", f"{4:064d}", "f" * 64]
    monkeypatch.setattr(sitecache, "MAX_BYTES", (cache / f"{'f' * 64}.pickle").stat().st_size * 2)
    sitecache.save("e" * 64, "latest")  # as big as "newest": the two ints before them are too many bytes
    assert len(list(cache.glob("*.pickle"))) == 2 and (cache / f"{'e' * 64}.pickle").exists()


def test_pruning_leaves_room_for_the_next_saves(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over the limit on entries, pruning goes a tenth below it: the saves after it add entries
    without removing any (and without a stat of every entry each time)."""
    from pinup import sitecache

    monkeypatch.setattr(sitecache, "MAX_ENTRIES", 20)
    for i in range(20):
        sitecache.save(f"{i:064d}", i)
        os.utime(cache / f"{i:064d}.pickle", ns=((i + 1) * 10**9, (i + 1) * 10**9))
    assert len(list(cache.glob("*.pickle"))) == 20
    sitecache.save("a" * 64, "one too many")
    left = {p.stem for p in cache.glob("*.pickle")}
    assert len(left) == 18 and "a" * 64 in left and {f"{i:064d}" for i in range(3)}.isdisjoint(left)
    sitecache.save("b" * 64, "room")
    sitecache.save("c" * 64, "room")
    assert len(list(cache.glob("*.pickle"))) == 20


def test_entries_another_process_wrote_count_towards_the_limits(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sizes this process knows are not stat'ed again; entries it never saw are, and are pruned."""
    from pinup import sitecache

    monkeypatch.setattr(sitecache, "MAX_ENTRIES", 3)
    for i in range(3):
        sitecache.save(f"{i:064d}", i)
        os.utime(cache / f"{i:064d}.pickle", ns=((i + 10) * 10**9, (i + 10) * 10**9))
    foreign = cache / f"{'a' * 64}.pickle"  # as another pinup process would leave it: the oldest
    foreign.write_bytes((cache / f"{0:064d}.pickle").read_bytes())
    os.utime(foreign, ns=(10**9, 10**9))
    sitecache.save("b" * 64, "mine")
    assert sorted(p.stem for p in cache.glob("*.pickle")) == [f"{1:064d}", f"{2:064d}", "b" * 64]
    monkeypatch.setattr(sitecache, "MAX_ENTRIES", 10)
    big = cache / f"{'c' * 64}.pickle"
    big.write_bytes((cache / f"{1:064d}.pickle").read_bytes()[:20] + b"x" * 5000)
    os.utime(big, ns=(2 * 10**9, 2 * 10**9))
    monkeypatch.setattr(sitecache, "MAX_BYTES", 4000)  # the foreign entry alone is over it
    sitecache.save("d" * 64, "latest")
    assert not big.exists() and (cache / f"{'d' * 64}.pickle").exists()


def test_an_entry_gone_while_pruning_is_skipped_and_the_listing_closed(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two builds sharing the cache folder: one prunes or replaces an entry while the other lists
    it. A dangling link stands for that entry (its `stat` finds nothing); pruning goes on past it,
    and leaves no directory listing open for the garbage collector."""
    from pinup import sitecache

    monkeypatch.setattr(sitecache, "MAX_ENTRIES", 2)
    for i in range(3):
        key = f"{i:064d}"
        sitecache.save(key, i)
        os.utime(cache / f"{key}.pickle", ns=(i * 10**9, i * 10**9))
    (cache / f"{'0' * 63}9.pickle").symlink_to(cache / "gone.pickle")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sitecache.save("f" * 64, "newest")
        gc.collect()
    assert [w for w in caught if issubclass(w.category, ResourceWarning)] == []
    left = sorted(p.stem for p in cache.glob("*.pickle") if p.exists())
    assert left == [f"{2:064d}", "f" * 64]


def test_gallery_with_and_without_cache_and_after_an_edit(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pinup.brands import brand_refs_dir
    from pinup.gallery import build_gallery

    source = brand_refs_dir()
    picked = json.loads((source / "manifest.json").read_text("utf-8"))[:2]
    brands = tmp_path / "brand_refs"
    brands.mkdir()
    (brands / "manifest.json").write_text(json.dumps(picked), "utf-8")
    for entry in picked:
        shutil.copytree(source / entry["slug"], brands / entry["slug"])
    monkeypatch.setenv("PINUP_BRAND_REFS", str(brands))

    def gallery(name: str) -> dict[str, bytes]:
        build_gallery(tmp_path / name)
        return tree(tmp_path / name)

    cold = gallery("cold")
    warm = gallery("warm")
    monkeypatch.setenv("PINUP_NO_CACHE", "1")
    off = gallery("off")
    assert cold == warm == off and f"{picked[0]['slug']}/colors.html" in cold
    monkeypatch.delenv("PINUP_NO_CACHE")
    # an edited brand and an edited manifest both show up, though the cache knows their old versions
    design = brands / picked[1]["slug"] / "DESIGN.md"
    design.write_text(design.read_text("utf-8").replace("## Overview", "## Overview\n\nRevision two.", 1), "utf-8")
    picked[0]["category"] = "renamed category"
    (brands / "manifest.json").write_text(json.dumps(picked), "utf-8")
    edited = gallery("edited")
    assert "Revision two." in edited[f"{picked[1]['slug']}/index.html"].decode()
    assert "renamed category" in edited["index.html"].decode()
    monkeypatch.setenv("PINUP_NO_CACHE", "1")
    assert gallery("edited-off") == edited


EDIT_LOOP = """
import os, sys
from pathlib import Path
from pinup.build import BuildOptions, build_all
from pinup.buildcache import BuildCache
from pinup import sitecache
ws, out = Path(sys.argv[1]), Path(sys.argv[2])
design = ws / "DESIGN.md"
original = design.read_text("utf-8")
served = BuildCache()  # as `pinup serve` holds one for all its builds
build_all(BuildOptions(src=ws, out=out), cache=served)
print(len(list(sitecache.folder().glob("*.pickle"))))
for word in ("first", "second", "third"):
    design.write_text(original.replace("## Overview", f"## Overview\\n\\nRevision {word}.", 1), "utf-8")
    build_all(BuildOptions(src=ws, out=out), cache=served)
    assert f"Revision {word}." in (out / "index.html").read_text("utf-8")
    print(len(list(sitecache.folder().glob("*.pickle"))))
"""


def test_an_edit_loop_saves_only_its_last_version_when_the_process_ends(tmp_path: Path, cache: Path) -> None:
    """`pinup serve` rebuilding after each save: the first version is saved at once, each later one
    replaces the one before in memory, and the newest is written when the process ends."""
    import subprocess
    import sys

    from pinup import sitecache

    ws = workspace(tmp_path)
    out = tmp_path / "out"
    run = subprocess.run(
        [sys.executable, "-c", EDIT_LOOP, str(ws), str(out)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PINUP_CACHE_DIR": str(cache.parent.parent)},
    )
    assert run.stdout.split() == ["1", "1", "1", "1"]  # nothing written during the edits
    entries = {p.name for p in cache.glob("*.pickle")}
    assert len(entries) == 2
    # the one written at exit is the last version's: a new process building it reads it
    assert site_build(ws, tmp_path / "again") == tree(out)
    assert {p.name for p in cache.glob("*.pickle")} == entries
    assert "Revision third." in (out / "index.html").read_text("utf-8")
    assert sitecache.folder() == cache


def test_a_put_off_version_is_found_in_the_process_and_saved_by_save_pending(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pinup import sitecache
    from pinup.sitecache import cached

    served = BuildCache()  # `pinup serve`: one cache for all its builds
    source = tmp_path / "DESIGN.md"
    made: list[bytes] = []

    def build(data: bytes) -> object:
        def make() -> object:
            made.append(data)
            return {"built from": data}

        with using(served):
            return cached(data, "test", make, source)

    assert build(b"one") == {"built from": b"one"}
    assert build(b"two") == {"built from": b"two"}
    assert build(b"two") == {"built from": b"two"} and made == [b"one", b"two"]  # found in memory
    assert len(list(cache.glob("*.pickle"))) == 1
    assert build(b"three") == {"built from": b"three"}
    sitecache.save_pending(served.sites)
    assert len(list(cache.glob("*.pickle"))) == 2  # "two" was replaced by "three" before it was written
    made.clear()
    assert build(b"three") == {"built from": b"three"} and made == []
    assert build(b"two") == {"built from": b"two"} and made == [b"two"]
    # a forked worker (another pid) cannot count on atexit: it saves at once
    monkeypatch.setattr(served.sites, "owner", -1)
    build(b"four")
    assert len(list(cache.glob("*.pickle"))) == 3
    sitecache.save_pending(served.sites)
    assert len(list(cache.glob("*.pickle"))) == 4  # "two", put off before the fork, written now


def test_another_version_of_a_library_makes_new_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page models hold the YAML and Markdown parsers' work (and pages, the template engine's):
    installing another version of one replaces its files, and no entry made with the old one is used."""
    from pinup import codeprint

    lib = tmp_path / "site" / "fakelib"
    lib.mkdir(parents=True)
    (lib / "__init__.py").write_text("VERSION = 1\n")
    os.utime(lib, ns=(10**9, 10**9))  # installed long ago (the kernel's clock is too coarse to tell two writes apart)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setattr(codeprint, "LIBRARIES", (*codeprint.LIBRARIES, "fakelib"))

    def fingerprint() -> str:
        with using(BuildCache()):  # a new process's: worked out afresh
            return codeprint.code_fingerprint()

    before = fingerprint()
    assert str(lib) in codeprint._libraries()
    assert fingerprint() == before  # the same install, the same key
    (lib / "__init__.py").unlink()  # what `pip install -U` does: the old files go, the new ones come
    (lib / "__init__.py").write_text("VERSION = 2\n")
    (lib / "new_module.py").write_text("")
    assert fingerprint() != before


def test_a_held_build_cache_keeps_what_the_next_build_needs_and_a_new_one_starts_cold(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pinup serve` holds one `BuildCache` for all its builds: the second build finds the code's
    fingerprint, the templates and the output folder's stamps in it; a build with a new cache (a new
    `pinup build`) works them out again, and writes the same site."""
    from pinup import codeprint
    from pinup.build import BuildOptions, build_all

    ws = workspace(tmp_path)
    out = tmp_path / "out"
    worked_out: list[str | None] = []
    real = codeprint._fingerprint
    monkeypatch.setattr(codeprint, "_fingerprint", lambda templates: worked_out.append(templates) or real(templates))
    held = BuildCache()
    build_all(BuildOptions(src=ws, out=out), cache=held)
    assert worked_out == [None] and held.templates and str(out.resolve()) in held.output.stamps
    first = tree(out)
    build_all(BuildOptions(src=ws, out=out), cache=held)
    assert worked_out == [None]
    build_all(BuildOptions(src=ws, out=out), cache=BuildCache())
    assert worked_out == [None, None]
    assert tree(out) == first
