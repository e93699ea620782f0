"""Building boards: pages, copied variants, manifests and the index, parsed as HTML."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from boards_helpers import EXAMPLE
from bs4 import BeautifulSoup

from pinup.boards.build import build_boards
from pinup.boards.spec import BoardError
from pinup.build import BuildOptions
from pinup.designmd.lint import lint_path
from pinup.output import OutputWriter


def build(src: Path, out: Path, **kw: Any) -> list[Path]:
    design = lint_path(src / "DESIGN.md").design
    with OutputWriter(out) as writer:
        return build_boards(src, out, design, BuildOptions(**kw), writer)


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text("utf-8"), "html.parser")


def config(page: BeautifulSoup) -> dict:
    return json.loads(page.select_one("script#board-config").string)


@pytest.fixture()
def built(tmp_path: Path) -> Path:
    out = tmp_path / "site"
    build(EXAMPLE, out)
    return out


def test_build_id_names_what_the_page_shows(built: Path, tmp_path: Path) -> None:
    """The same sources give the same id; new variant contents in the same round give a new one."""

    def build_of(site: Path) -> str:
        return json.loads((site / "boards/trail-home/board.json").read_text())["build"]

    again = tmp_path / "again"
    build(EXAMPLE, again)
    assert build_of(again) == build_of(built)
    assert "pinup-build-id-pending" not in (again / "boards/trail-home/index.html").read_text()
    src = tmp_path / "src"
    shutil.copytree(EXAMPLE, src)
    variant = src / "boards/trail-home/variants/b-map-first.html"
    variant.write_text(variant.read_text().replace("</body>", "<p>new</p></body>"))
    changed = tmp_path / "changed"
    build(src, changed)
    assert build_of(changed) != build_of(built)
    other = json.loads((changed / "boards/sighting-badge/board.json").read_text())["build"]
    assert other == json.loads((built / "boards/sighting-badge/board.json").read_text())["build"]


def test_an_image_variant_is_read_once_and_copied_as_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The build id and the copy come from one read of each image; a new image gives a new id."""
    images = sorted((EXAMPLE / "boards/sighting-badge/variants").glob("*.*"))
    assert {p.suffix for p in images} >= {".png", ".svg"}
    reads: list[str] = []
    read_bytes = Path.read_bytes

    def counting(path: Path) -> bytes:
        if path.parent.name == "variants":
            reads.append(path.name)
        return read_bytes(path)

    monkeypatch.setattr(Path, "read_bytes", counting)
    build(EXAMPLE, tmp_path / "site")
    monkeypatch.undo()
    assert sorted(reads) == sorted(p.name for p in images)
    for image in images:
        assert (tmp_path / "site/boards/sighting-badge/variants" / image.name).read_bytes() == image.read_bytes()
    src = tmp_path / "src"
    shutil.copytree(EXAMPLE, src)
    png = src / "boards/sighting-badge/variants/c-lichen-tag.png"
    png.write_bytes(png.read_bytes() + b"\0")
    build(src, tmp_path / "changed")
    ids = [
        json.loads((site / "boards/sighting-badge/board.json").read_text())["build"]
        for site in (tmp_path / "site", tmp_path / "changed")
    ]
    assert ids[0] != ids[1]


def test_outputs_and_manifests(built: Path) -> None:
    for slug in ("trail-home", "sighting-badge"):
        assert (built / "boards" / slug / "index.html").is_file()
        manifest = json.loads((built / "boards" / slug / "board.json").read_text())
        assert manifest["board"] == slug and manifest["round"] == 1
        assert manifest["variants"] == ["A", "B", "C"]
        assert set(manifest) == {"board", "title", "round", "variants", "tweakables", "build"}
        page = soup(built / "boards" / slug / "index.html")
        assert re.fullmatch(r"[0-9a-f]{16}", manifest["build"]) and config(page)["build"] == manifest["build"]
        tokens = [t["token"] for t in manifest["tweakables"]]
        assert tokens[:3] == ["colors.primary", "colors.surface", "colors.on-surface"] and len(tokens) <= 8
    for rel in ("variants/a-capture-first.html", "variants/b-map-first.html", "variants/c-journal-page.html"):
        # the copy is the source plus the pin/tweak agent script, just before </body>
        copied = (built / "boards/trail-home" / rel).read_text()
        source = (EXAMPLE / "boards/trail-home" / rel).read_text()
        agent = copied[
            copied.index('<script data-pinup-agent="1">') : copied.index("</script>", copied.index("data-pinup-agent"))
            + 9
        ]
        assert copied.replace(agent + "\n", "") == source
        assert copied.index("data-pinup-agent") < copied.lower().rindex("</body>")
    assert (built / "boards/sighting-badge/variants/c-lichen-tag.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    index = soup(built / "boards" / "index.html")
    links = [a["href"] for a in index.select(".board-list h2 a")]
    assert links == ["sighting-badge/index.html", "trail-home/index.html"]


def test_stable_hooks_and_labels(built: Path) -> None:
    page = soup(built / "boards/trail-home/index.html")
    for vid in "ABC":
        radio = page.select_one(f"input[name=preferred][value={vid}]")
        assert radio is not None and radio["type"] == "radio"
        stars = page.select(f".stars[data-variant={vid}] .star")
        assert [s["data-value"] for s in stars] == ["1", "2", "3", "4", "5"]
        assert all(s.name == "button" and s["type"] == "button" for s in stars)
        assert stars[3]["aria-label"] == f"Rate {vid} 4 of 5"
        assert page.select_one(f".feedback-input[data-variant={vid}]").name == "textarea"
        more = page.select_one(f".more-like-this[data-variant={vid}]")
        assert more["data-action"] == f"more_like_{vid}" and "regen-chiclet" in more["class"]
        frame = page.select_one(f"#variant-{vid} iframe")
        assert frame["sandbox"] == ["allow-scripts"]  # scripts yes, same origin no
        assert frame["src"].startswith("variants/")
    for sel in (
        "#overall-feedback",
        "#submit-btn",
        "#regen-btn",
        ".regen-chiclet[data-action=different]",
        "#success-msg",
        "#status",
        "#feedback-result",
        ".regen-chiclet[data-action=remix]",
        "#regen-custom",
    ):
        assert page.select_one(sel) is not None, sel
    assert page.select_one("#status").has_attr("hidden") and page.select_one("#status").text == ""
    # every form control has a visible label
    for control in page.select("textarea, input, select"):
        if control.get("name") == "website":
            continue  # honeypot, hidden from people on purpose
        if control.get("type") == "radio":
            assert control.find_parent("label") is not None
            continue
        label = page.select_one(f"label[for={control['id']}]")
        assert label is not None and label.text.strip(), control
    for button in page.select("button"):
        assert button.text.strip(), button  # visible text (stars show ★)


def test_self_contained_no_network(built: Path) -> None:
    for slug in ("trail-home", "sighting-badge"):
        html = (built / "boards" / slug / "index.html").read_text()
        page = BeautifulSoup(html, "html.parser")
        assert not page.select("link[rel=stylesheet]"), "CSS must be inline"
        assert all(not s.get("src") for s in page.select("script")), "JS must be inline"
        for tag in page.select("[src], [href]"):
            url = tag.get("src") or tag.get("href")
            assert not re.match(r"^(https?:)?//", url), url
        assert "fonts.googleapis" not in html and "cdn" not in html.lower()
        assert "--pinup-primary" in html  # themed by the DESIGN.md


def test_image_board_uses_img(built: Path) -> None:
    page = soup(built / "boards/sighting-badge/index.html")
    imgs = page.select(".variant img")
    assert [i["src"] for i in imgs] == [
        "variants/a-leaf-seal.svg",
        "variants/b-field-stamp.svg",
        "variants/c-lichen-tag.png",
    ]
    assert all(i["alt"].startswith("Variant ") for i in imgs)
    assert not page.select(".variant iframe")


def test_inline_mode(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(EXAMPLE, out, inline=True)
    assert not (out / "boards/trail-home/variants").exists()
    page = soup(out / "boards/trail-home/index.html")
    frame = page.select_one("#variant-A iframe")
    assert frame["sandbox"] == ["allow-scripts"] and not frame.get("src")
    assert "Log a sighting" in frame["srcdoc"]
    img = soup(out / "boards/sighting-badge/index.html").select_one("#variant-C img")
    assert img["src"].startswith("data:image/png;base64,")
    png = (EXAMPLE / "boards/sighting-badge/variants/c-lichen-tag.png").read_bytes()
    assert base64.b64decode(img["src"].split(",", 1)[1]) == png


def test_api_url_and_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PINUP_BOARD_SECRET", raising=False)
    build(EXAMPLE, tmp_path / "a", api_url="https://api.example.test")
    cfg = config(soup(tmp_path / "a/boards/trail-home/index.html"))
    assert cfg["apiUrl"] == "https://api.example.test" and cfg["token"] is None

    monkeypatch.setenv("PINUP_BOARD_SECRET", "s3cret")
    build(EXAMPLE, tmp_path / "b", api_url="https://api.example.test")
    cfg = config(soup(tmp_path / "b/boards/trail-home/index.html"))
    assert cfg["token"] == hmac.new(b"s3cret", b"trail-home", hashlib.sha256).hexdigest()
    other = config(soup(tmp_path / "b/boards/sighting-badge/index.html"))
    assert other["token"] != cfg["token"]

    build(EXAMPLE, tmp_path / "c")  # no api url: no token even with the secret set
    cfg = config(soup(tmp_path / "c/boards/trail-home/index.html"))
    assert cfg["apiUrl"] is None and cfg["token"] is None


def test_user_text_is_escaped(tmp_path: Path) -> None:
    src = tmp_path / "ws"
    shutil.copytree(EXAMPLE, src, ignore=shutil.ignore_patterns(".pinup"))
    yaml_path = src / "boards/trail-home/board.yaml"
    text = yaml_path.read_text()
    text = text.replace("title: Mossbook home screen", 'title: "</script><script>alert(1)</script>"')
    text = text.replace("label: Capture first", 'label: "<img src=x onerror=alert(2)>"')
    yaml_path.write_text(text)
    build(src, tmp_path / "site")
    html = (tmp_path / "site/boards/trail-home/index.html").read_text()
    assert "<script>alert(1)" not in html and "<img src=x" not in html
    assert "&lt;img src=x onerror=alert(2)&gt;" in html
    page = BeautifulSoup(html, "html.parser")
    assert config(page)["title"] == "</script><script>alert(1)</script>"
    assert len(page.select("script")) == 3  # theme preference, config, board script; nothing injected


def test_bad_board_stops_the_build(tmp_path: Path) -> None:
    src = tmp_path / "ws"
    shutil.copytree(EXAMPLE, src, ignore=shutil.ignore_patterns(".pinup"))
    (src / "boards/trail-home/board.yaml").write_text("title: x\nvariants:\n  - id: A\n    file: ../../DESIGN.md\n")
    with pytest.raises(BoardError) as info:
        build(src, tmp_path / "site")
    assert "board.yaml" in str(info.value)


def test_no_boards_folder(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    shutil.copy(EXAMPLE / "DESIGN.md", tmp_path / "ws" / "DESIGN.md")
    assert build(tmp_path / "ws", tmp_path / "site") == []
    assert not (tmp_path / "site" / "boards").exists()


def test_full_build_cli_includes_boards(tmp_path: Path) -> None:
    import subprocess
    import sys

    out = tmp_path / "site"
    proc = subprocess.run(
        [sys.executable, "-m", "pinup", "build", str(EXAMPLE), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert (out / "boards/trail-home/index.html").is_file()
    assert (out / "boards/index.html").is_file()


def test_bad_board_via_pinup_build_is_one_clear_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    src = tmp_path / "ws"
    shutil.copytree(EXAMPLE, src, ignore=shutil.ignore_patterns(".pinup"))
    (src / "boards/trail-home/board.yaml").write_text("title: x\nvariants:\n  - id: A\n    file: a.gif\n")
    proc = subprocess.run(
        [sys.executable, "-m", "pinup", "build", str(src), "--out", str(tmp_path / "site")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert "board.yaml:4: variants.0.file: file type .gif is not supported" in proc.stderr


def test_pages_rendered_with_the_build_s_theme_match_pages_rendered_alone(built: Path) -> None:
    """`build_boards` works out the design's theme once for all its pages; each page is the same as alone."""
    from pinup.boards.build import load_all, render_board, render_index

    design = lint_path(EXAMPLE / "DESIGN.md").design
    boards = load_all(EXAMPLE)
    for board in boards:
        alone, _, _ = render_board(board, design, BuildOptions())
        assert alone == (built / "boards" / board.slug / "index.html").read_text("utf-8")
    assert render_index(boards, design, BuildOptions()) == (built / "boards" / "index.html").read_text("utf-8")


def test_a_packaged_asset_is_read_once_and_again_after_an_edit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from pinup.boards import build as board_build

    asset = tmp_path / "board.css"
    asset.write_text("a { color: red }", "utf-8")
    monkeypatch.setattr(board_build, "STATIC", tmp_path)
    reads: list[str] = []
    real = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: reads.append(self.name) or real(self))
    assert board_build._static("board.css") == board_build._static("board.css") == "a { color: red }"
    assert reads == ["board.css"]
    asset.write_text("a { color: blue }", "utf-8")
    stat = asset.stat()
    os.utime(asset, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))  # a later edit, whatever the clock
    assert board_build._static("board.css") == "a { color: blue }"
    assert reads == ["board.css", "board.css"]
