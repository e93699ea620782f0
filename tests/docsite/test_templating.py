"""One --templates rule (`pinup.templating`): DIR/<area>/NAME first; the site also reads DIR/NAME."""

from __future__ import annotations

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
