"""An incremental rebuild writes exactly what a clean build of the same inputs writes.

`pinup build` and `pinup gallery` keep a brand whose inputs did not change and, inside a
changed brand, the pages whose model and chrome did not change (`pinup.docsite.pagekeys`,
`OutputWriter.keep`). Every case here rebuilds one folder in place, in one process as
`pinup serve` does, and compares it byte for byte (the build manifest included) with a
fresh build of the same inputs into an empty folder: after a token edit, its revert, a
deleted or damaged output file, a changed option and a changed user template.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from site_helpers import private_cache, tree

from pinup.brands import MANIFEST as BRANDS_MANIFEST
from pinup.brands import brand_refs_dir
from pinup.build import BuildOptions, build_all
from pinup.buildcache import BuildCache, active, using
from pinup.gallery import build_gallery
from pinup.output import MANIFEST

ROOT = Path(__file__).resolve().parents[2]
BRANDS = 3  # enough for shared pages (the gallery index) and untouched neighbours


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    private_cache(tmp_path, monkeypatch)


def stamps(folder: Path) -> dict[str, tuple[int, int]]:
    """Which files were replaced: every write makes a new inode."""
    return {
        p.relative_to(folder).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns)
        for p in folder.rglob("*")
        if p.is_file() and p.name != MANIFEST
    }


def brand_root(tmp_path: Path) -> tuple[Path, list[str]]:
    """A copy of the bundled brands, keeping BRANDS of them."""
    root = tmp_path / "brands"
    shutil.copytree(brand_refs_dir(), root)
    manifest = json.loads((root / BRANDS_MANIFEST).read_text("utf-8"))
    entries = manifest["brands"] if isinstance(manifest, dict) else manifest
    slugs = [e["slug"] for e in entries if (root / e["slug"] / "DESIGN.md").is_file()][:BRANDS]
    for entry in entries:
        if entry["slug"] not in slugs and (root / entry["slug"] / "DESIGN.md").is_file():
            (root / entry["slug"] / "DESIGN.md").unlink()
    return root, slugs


def edit_token(design: Path, nth: int = 0) -> str:
    """Change the last hex digit of the `nth` colour token; returns the original text."""
    original = design.read_text("utf-8")
    found = list(re.finditer(r'^  [\w-]+: "#[0-9a-fA-F]{6}"', original, re.M))[nth]
    at = found.end() - 2
    digit = "1" if original[at] == "0" else "0"
    design.write_text(original[:at] + digit + original[at + 1 :], "utf-8")
    return original


def clean_gallery(root: Path, out: Path, fonts: str = "system") -> dict[str, bytes]:
    shutil.rmtree(out, ignore_errors=True)
    build_gallery(out, root=root, fonts=fonts)
    return tree(out)


def test_gallery_rebuild_in_place_matches_a_clean_build(tmp_path: Path) -> None:
    root, slugs = brand_root(tmp_path)
    out = tmp_path / "out"
    build_gallery(out, root=root)
    first = tree(out)
    assert first == clean_gallery(root, tmp_path / "clean")
    before = stamps(out)

    # one token of one brand: that brand's pages and the index change, nothing else is written
    changed = root / slugs[1] / "DESIGN.md"
    original = edit_token(changed)
    build_gallery(out, root=root)
    after_edit = tree(out)
    assert after_edit == clean_gallery(root, tmp_path / "clean")
    assert after_edit[f"{slugs[1]}/colors.html"] != first[f"{slugs[1]}/colors.html"]
    assert after_edit[f"{slugs[1]}/assets/theme.css"] != first[f"{slugs[1]}/assets/theme.css"]
    now = stamps(out)
    replaced = {rel for rel in now if before.get(rel) != now[rel]}
    assert f"{slugs[1]}/colors.html" in replaced
    assert not {rel for rel in replaced if rel.startswith((f"{slugs[0]}/", f"{slugs[2]}/"))}

    # the revert gives the first build back
    changed.write_text(original, "utf-8")
    build_gallery(out, root=root)
    assert tree(out) == first

    # a deleted page, a page damaged to the same size and a truncated asset are written again
    (out / slugs[0] / "colors.html").unlink()
    page = out / slugs[2] / "layout.html"
    data = page.read_bytes()
    page.write_bytes(data[:-2] + b"!!")
    (out / slugs[1] / "assets" / "theme.css").write_bytes(b"")
    build_gallery(out, root=root)
    assert tree(out) == first

    # a changed option renders every brand again, as a clean build with it does
    build_gallery(out, root=root, fonts="google")
    assert tree(out) == clean_gallery(root, tmp_path / "clean", fonts="google")
    build_gallery(out, root=root)
    assert tree(out) == first


def test_gallery_in_a_new_process_matches_a_clean_build(tmp_path: Path) -> None:
    """Without this process's stamps the sizes in the manifest still catch a damaged file."""

    root, slugs = brand_root(tmp_path)
    out = tmp_path / "out"
    build_gallery(out, root=root)
    first = tree(out)
    active().output.stamps.clear()  # as a new `pinup gallery` process starts
    (out / slugs[0] / "index.html").write_bytes(b"damaged")
    (out / slugs[1] / "lint.html").unlink()
    result = build_gallery(out, root=root)
    assert tree(out) == first
    assert result.written == 2


def test_gallery_reads_a_design_again_only_when_its_stat_changed_or_is_recent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The brands' fingerprints come from their stat while it is settled; an edit is always read."""
    from pinup import gallery
    from pinup.buildcache import BuildCache

    served = BuildCache()  # one for every rebuild, as a process that rebuilds holds

    root, slugs = brand_root(tmp_path)
    out = tmp_path / "out"
    reads: list[str] = []
    real_open = open

    def counting_open(path: object, *args: object, **kwargs: object) -> object:
        reads.append(str(path))
        return real_open(path, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(gallery, "open", counting_open, raising=False)
    build_gallery(out, root=root, cache=served)
    assert len(reads) == BRANDS
    # every file was changed (its ctime) a moment ago: read again, an edit may share its stat
    reads.clear()
    build_gallery(out, root=root, cache=served)
    assert len(reads) == BRANDS
    monkeypatch.setattr(gallery, "_RACY_NS", -1)  # as if the clock had moved on since
    build_gallery(out, root=root, cache=served)
    reads.clear()
    build_gallery(out, root=root, cache=served)
    assert reads == []
    # the same size with the mtime put back: the ctime still tells
    design = root / slugs[1] / "DESIGN.md"
    before = design.stat()
    edit_token(design)
    os.utime(design, ns=(before.st_atime_ns, before.st_mtime_ns))
    build_gallery(out, root=root, cache=served)
    assert reads == [str(design)]
    assert tree(out) == clean_gallery(root, tmp_path / "clean")


def site_workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    shutil.copy(ROOT / "site_src" / "DESIGN.md", ws / "DESIGN.md")
    return ws


def clean_site(ws: Path, out: Path, **options: object) -> dict[str, bytes]:
    shutil.rmtree(out, ignore_errors=True)
    build_all(BuildOptions(src=ws, out=out, **options))  # type: ignore[arg-type]
    return tree(out)


def test_site_rebuild_keeps_the_pages_a_token_edit_does_not_touch(tmp_path: Path) -> None:
    ws = site_workspace(tmp_path)
    out = tmp_path / "out"
    build_all(BuildOptions(src=ws, out=out))
    first = tree(out)
    before = stamps(out)
    original = edit_token(ws / "DESIGN.md", nth=-1)  # the last colour: named in no prose
    build_all(BuildOptions(src=ws, out=out))
    assert tree(out) == clean_site(ws, tmp_path / "clean")
    now = stamps(out)
    replaced = {rel for rel in now if before.get(rel) != now[rel]}
    assert {"colors.html", "downloads/tokens.json"} <= replaced, replaced
    kept = {rel for rel in now if rel.endswith(".html")} - replaced
    assert {"layout.html", "shapes.html"} <= kept  # kept without being rendered again
    (ws / "DESIGN.md").write_text(original, "utf-8")
    build_all(BuildOptions(src=ws, out=out))
    assert tree(out) == first


def test_site_rebuild_after_a_user_template_change(tmp_path: Path) -> None:
    ws = site_workspace(tmp_path)
    out = tmp_path / "out"
    templates = tmp_path / "templates"
    templates.mkdir()
    footer = templates / "_footer.html"
    footer.write_text('<footer class="mine">first</footer>\n', "utf-8")
    build_all(BuildOptions(src=ws, out=out, templates=templates))
    assert b"first" in (out / "layout.html").read_bytes()
    footer.write_text('<footer class="mine">second, longer</footer>\n', "utf-8")
    os.utime(footer, ns=(footer.stat().st_atime_ns, footer.stat().st_mtime_ns + 1_000_000_000))
    with using(BuildCache()):  # new `pinup build`s: the code and templates' fingerprint is worked out afresh
        build_all(BuildOptions(src=ws, out=out, templates=templates))
        assert b"second, longer" in (out / "layout.html").read_bytes()
        assert tree(out) == clean_site(ws, tmp_path / "clean", templates=templates)
    build_all(BuildOptions(src=ws, out=out))  # back to pinup's own templates
    assert tree(out) == clean_site(ws, tmp_path / "clean")


def test_packaged_templates_read_only_the_site_fields_in_page_keys() -> None:
    """A page is kept when its key matches, so the key must cover every `site.` field a template reads:
    pinup's templates get only the chrome as `site`, and a page's key holds all of it."""
    from pinup.docsite.pagekeys import Chrome
    from pinup.docsite.render import TEMPLATE_DIR
    from pinup.templating import PACKAGE_TEMPLATES

    read: set[str] = set()
    for folder in (TEMPLATE_DIR, PACKAGE_TEMPLATES / "shared"):
        for path in folder.rglob("*.html"):
            read |= set(re.findall(r"\bsite\.(\w+)", path.read_text("utf-8")))
    # `site.css`/`site.js` are asset names inside links.asset('site.css'), not fields
    assert read - {"css", "js"} <= set(Chrome.__annotations__)


def test_packaged_banner_reads_only_the_problem_fields_in_page_keys() -> None:
    """Of the lint problems a page's key covers the banner's fields: they must be all it reads, and
    they must say what the site's problems say."""
    from pinup.docsite.pagekeys import Banner
    from pinup.docsite.problems import Problems
    from pinup.docsite.render import TEMPLATE_DIR

    banner = (TEMPLATE_DIR / "_lint_banner.html").read_text("utf-8")
    assert "{% set pb = site.problems %}" in banner
    read = set(re.findall(r"\bpb\.(\w+)", banner))
    assert read == {"alert", *Banner.__annotations__}  # `alert` is made of the others:
    for field in Banner.__annotations__:
        assert Banner(**{field: getattr(Problems(), field) or 1}).alert is (field != "yaml_line")
        assert Problems(**{field: getattr(Problems(), field) or 1}).alert is (field != "yaml_line")


def test_a_new_warning_nothing_else_shows_keeps_the_other_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new colour no component uses: a lint warning, which only the overview and the lint page show.

    The pages that show the colour or the warning are rendered; the others are kept, not rendered.
    """
    from pinup.docsite import render

    root, slugs = brand_root(tmp_path)
    design = root / slugs[0] / "DESIGN.md"
    text = design.read_text("utf-8").replace("\ntypography:\n", "\n\ntypography:\n", 1)
    design.write_text(text, "utf-8")
    out = tmp_path / "out"
    build_gallery(out, root=root)
    rendered: list[str] = []

    def counted(site: Any, page: Any, *args: Any, **kwargs: Any) -> str:
        rendered.append(page.filename)
        return real(site, page, *args, **kwargs)

    real = render.render_page
    monkeypatch.setattr(render, "render_page", counted)
    # the colour takes the place of a blank line, so no token's line number (which pages show) moves
    design.write_text(text.replace("\n\ntypography:\n", '\n  orphan-test: "#123456"\ntypography:\n'), "utf-8")
    build_gallery(out, root=root)
    assert {"index.html", "colors.html", "lint.html"} <= set(rendered)
    assert not {"typography.html", "layout.html", "shapes.html", "components.html"} & set(rendered)
    assert b"orphan-test" in (out / slugs[0] / "lint.html").read_bytes()
    monkeypatch.undo()
    assert tree(out) == clean_gallery(root, tmp_path / "clean")
