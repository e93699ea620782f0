"""The `pinup` MkDocs plugin under `mkdocs build --strict`, with the plain theme and material."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from bs4 import BeautifulSoup

ROOT = Path(__file__).resolve().parents[2]
PAGES = (
    "index",
    "colors",
    "typography",
    "layout",
    "elevation",
    "shapes",
    "components",
    "guidelines",
    "downloads",
    "lint",
)


def _mkdocs(config: Path, out: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
    )


def _project(tmp_path: Path, extra: str = "", nav: bool = True) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "DESIGN.md").write_text((ROOT / "site_src" / "DESIGN.md").read_text("utf-8"), "utf-8")
    (tmp_path / "docs" / "index.md").write_text(
        "# Home\n\nSee the [colors](design-system/colors.md) and the "
        "[button](design-system/components.md#component-button-primary).\n",
        "utf-8",
    )
    lines = ["site_name: Plugin test", "strict: true"]
    if nav:
        lines += ["nav:", "  - Home: index.md"]
    lines += ["plugins:", "  - search", "  - pinup:", "      design_md: DESIGN.md", "      section: Design system"]
    config = tmp_path / "mkdocs.yml"
    config.write_text("\n".join(lines) + "\n" + extra, "utf-8")
    return config


def _check_links(site: Path, page: Path) -> None:
    soup = BeautifulSoup(page.read_text("utf-8"), "html.parser")
    for a in soup.select(".pinup-embed a[href]"):
        parts = urlsplit(a["href"])
        assert not parts.scheme and not parts.netloc, a["href"]
        target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
        if target.is_dir():
            target = target / "index.html"
        assert target.is_file(), f"{page}: broken {a['href']}"
        if parts.fragment:
            assert BeautifulSoup(target.read_text("utf-8"), "html.parser").find(id=parts.fragment), a["href"]


@pytest.mark.parametrize("theme", ["mkdocs", "material"])
def test_plugin_builds_strict(tmp_path: Path, theme: str) -> None:
    config = _project(tmp_path, f"theme:\n  name: {theme}\n", nav=theme == "mkdocs")
    out = tmp_path / "site"
    result = _mkdocs(config, out)
    assert result.returncode == 0, result.stderr
    folder = out / "design-system"
    for slug in PAGES:
        page = folder / ("index.html" if slug == "index" else f"{slug}/index.html")
        assert page.is_file(), slug
        _check_links(out, page)
    colors = BeautifulSoup((folder / "colors" / "index.html").read_text("utf-8"), "html.parser")
    assert colors.select_one(".pinup-embed #colors-primary button.pinup-copy[data-copy='#3d5a2a']")
    assert colors.find("h1").get_text(strip=True) == "Colors"
    nav_text = colors.get_text(" ")
    assert "Design system" in nav_text and "Lint report" in nav_text
    for asset in ("theme.css", "pinup.css", "site.js"):
        assert (folder / "assets" / asset).is_file()
    assert 'href="../assets/pinup.css"' in (folder / "colors" / "index.html").read_text("utf-8")
    assert (folder / "downloads" / "DESIGN.md").read_text("utf-8").startswith("---")
    assert (folder / "downloads" / "tokens.json").is_file()
    home = (out / "index.html").read_text("utf-8")
    assert 'href="design-system/colors/"' in home


def test_plugin_without_directory_urls(tmp_path: Path) -> None:
    config = _project(tmp_path, "use_directory_urls: false\n")
    out = tmp_path / "site"
    result = _mkdocs(config, out)
    assert result.returncode == 0, result.stderr
    page = out / "design-system" / "lint.html"
    assert page.is_file()
    _check_links(out, out / "design-system" / "components.html")


def test_plugin_reports_a_missing_design_md(tmp_path: Path) -> None:
    config = _project(tmp_path)
    (tmp_path / "DESIGN.md").unlink()
    result = _mkdocs(config, tmp_path / "site")
    assert result.returncode != 0 and "design_md not found" in result.stderr


def test_project_docs_build_strict(tmp_path: Path) -> None:
    """The repository's own docs (mkdocs.yml at the root) with the example design system."""
    result = _mkdocs(ROOT / "mkdocs.yml", tmp_path / "docs")
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / "docs" / "design-system" / "colors" / "index.html").is_file()
    assert (tmp_path / "docs" / "site" / "index.html").is_file()


def _nav_order(page: Path, selector: str) -> list[str]:
    """The design-system page slugs in the order the page's navigation links them."""
    soup = BeautifulSoup(page.read_text("utf-8"), "html.parser")
    slugs: list[str] = []
    for a in soup.select(selector):
        path = unquote(urlsplit(a["href"]).path)
        parts = [p for p in (page.parent / path).resolve().parts]
        if "design-system" not in parts:
            continue
        after = parts[parts.index("design-system") + 1 :]
        slug = after[0] if after else "index"
        if slug not in slugs:
            slugs.append(slug)
    return slugs


@pytest.mark.parametrize(
    "theme,selector",
    [("mkdocs", ".navbar .dropdown-menu a[href]"), ("material", ".md-nav--primary a.md-nav__link[href]")],
)
def test_auto_nav_keeps_the_site_order(tmp_path: Path, theme: str, selector: str) -> None:
    """Without `nav:`, MkDocs would sort the pages alphabetically (colors, components, downloads, ...)."""
    config = _project(tmp_path, f"theme:\n  name: {theme}\n", nav=False)
    out = tmp_path / "site"
    result = _mkdocs(config, out)
    assert result.returncode == 0, result.stderr
    page = out / "design-system" / "colors" / "index.html"
    assert _nav_order(page, selector) == list(PAGES)
    soup = BeautifulSoup(page.read_text("utf-8"), "html.parser")
    text = soup.get_text(" ")
    assert "Design system" in text
    # previous/next follow the same order: Colors sits between Overview and Typography
    if theme == "mkdocs":
        assert soup.select_one('a[rel="prev"]')["href"].rstrip("/").endswith("..")
        assert soup.select_one('a[rel="next"]')["href"].rstrip("/").endswith("typography")


def test_material_uses_admonitions_and_the_brand_palette(tmp_path: Path) -> None:
    config = _project(
        tmp_path, "theme:\n  name: material\n  palette:\n    - scheme: default\n    - scheme: slate\n", nav=False
    )
    out = tmp_path / "site"
    result = _mkdocs(config, out)
    assert result.returncode == 0, result.stderr
    folder = out / "design-system"
    material_css = (folder / "assets" / "material.css").read_text("utf-8")
    assert "--md-primary-fg-color: var(--pinup-primary);" in material_css
    theme_css = (folder / "assets" / "theme.css").read_text("utf-8")
    assert "[data-md-color-scheme=slate]" in theme_css and "--pinup-primary" in theme_css
    overview = BeautifulSoup((folder / "index.html").read_text("utf-8"), "html.parser")
    assert overview.select_one('link[href$="assets/material.css"]')
    lint = BeautifulSoup((folder / "lint" / "index.html").read_text("utf-8"), "html.parser")
    pages = [BeautifulSoup((folder / s / "index.html").read_text("utf-8"), "html.parser") for s in PAGES[1:]]
    admonitions = [a for p in [overview, lint, *pages] for a in p.select(".pinup-embed .admonition")]
    assert admonitions, "no pinup note became a Material admonition"
    details = [d for p in pages for d in p.select(".pinup-embed details.info")]
    assert details, "component properties should use Material's details styling"


def test_plain_theme_has_no_material_classes(tmp_path: Path) -> None:
    config = _project(tmp_path, "theme:\n  name: mkdocs\n")
    out = tmp_path / "site"
    assert _mkdocs(config, out).returncode == 0
    assert not (out / "design-system" / "assets" / "material.css").exists()
    html = (out / "design-system" / "components" / "index.html").read_text("utf-8")
    assert 'class="admonition' not in html


def test_plugin_builds_a_lone_surrogate(tmp_path: Path) -> None:
    """A YAML-escaped lone surrogate (found by the site property of #12) is U+FFFD, not a crash."""
    config = _project(tmp_path)
    fixture = ROOT / "tests" / "reliability" / "fixtures" / "lone-surrogate.md"
    (tmp_path / "DESIGN.md").write_text(fixture.read_text("utf-8"), "utf-8")
    out = tmp_path / "site"
    result = _mkdocs(config, out)
    assert result.returncode == 0, result.stderr
    assert "\ufffd" in (out / "design-system" / "downloads" / "tokens.css").read_text("utf-8")


IN_PROCESS = """
import sys
from mkdocs.commands.build import build
from mkdocs.config import load_config
build(load_config(sys.argv[1], site_dir=sys.argv[2]))
print("pydantic" in sys.modules)
"""


def test_the_plugin_builds_without_pydantic(tmp_path: Path) -> None:
    """The design-system pages only read the lint report: a docs build does not load pydantic for it."""
    config = _project(tmp_path)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-c", IN_PROCESS, str(config), str(tmp_path / "site")],
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "design-system" / "colors" / "index.html").is_file()
    assert done.stdout.strip().splitlines()[-1] == "False"


CACHED_RUN = """
import sys
from mkdocs.commands.build import build
from mkdocs.config import load_config
build(load_config(sys.argv[1], site_dir=sys.argv[2]))
print("pinup.designmd.lint" in sys.modules, "markdown_it" in sys.modules)
"""


def test_the_plugin_reuses_pinups_build_cache_and_follows_edits(tmp_path: Path) -> None:
    """An unchanged DESIGN.md is not linted again by the next docs build; an edited one shows, as without cache."""
    config = _project(tmp_path)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PINUP_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("PINUP_NO_CACHE", None)

    def build(out: str, **extra: str) -> tuple[str, ...]:
        done = subprocess.run(
            [sys.executable, "-c", CACHED_RUN, str(config), str(tmp_path / out)],
            capture_output=True,
            text=True,
            env={**env, **extra},
            timeout=240,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        return tuple(done.stdout.strip().splitlines()[-1].split())

    def colours(out: str) -> str:
        return (tmp_path / out / "design-system" / "colors" / "index.html").read_text("utf-8")

    assert build("first") == ("True", "True")  # nothing cached yet: linted, prose parsed
    assert build("again") == ("False", "False")  # the same DESIGN.md: its page models come from the cache
    assert colours("again") == colours("first")
    design = tmp_path / "DESIGN.md"
    design.write_text(design.read_text("utf-8").replace('primary: "#3d5a2a"', 'primary: "#3d5a2b"', 1), "utf-8")
    assert build("edited") == ("True", "False")  # linted again; its unchanged prose came from the cache
    assert "#3d5a2b" in colours("edited") and "#3d5a2b" not in colours("first")
    build("reference", PINUP_NO_CACHE="1")
    assert colours("edited") == colours("reference")
