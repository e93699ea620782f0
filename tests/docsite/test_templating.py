"""One --templates rule (`pinup.templating`): DIR/<area>/NAME first; the site also reads DIR/NAME."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from jinja2 import UndefinedError
from site_helpers import MINIMAL, build, write_workspace

from pinup.templating import asset_override, environment, override_dirs


def test_area_folder_wins_over_the_top_level_for_the_site(tmp_path: Path) -> None:
    tpl = tmp_path / "tpl"
    (tpl / "site" / "assets").mkdir(parents=True)
    (tpl / "_footer.html").write_text('<footer class="top">top</footer>')
    (tpl / "site" / "_footer.html").write_text('<footer class="area">{{ site.name }} from site/</footer>')
    (tpl / "site" / "assets" / "pinup.css").write_text("/* mine */")
    build(write_workspace(tmp_path / "ws", MINIMAL), tmp_path / "out", templates=tpl)
    html = (tmp_path / "out" / "index.html").read_text()
    assert '<footer class="area">Tiny from site/</footer>' in html and 'class="top"' not in html
    assert (tmp_path / "out" / "assets" / "pinup.css").read_text() == "/* mine */"


def test_other_areas_only_read_their_own_folder(tmp_path: Path) -> None:
    assert override_dirs("board", tmp_path) == [tmp_path / "board"]
    assert override_dirs("site", tmp_path) == [tmp_path / "site", tmp_path]
    assert override_dirs("site", None) == []
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "board.css").write_text("x")
    assert asset_override("board", "board.css", tmp_path) is None
    assert asset_override("site", "board.css", tmp_path) == b"x"


def test_environment_escapes_and_rejects_undefined_names(tmp_path: Path) -> None:
    (tmp_path / "page.html").write_text("{{ value }}")
    env = environment("results", str(tmp_path))
    page = env.get_template("page.html")
    assert page.render(value="<b>") == "&lt;b&gt;"
    with pytest.raises(UndefinedError):
        page.render()


EXAMPLE = Path(__file__).resolve().parents[2] / "site_src"
PACKAGED_BASE = Path(__file__).resolve().parents[2] / "generator" / "pinup" / "templates" / "shared" / "page.html"


def _built_with(tmp_path: Path, tpl: Path) -> Path:
    """The example workspace (site, boards, results from an empty store) built with `--templates tpl`."""
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns(".pinup", "__pycache__"))
    build(ws, tmp_path / "out", templates=tpl, store=str(tmp_path / "store"))
    return tmp_path / "out"


def test_site_board_and_results_pages_all_extend_the_shared_base(tmp_path: Path) -> None:
    tpl = tmp_path / "tpl"
    (tpl / "shared").mkdir(parents=True)
    base = PACKAGED_BASE.read_text("utf-8")
    marked = base.replace('<meta name="generator" content="pinup">', '<meta name="generator" content="mine">')
    assert marked != base
    (tpl / "shared" / "page.html").write_text(marked, "utf-8")
    out = _built_with(tmp_path, tpl)
    pages = ["index.html", "colors.html", "boards/index.html", "boards/trail-home/index.html"]
    pages.append("boards/trail-home/results.html")
    for rel in pages:
        html = (out / rel).read_text("utf-8")
        assert '<meta name="generator" content="mine">' in html, rel
        assert html.startswith("<!doctype html>\n") and html.endswith("</html>\n"), rel


def test_board_and_results_overrides_follow_the_area_rule(tmp_path: Path) -> None:
    tpl = tmp_path / "tpl"
    (tpl / "board").mkdir(parents=True)
    (tpl / "results").mkdir()
    (tpl / "index.html.j2").write_text("top level: only the site reads it")
    (tpl / "board" / "index.html.j2").write_text(
        '{% extends "shared/page.html" %}{% block body %}<p id="mine">{{ page.boards|length }} boards</p>{% endblock %}'
    )
    (tpl / "results" / "results.html.j2").write_text(
        '{% extends "shared/page.html" %}{% block theme_script %}{% endblock %}'
        '{% block body %}<p id="mine">{{ r.board }}: {{ r.submissions }}</p>{% endblock %}'
    )
    out = _built_with(tmp_path, tpl)
    boards = (out / "boards" / "index.html").read_text("utf-8")
    assert '<p id="mine">2 boards</p>' in boards and "top level" not in boards
    assert '<a class="pinup-skip" href="#main">Skip to content</a>' in boards  # the shared base's default
    results = (out / "boards" / "trail-home" / "results.html").read_text("utf-8")
    assert '<p id="mine">trail-home: 0</p>' in results and "<script" not in results
    board = (out / "boards" / "trail-home" / "index.html").read_text("utf-8")
    assert 'class="skip-link" href="#variants"' in board  # the packaged board page, untouched


def test_gallery_index_extends_the_shared_base(tmp_path: Path) -> None:
    from pinup.gallery import Brand, write_gallery
    from pinup.output import OutputWriter

    with OutputWriter(tmp_path / "g") as writer:
        write_gallery(writer, [Brand("tiny", "Tiny", "Test", write_workspace(tmp_path / "ws", MINIMAL) / "DESIGN.md")])
    html = (tmp_path / "g" / "index.html").read_text("utf-8")
    assert html.startswith("<!doctype html>\n") and html.endswith("</html>\n")
    assert '<a class="pinup-skip" href="#main">Skip to content</a>' in html
    assert '<link rel="stylesheet" href="assets/theme.css">' in html and '<a href="tiny/index.html">' in html
