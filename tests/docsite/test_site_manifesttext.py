"""The manifest's text is exactly json.dumps of the sorted manifest, however much of it the last save shares."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pinup import manifesttext
from pinup.output import MANIFEST, OutputWriter, build_id

SEGMENT = st.sampled_from(["a", "a-b", "a.b", "ab", "b", "assets", "index.html", "é", "x y", "A"])
NAME = st.sampled_from(["index.html", "a", "a/b.css", "a-b", "b/c/d.js", "z", "é.txt", '"q"'])
PATH = st.one_of(SEGMENT, st.tuples(SEGMENT, NAME).map("/".join))
ENTRY = st.tuples(st.text("0123456789abcdef", min_size=1, max_size=8), st.integers(0, 10**6), st.booleans())


def _reference(info: dict[str, object], files, groups, sizes, keys) -> str:
    """The manifest as the writer laid it out before it kept parts (one json.dumps of it all)."""
    order = sorted(files)
    data = {
        "version": 1,
        "build": {**info, "id": build_id(files)},
        "files": {rel: files[rel] for rel in order},
        "groups": dict(sorted(groups.items())),
        "sizes": {rel: sizes[rel] for rel in order if rel in sizes},
        "keys": {rel: keys[rel] for rel in order if rel in keys},
    }
    return json.dumps(data, separators=(",", ":"))


def _sections(entries: dict[str, tuple[str, int, bool]]):
    files = {rel: digest for rel, (digest, _, _) in entries.items()}
    sizes = {rel: size for rel, (_, size, _) in entries.items() if size % 3}
    keys = {
        rel: hashlib.sha256(digest.encode()).hexdigest()[:6] for rel, (digest, _, keyed) in entries.items() if keyed
    }
    return files, sizes, keys


@settings(max_examples=300, deadline=None)
@given(st.lists(st.dictionaries(PATH, ENTRY, max_size=12), min_size=1, max_size=4), st.data())
def test_every_save_is_the_plain_encoding_of_its_manifest(versions, data) -> None:
    where = f"/nowhere/{id(versions)}"
    groups: dict[str, object] = {}
    for number, entries in enumerate(versions):
        files, sizes, keys = _sections(entries)
        # a kept group is the same object as last time, a rebuilt one a new object
        for key in data.draw(st.lists(st.sampled_from(["a/site", "b/site", "gallery-index"]), max_size=3)):
            groups[key] = {"fingerprint": str(number), "files": sorted(files)[:2], "meta": {"n": number}}
        info = {"src": "/w", "apiUrl": ""} if number % 2 else {}
        text, ident = manifesttext.encode(where, info, files, groups, sizes, keys)
        assert text == _reference(info, files, groups, sizes, keys)
        assert ident == build_id(files)


def test_a_rebuild_that_changes_one_folder_saves_what_a_fresh_process_would(tmp_path: Path) -> None:
    out = tmp_path / "site"

    def build_all() -> None:
        with OutputWriter(out) as writer:
            for brand in ("acme", "zeta", "mid"):
                for name in ("index.html", "colors.html"):
                    writer.write_text(f"{brand}/{name}", f"{brand} {name}", key=brand)
            writer.write_text("index.html", "home")

    build_all()
    before = (out / MANIFEST).read_text("utf-8")
    build_all()  # the same files: every part kept from the last save
    assert (out / MANIFEST).read_text("utf-8") == before
    assert list(json.loads(before)["files"]) == [
        "acme/colors.html",
        "acme/index.html",
        "index.html",
        "mid/colors.html",
        "mid/index.html",
        "zeta/colors.html",
        "zeta/index.html",
    ]
    with OutputWriter(out) as writer:  # one folder changed, one gone
        writer.write_text("acme/index.html", "acme index, edited", key="acme2")
        writer.write_text("acme/colors.html", "acme colors.html", key="acme")
        writer.write_text("zeta/index.html", "zeta index.html", key="zeta")
        writer.write_text("index.html", "home")
    saved = json.loads((out / MANIFEST).read_text("utf-8"))
    assert list(saved["files"]) == ["acme/colors.html", "acme/index.html", "index.html", "zeta/index.html"]
    assert saved["keys"]["acme/index.html"] == "acme2"
    assert saved["build"]["id"] == writer.build_id == build_id(saved["files"])
    assert not (out / "mid").exists()
