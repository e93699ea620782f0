"""The site links its review boards, and a local boards index links each board's results page."""

from __future__ import annotations

import shutil
from pathlib import Path

from bs4 import BeautifulSoup

from pinup.build import BuildOptions, build_all

ROOT = Path(__file__).resolve().parents[2]


def _workspace(tmp_path: Path) -> Path:
    src = tmp_path / "ws"
    shutil.copytree(ROOT / "site_src", src, ignore=shutil.ignore_patterns(".pinup"))
    return src


def _build(src: Path, out: Path, **kwargs: object) -> None:
    build_all(BuildOptions(src=src, out=out, **kwargs))  # type: ignore[arg-type]


def test_every_site_page_links_the_boards_index(tmp_path: Path) -> None:
    src, out = _workspace(tmp_path), tmp_path / "site"
    _build(src, out)
    for page in ("index.html", "colors.html", "components.html"):
        nav = BeautifulSoup((out / page).read_text(encoding="utf-8"), "html.parser").select_one("nav.pinup-nav")
        assert nav is not None
        links = {a.get_text(strip=True): a["href"] for a in nav.find_all("a")}
        assert links.get("Review boards") == "boards/index.html"
    assert (out / "boards" / "index.html").is_file()


def test_no_boards_means_no_boards_link(tmp_path: Path) -> None:
    src, out = _workspace(tmp_path), tmp_path / "site"
    shutil.rmtree(src / "boards")
    _build(src, out)
    assert "Review boards" not in (out / "index.html").read_text(encoding="utf-8")


def test_local_boards_index_links_existing_results_pages(tmp_path: Path) -> None:
    src, out = _workspace(tmp_path), tmp_path / "site"
    _build(src, out, results=True)  # results pages are built on request only (issue 13 §6)
    soup = BeautifulSoup((out / "boards" / "index.html").read_text(encoding="utf-8"), "html.parser")
    hrefs = [a["href"] for a in soup.find_all("a") if a["href"].endswith("results.html")]
    assert sorted(hrefs) == sorted(f"{p.parent.name}/results.html" for p in (src / "boards").glob("*/board.yaml"))
    for href in hrefs:
        assert (out / "boards" / href).is_file()


def test_hosted_build_does_not_link_results(tmp_path: Path) -> None:
    src, out = _workspace(tmp_path), tmp_path / "site"
    _build(src, out, api_url="https://api.example.test")
    assert "results.html" not in (out / "boards" / "index.html").read_text(encoding="utf-8")
