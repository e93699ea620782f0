"""The output writer (incremental, safe paths) and the build orchestrator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from site_helpers import MINIMAL, build, write_workspace

from pinup.output import MANIFEST, OutputPathError, OutputWriter

ROOT = Path(__file__).resolve().parents[2]


def test_writer_skips_unchanged_and_removes_stale(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with OutputWriter(out) as w:
        assert w.write_text("a.html", "one") and w.write_text("sub/b.txt", "two")
    assert json.loads((out / MANIFEST).read_text())["files"].keys() == {"a.html", "sub/b.txt"}
    with OutputWriter(out) as w:
        assert not w.write_text("a.html", "one")
        assert w.write_text("c.html", "new")
    assert (w.written, w.skipped, w.removed) == (1, 1, 1)
    assert not (out / "sub").exists() and (out / "c.html").read_text() == "new"
    (out / "c.html").unlink()  # a deleted output is rewritten even though its hash is known
    with OutputWriter(out) as w:
        w.write_text("a.html", "one")
        assert w.write_text("c.html", "new")


def test_a_manifest_changed_on_disk_is_read_again_in_the_same_process(tmp_path: Path) -> None:
    """A writer reuses the manifest this process saved only while the file is the one it saved."""
    out = tmp_path / "out"
    with OutputWriter(out) as w:
        w.write_text("a.html", "one")
        w.write_text("b.html", "two")
    with OutputWriter(out) as w:  # the saved manifest, not parsed again: both files kept
        assert not w.write_text("a.html", "one") and not w.write_text("b.html", "two")
    (out / MANIFEST).unlink()  # another tool removed it: nothing is known to be there
    with OutputWriter(out) as w:
        assert w.write_text("a.html", "one") and w.write_text("b.html", "two")
    data = json.loads((out / MANIFEST).read_text())
    data["files"].pop("b.html")  # another process's build, which did not write b.html
    (out / MANIFEST).write_text(json.dumps(data))
    with OutputWriter(out) as w:
        w.write_text("a.html", "one")
    assert (out / "b.html").exists()  # not removed: that manifest does not list it
    assert (w.written, w.skipped, w.removed) == (0, 1, 0)


@pytest.mark.parametrize("bad", ["../x", "/etc/passwd", "a/../../x", "", "a\\b", MANIFEST])
def test_writer_refuses_paths_outside_out_dir(tmp_path: Path, bad: str) -> None:
    with pytest.raises(OutputPathError):
        OutputWriter(tmp_path / "out").write_text(bad, "x")


@pytest.mark.parametrize("rel", ["a//b.html", "./a/b.html", "a/./b.html"])
def test_writer_names_paths_as_posix_paths_do(tmp_path: Path, rel: str) -> None:
    with OutputWriter(tmp_path / "out") as w:
        assert w.write_text(rel, "x")
    assert json.loads((tmp_path / "out" / MANIFEST).read_text())["files"].keys() == {"a/b.html"}


def test_new_files_are_created_and_changed_ones_written_over_in_place(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with OutputWriter(out) as w:
        w.write_text("a.html", "one, long to begin with")
    first = (out / "a.html").stat().st_ino
    with OutputWriter(out) as w:
        w.write_text("a.html", "two")  # shorter: the old tail is cut off
    assert (out / "a.html").read_text() == "two"
    assert (out / "a.html").stat().st_ino == first  # no new file, no rename
    with OutputWriter(out) as w:
        w.write_text("a.html", "three, longer than two")
    assert (out / "a.html").read_text() == "three, longer than two"
    assert not list(out.rglob("*.tmp"))
    (out / "elsewhere").mkdir()
    (out / "b.html").symlink_to(out / "elsewhere" / "b.html")  # a link inside the output folder
    with OutputWriter(out) as w:
        w.write_text("b.html", "through the link")
    assert (out / "elsewhere" / "b.html").read_text() == "through the link"


def test_clean_refuses_a_folder_that_is_not_a_build(tmp_path: Path) -> None:
    (tmp_path / "precious.txt").write_text("keep")
    with pytest.raises(OutputPathError):
        OutputWriter(tmp_path, clean=True)
    assert (tmp_path / "precious.txt").exists()


def test_build_is_incremental_and_clean_rebuilds(tmp_path: Path) -> None:
    src = write_workspace(tmp_path / "ws", MINIMAL)
    first = build(src, tmp_path / "site")
    assert first.written > 10 and first.skipped == 0
    assert {"index.html", "colors.html", "lint.html", "downloads.html"} <= set(first.pages)
    for rel in (
        "assets/theme.css",
        "assets/site.css",
        "assets/site.js",
        "assets/search-index.js",
        "downloads/DESIGN.md",
        "downloads/tokens.json",
    ):
        assert (tmp_path / "site" / rel).is_file(), rel
    second = build(src, tmp_path / "site")
    assert second.written == 0 and second.skipped == first.written
    (src / "DESIGN.md").write_text(MINIMAL.replace("#1a73e8", "#0b57d0"), "utf-8")
    third = build(src, tmp_path / "site")
    assert 0 < third.written < first.written
    clean = build(src, tmp_path / "site", clean=True)
    assert clean.skipped == 0


def test_malformed_design_md_still_builds_and_strict_fails(tmp_path: Path) -> None:
    from pinup.cli import cli

    src = write_workspace(tmp_path / "ws", MINIMAL.replace("{colors.primary}", "{colors.missing}"))
    runner = CliRunner()
    ok = runner.invoke(cli, ["build", str(src), "--out", str(tmp_path / "a")])
    assert ok.exit_code == 0, ok.output
    html = (tmp_path / "a" / "index.html").read_text()
    assert "lint error" in html and 'href="lint.html"' in html
    strict = runner.invoke(cli, ["build", str(src), "--out", str(tmp_path / "b"), "--strict"])
    assert strict.exit_code == 1
    assert (tmp_path / "b" / "lint.html").is_file()
    clean_src = write_workspace(tmp_path / "ok", MINIMAL)
    assert runner.invoke(cli, ["build", str(clean_src), "--out", str(tmp_path / "c"), "--strict"]).exit_code == 0


def test_unparseable_design_md_builds_with_findings(tmp_path: Path) -> None:
    src = write_workspace(tmp_path / "ws", "---\ncolors: [unclosed\n---\n\n## Colors\n\ntext\n")
    result = build(src, tmp_path / "site")
    assert result.report.findings, "the YAML problem must be reported"
    from html import escape

    lint_html = (tmp_path / "site" / "lint.html").read_text()
    assert escape(result.report.findings[0].message.splitlines()[0]) in lint_html
    assert (tmp_path / "site" / "colors.html").is_file()


def test_missing_workspace_is_a_clear_error(tmp_path: Path) -> None:
    from pinup.cli import cli

    res = CliRunner().invoke(cli, ["build", str(tmp_path / "nope"), "--out", str(tmp_path / "o")])
    assert res.exit_code == 1 and "workspace not found" in res.output and "Traceback" not in res.output


def test_templates_override_by_name(tmp_path: Path) -> None:
    tpl = tmp_path / "tpl"
    (tpl / "assets").mkdir(parents=True)
    (tpl / "_footer.html").write_text('<footer class="custom-footer">Custom {{ site.name }}</footer>')
    (tpl / "assets" / "site.css").write_text("body{outline:1px solid red}")
    src = write_workspace(tmp_path / "ws", MINIMAL)
    build(src, tmp_path / "site", templates=tpl)
    assert 'class="custom-footer">Custom Tiny<' in (tmp_path / "site" / "colors.html").read_text()
    assert (tmp_path / "site" / "assets" / "site.css").read_text() == "body{outline:1px solid red}"


def test_design_md_file_as_src_and_gallery(tmp_path: Path) -> None:
    from pinup.gallery import build_gallery, list_brands

    src = write_workspace(tmp_path / "ws", MINIMAL)
    assert build(src / "DESIGN.md", tmp_path / "site").pages[0] == "index.html"
    brands = list_brands()
    assert brands, "brand_refs/ should hold brands"
    result = build_gallery(tmp_path / "gallery")
    index = (tmp_path / "gallery" / "index.html").read_text()
    for brand in brands:
        assert f'href="{brand.slug}/index.html"' in index
        assert (tmp_path / "gallery" / brand.slug / "colors.html").is_file()
    again = build_gallery(tmp_path / "gallery")
    assert again.written == 0 and again.skipped == result.written


def test_gallery_in_worker_processes_matches_serial(tmp_path: Path) -> None:
    from pinup.gallery import build_gallery

    build_gallery(tmp_path / "serial")
    build_gallery(tmp_path / "parallel", jobs=2)
    serial = {
        p.relative_to(tmp_path / "serial"): p.read_bytes()
        for p in (tmp_path / "serial").rglob("*")
        if p.is_file() and p.name != MANIFEST
    }
    parallel = {
        p.relative_to(tmp_path / "parallel"): p.read_bytes()
        for p in (tmp_path / "parallel").rglob("*")
        if p.is_file() and p.name != MANIFEST
    }
    assert serial.keys() == parallel.keys() and serial == parallel


def test_one_changed_brand_rebuilds_only_that_brand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from pinup.brands import brand_refs_dir
    from pinup.gallery import build_gallery

    brands = tmp_path / "brand_refs"
    shutil.copytree(brand_refs_dir(), brands)
    monkeypatch.setenv("PINUP_BRAND_REFS", str(brands))
    first = build_gallery(tmp_path / "g")
    slug = first.brands[0].slug
    design = brands / slug / "DESIGN.md"
    design.write_text(design.read_text("utf-8").replace("## Overview", "## Overview\n\nA changed sentence.", 1))
    second = build_gallery(tmp_path / "g")
    assert 0 < second.written <= 3
    assert "A changed sentence." in (tmp_path / "g" / slug / "index.html").read_text()


def test_broken_custom_template_is_a_clear_error(tmp_path: Path) -> None:
    from pinup.cli import cli

    tpl = tmp_path / "tpl"
    tpl.mkdir()
    (tpl / "_footer.html").write_text("<footer>{{ nope.x }}</footer>")
    src = write_workspace(tmp_path / "ws", MINIMAL)
    res = CliRunner().invoke(cli, ["build", str(src), "--out", str(tmp_path / "o"), "--templates", str(tpl)])
    assert res.exit_code == 1 and "template error" in res.output and "'nope' is undefined" in res.output
