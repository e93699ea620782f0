"""A rebuild leaves no cyclic garbage: what it no longer needs is freed as soon as it is done with it.

Why: builds run with the cyclic collector paused (`pinup.build.paused_gc`), and `pinup serve`
rebuilds after every save. A reference cycle (a recursive closure in the token builder was one)
kept each version's whole lint model alive until the collector's next pass, and the passes it
then caused over the rest of the heap cost about 1 ms per rebuild of a 25-brand gallery.
"""

from __future__ import annotations

import gc
import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def garbage_of(build: object) -> Counter[str]:
    """The types of the unreachable objects left by `build()` (run with the collector paused)."""
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        build()  # type: ignore[operator]
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        return Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()


def edit(design: Path, n: int) -> None:
    text = design.read_text("utf-8")
    design.write_text(text.replace("## Overview", f"## Overview\n\nEdit {n}.", 1), "utf-8")


def test_a_site_rebuild_after_an_edit_leaves_no_garbage_of_pinup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With boards: ruamel.yaml's loader and json's indenting encoder make small cycles of their own
    per board; nothing of pinup's may be among them."""
    from pinup.build import BuildOptions, build_all

    monkeypatch.setenv("PINUP_CACHE_DIR", str(tmp_path / "cache"))
    ws = tmp_path / "ws"
    shutil.copytree(ROOT / "site_src", ws, ignore=shutil.ignore_patterns(".pinup"))
    options = BuildOptions(src=ws, out=tmp_path / "site")
    build_all(options)
    edit(ws / "DESIGN.md", 1)
    left = garbage_of(lambda: build_all(options))
    assert "Edit 1." in (tmp_path / "site" / "index.html").read_text("utf-8")
    assert not [name for name in left if name.startswith(("pinup", "markdown_it", "jinja2", "pydantic"))], left


def test_a_gallery_rebuild_after_an_edit_leaves_no_garbage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pinup.brands import brand_refs_dir
    from pinup.gallery import build_gallery

    monkeypatch.setenv("PINUP_CACHE_DIR", str(tmp_path / "cache"))
    source = brand_refs_dir()
    picked = json.loads((source / "manifest.json").read_text("utf-8"))[:3]
    brands = tmp_path / "brand_refs"
    brands.mkdir()
    (brands / "manifest.json").write_text(json.dumps(picked), "utf-8")
    for entry in picked:
        shutil.copytree(source / entry["slug"], brands / entry["slug"])
    build_gallery(tmp_path / "out", root=brands)
    edit(brands / picked[1]["slug"] / "DESIGN.md", 1)
    assert garbage_of(lambda: build_gallery(tmp_path / "out", root=brands)) == Counter()
