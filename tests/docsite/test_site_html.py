"""The built HTML, checked by parsing: structure, relative links that resolve, no network, escaping."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from bs4 import BeautifulSoup
from site_helpers import MINIMAL, build, write_workspace

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def example_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("example") / "site"
    build(ROOT / "site_src", out)
    return out


def _pages(site: Path) -> list[Path]:
    return sorted(p for p in site.glob("*.html"))


def _soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text("utf-8"), "html.parser")


def test_every_page_has_the_accessible_skeleton(example_site: Path) -> None:
    pages = _pages(example_site)
    assert {p.name for p in pages} >= {
        "index.html",
        "colors.html",
        "typography.html",
        "layout.html",
        "shapes.html",
        "elevation.html",
        "components.html",
        "guidelines.html",
        "downloads.html",
        "lint.html",
    }
    for page in pages:
        soup = _soup(page)
        assert soup.html.get("lang") == "en", page.name
        assert soup.title and soup.title.string.strip(), page.name
        skip = soup.find("a", class_="pinup-skip")
        assert skip and skip["href"] == "#main", page.name
        assert soup.find("main", id="main"), page.name
        assert len(soup.find_all("h1")) == 1, page.name
        current = soup.select("nav a[aria-current=page]")
        assert len(current) == 1 and current[0]["href"] == page.name, page.name
        assert soup.find("button", attrs={"data-theme-toggle": True}), page.name
        for control in soup.select("input:not([type=hidden])"):
            labelled = (
                control.get("aria-label")
                or soup.find("label", attrs={"for": control.get("id")})
                or control.find_parent("label")
            )
            assert labelled, f"{page.name}: unlabelled input {control}"


def test_links_are_relative_and_resolve(example_site: Path) -> None:
    checked = 0
    for page in _pages(example_site):
        soup = _soup(page)
        for tag, attr in (("a", "href"), ("link", "href"), ("script", "src"), ("img", "src")):
            for el in soup.find_all(tag):
                url = el.get(attr)
                if url is None:
                    continue
                parts = urlsplit(url)
                assert not parts.scheme and not parts.netloc and not url.startswith("/"), f"{page.name}: {url}"
                target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
                assert target.is_file(), f"{page.name}: broken link {url}"
                if parts.fragment and target.suffix == ".html":
                    assert _soup(target).find(id=parts.fragment), f"{page.name}: missing anchor {url}"
                checked += 1
    assert checked > 100


def test_every_page_has_a_tab_icon(example_site: Path) -> None:
    """The site's pages show the brand's icon; boards show pinup's pin. No browser asks for /favicon.ico."""
    import xml.etree.ElementTree as ET

    for page in _pages(example_site):
        [icon] = _soup(page).find_all("link", rel="icon")
        assert icon["href"] == "assets/favicon.svg" and icon["type"] == "image/svg+xml", page.name
    svg = ET.fromstring((example_site / "assets" / "favicon.svg").read_text("utf-8"))
    ns = "{http://www.w3.org/2000/svg}"
    assert svg.tag == f"{ns}svg"
    assert svg.find(f"{ns}rect").get("fill") == "#3d5a2a"  # the example's primary colour
    assert svg.find(f"{ns}text").text == "M"  # Mossbook
    boards = sorted((example_site / "boards").rglob("index.html"))
    assert boards
    for page in boards:
        [icon] = _soup(page).find_all("link", rel="icon")
        assert unquote(icon["href"]).startswith("data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'"), page


def test_no_network_anywhere(example_site: Path) -> None:
    for path in example_site.rglob("*"):
        if path.suffix in (".css", ".js") and path.name != "search-index.js":
            text = path.read_text("utf-8")
            assert "http://" not in text and "https://" not in text and "@import" not in text, path
        if path.suffix == ".html":
            soup = _soup(path)
            for el in soup.find_all(["link", "script", "img", "iframe", "source", "video", "audio"]):
                for attr in ("href", "src", "srcset"):
                    assert "//" not in (el.get(attr) or ""), f"{path.name}: remote {el}"
            for el in soup.find_all(style=True):
                assert "url(" not in el["style"], f"{path.name}: {el['style']}"


def test_color_swatch_markup(example_site: Path) -> None:
    soup = _soup(example_site / "colors.html")
    swatch = soup.find(id="colors-primary")
    buttons = {
        b.get_text(" ", strip=True).split(":")[0].strip(): b["data-copy"] for b in swatch.select("button.pinup-copy")
    }
    assert buttons == {"Value": "#3d5a2a", "CSS var": "var(--color-primary)", "Reference": "{colors.primary}"}
    assert soup.select("table.pinup-matrix") and soup.select(".pinup-badge-aaa")
    assert {f["id"] for f in soup.select("svg filter")} == {
        "pinup-cvd-protanopia",
        "pinup-cvd-deuteranopia",
        "pinup-cvd-tritanopia",
    }
    assert soup.find(id="mode-dark"), "dark tokens get their own section"


def test_components_render_real_elements(example_site: Path) -> None:
    soup = _soup(example_site / "components.html")
    button = soup.select_one("#component-button-primary button.pinup-live")
    assert button and "background-color:#3d5a2a" in button["style"]
    assert soup.select_one("#component-input input.pinup-live")
    assert soup.select_one("#component-button-primary-hover")


def _script_design(tmp_path: Path) -> Path:
    evil = MINIMAL.replace(
        "Tiny is small.", 'Tiny is small. <script>window.__pwned = 1</script><img src=x onerror="window.__pwned=2">'
    )
    return write_workspace(tmp_path / "ws", evil)


def test_raw_html_is_escaped_by_default_and_allowed_on_request(tmp_path: Path) -> None:
    src = _script_design(tmp_path)
    build(src, tmp_path / "safe")
    safe = (tmp_path / "safe" / "index.html").read_text()
    assert "&lt;script&gt;window.__pwned" in safe and "<script>window.__pwned" not in safe
    assert "onerror=" not in safe.replace("onerror=&quot;", "") or "<img" not in safe.split("pinup-prose")[1]
    build(src, tmp_path / "open", allow_html=True)
    assert "<script>window.__pwned = 1</script>" in (tmp_path / "open" / "index.html").read_text()
