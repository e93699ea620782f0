"""The built site in real Chromium: from file:// and over HTTP on a sub-path; copy, theme, search, axe.

Screenshots at 375, 768 and 1440 px go to test-artifacts/site/.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from site_helpers import MINIMAL, build, write_workspace

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
WIDTHS = (375, 768, 1440)
# Pages are checked from file://, where Chromium blocks the XHR axe would preload stylesheets with
# (see test_every_page_renders_and_passes_axe for why that loses nothing).
AXE_RUN = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations'], preload: false});
  return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 5).map(n => n.target.join(' '))}));
}"""


@pytest.fixture(scope="module")
def example_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled example, built below a sub-path (served as /deep/sub/path/)."""
    root = tmp_path_factory.mktemp("served")
    out = root / "deep" / "sub" / "path"
    build(ROOT / "site_src", out)
    return out


@pytest.fixture(scope="module")
def http_base(example_site: Path) -> Iterator[str]:
    """A real HTTP server on 127.0.0.1 (port 0) serving the folder above the site."""
    root = example_site.parents[2]
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/deep/sub/path/"
    server.shutdown()
    server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="module")
def axe_path(node_bin: Path) -> Path:
    path = node_bin.parent / "axe-core" / "axe.min.js"
    assert path.is_file(), "npm ci installs axe-core"
    return path


def _page_names(site: Path) -> list[str]:
    return sorted(p.name for p in site.glob("*.html"))


def _open(page, url: str) -> list[str]:  # type: ignore[no-untyped-def]
    """Go to url; return console errors, page errors, error responses and requests that left the machine.

    Remote means anything but 127.0.0.1, file:// and data: URLs.

    Listeners of the previous call are removed first, so each list only holds this page's problems
    (a request of the previous page that our navigation cut short is not one).
    """
    for event, handler in getattr(page, "_pinup_handlers", []):
        page.remove_listener(event, handler)
    problems: list[str] = []
    # the requests this page made; the last page's tab icon, which Chromium fetches after the load
    # event, may still be under way when we navigate away, and is aborted then
    mine: set[object] = set()

    def failed(r) -> None:  # type: ignore[no-untyped-def]
        if r in mine or r.failure != "net::ERR_ABORTED":
            problems.append(f"failed: {r.url} ({r.failure})")

    handlers = [
        ("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None),
        ("pageerror", lambda e: problems.append(f"pageerror: {e}")),
        ("request", lambda r: mine.add(r) if r.frame.url == url else None),
        ("requestfailed", failed),
        ("response", lambda r: problems.append(f"{r.status}: {r.url}") if r.status >= 400 else None),
        (
            "request",
            lambda r: (
                problems.append(f"remote: {r.url}")
                if not r.url.startswith(("file://", "http://127.0.0.1", "data:"))
                else None
            ),
        ),
    ]
    for event, handler in handlers:
        page.on(event, handler)
    page._pinup_handlers = handlers
    page.goto(url)
    page.wait_for_load_state("load")
    return list(problems)


def _overflows(page) -> dict[int, int]:  # type: ignore[no-untyped-def]
    """Resize the loaded page to each width; {width: px} where it scrolls sideways (empty = fits).

    Resizing the same page re-lays it out without loading it again, which keeps the
    25-brand check affordable on a 2-core CI machine.
    """
    found = {}
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        over = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        if over > 0:
            found[width] = over
    return found


def _axe_context(browser, axe_path: Path, **options: object):  # type: ignore[no-untyped-def]
    """A browser context whose every page load gets axe-core before its own scripts.

    One init script for the context instead of a script tag per page: the ~550 kB of axe is sent
    to Chromium once, not once a page, which was about a quarter of the 25-brand check's time.
    """
    context = browser.new_context(**options)
    context.add_init_script(path=str(axe_path))
    return context


def _axe(page) -> list[dict]:  # type: ignore[no-untyped-def]
    """The serious and critical axe violations of the loaded page (axe comes from _axe_context)."""
    return page.evaluate(AXE_RUN)


@pytest.mark.node
@pytest.mark.parametrize("origin", ["file", "http"])
def test_every_page_renders_and_passes_axe(
    browser, example_site: Path, http_base: str, axe_path: Path, artifacts_dir: Path, origin: str
) -> None:  # type: ignore[no-untyped-def]
    """Every page loads from both origins in both themes, with its styles and search index and
    nothing from elsewhere; axe runs on each page and theme once, from file://. Over HTTP axe could
    also preload stylesheets, but only two rules read what it preloads: css-orientation-lock
    (experimental, off by default) and no-autoplay-audio (moderate), and this check keeps serious
    and critical violations only, so the same page would give the same answer twice."""
    shots = artifacts_dir / "site"
    shots.mkdir(exist_ok=True)
    base = example_site.as_uri() + "/" if origin == "file" else http_base
    for theme in ("light", "dark"):
        options: dict[str, object] = {"viewport": {"width": 1280, "height": 900}, "color_scheme": theme}
        context = _axe_context(browser, axe_path, **options) if origin == "file" else browser.new_context(**options)
        page = context.new_page()
        for name in _page_names(example_site):
            problems = _open(page, base + name)
            assert problems == [], f"{origin} {name}: {problems}"
            assert page.locator("h1").first.is_visible(), name
            assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)"
            loaded = page.evaluate("Array.isArray(window.PINUP_SEARCH) && window.PINUP_SEARCH.length")
            assert loaded, f"{name}: search index not loaded"
            if origin == "file":
                violations = _axe(page)
                assert violations == [], f"{origin} {theme} {name}: {violations}"
        context.close()
    if origin == "file":
        page = browser.new_page()
        for name in _page_names(example_site):
            page.goto(base + name)
            assert _overflows(page) == {}, name
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 900})
                page.screenshot(path=str(shots / f"{Path(name).stem}-{width}.png"), full_page=True)
        page.close()
    assert (shots / "colors-375.png").is_file() or origin == "http"


@pytest.mark.node
def test_the_axe_check_finds_and_names_violations(browser, axe_path: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The check every page goes through can fail: a page with a low-contrast paragraph and an image
    without alt text gives both violations, each with the element it found them on."""
    bad = tmp_path / "bad.html"
    bad.write_text(
        '<!doctype html><html lang="en"><head><title>Bad</title></head><body><main><h1>Bad</h1>'
        '<p style="color:#ddd;background:#fff">hard to read</p><img src="x.png"></main></body></html>'
    )
    context = _axe_context(browser, axe_path)
    page = context.new_page()
    page.goto(bad.as_uri())
    found = {v["id"]: v["nodes"] for v in _axe(page)}
    context.close()
    assert found == {"color-contrast": ["p"], "image-alt": ["img"]}


def test_copy_buttons_write_to_the_clipboard(browser, http_base: str) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(http_base + "colors.html")
    for _label, expected in (
        ("Value", "#3d5a2a"),
        ("CSS var", "var(--color-primary)"),
        ("Reference", "{colors.primary}"),
    ):
        page.locator(f"#colors-primary button.pinup-copy[data-copy='{expected}']").click()
        page.wait_for_function(
            "t => document.getElementById('pinup-copy-status').textContent === 'Copied ' + t", arg=expected
        )
        assert page.evaluate("navigator.clipboard.readText()") == expected
    page.goto(http_base + "typography.html")
    page.locator("#typography-display button.pinup-copy").click()
    css = page.evaluate("navigator.clipboard.readText()")
    assert css.startswith(".typography-display {") and "font-size: 56px;" in css
    # keyboard: Tab to a copy button and press Enter
    page.goto(http_base + "colors.html")
    page.locator("#colors-on-primary button.pinup-copy").first.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("navigator.clipboard.readText()") == "#ffffff"
    context.close()


def test_copy_from_file_url(browser, example_site: Path) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto((example_site / "colors.html").as_uri())
    page.locator("#colors-primary button.pinup-copy").first.click()
    page.wait_for_function("document.getElementById('pinup-copy-status').textContent === 'Copied #3d5a2a'")
    assert page.evaluate("navigator.clipboard.readText()") == "#3d5a2a"
    context.close()


def test_light_dark_toggle_switches_and_persists(browser, example_site: Path, http_base: str) -> None:  # type: ignore[no-untyped-def]
    bg = "getComputedStyle(document.body).backgroundColor"
    # offline, from the file system: the toggle switches the page
    context = browser.new_context(color_scheme="light")
    page = context.new_page()
    page.goto((example_site / "index.html").as_uri())
    assert page.evaluate(bg) == "rgb(243, 239, 228)"  # background
    toggle = page.locator("[data-theme-toggle]")
    assert toggle.get_attribute("aria-pressed") == "false"
    toggle.click()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.evaluate(bg) == "rgb(15, 18, 13)"  # background-dark
    assert toggle.get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('pinup-theme')") == "dark"
    context.close()
    # the choice persists across the site's pages: checked on one origin (the site served over
    # HTTP), where every page shares one localStorage. Between file:// pages headless Chromium hands
    # a renderer's writes over to the next page only now and then (seen failing after 5 s of retries).
    context = browser.new_context(color_scheme="light")
    page = context.new_page()
    page.goto(http_base + "index.html")
    page.locator("[data-theme-toggle]").click()
    assert page.evaluate("localStorage.getItem('pinup-theme')") == "dark"
    other = context.new_page()  # a second tab while the first stays open, as a reader would
    for _ in range(20):  # a renderer hands its localStorage writes to the browser asynchronously
        other.goto(http_base + "colors.html")
        if other.evaluate("document.documentElement.dataset.theme") == "dark":
            break
        other.wait_for_timeout(250)
    assert other.evaluate(bg) == "rgb(15, 18, 13)", "the choice persists across pages"
    other.locator("[data-theme-toggle]").click()
    assert other.evaluate(bg) == "rgb(243, 239, 228)"
    context.close()


def test_search_is_offline_and_keyboard_driven(browser, example_site: Path) -> None:  # type: ignore[no-untyped-def]
    page = browser.new_page()
    page.goto((example_site / "index.html").as_uri())
    page.locator("#pinup-search-input").fill("on-primary")
    results = page.locator("#pinup-search-results a")
    assert results.count() > 0
    assert "colors.html#colors-on-primary" in results.first.get_attribute("href")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.wait_for_url("**/colors.html#colors-on-primary")
    page.locator("#pinup-search-input").fill("moss hunters")
    assert "index.html" in page.locator("#pinup-search-results a").first.get_attribute("href")
    page.close()


def test_skip_link_and_focus_are_visible(browser, example_site: Path) -> None:  # type: ignore[no-untyped-def]
    page = browser.new_page()
    page.goto((example_site / "colors.html").as_uri())
    page.keyboard.press("Tab")
    skip = page.locator(".pinup-skip")
    assert page.evaluate("document.activeElement.className") == "pinup-skip"
    assert skip.bounding_box()["y"] >= 0, "skip link is on screen when focused"
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"
    page.keyboard.press("Enter")
    assert page.evaluate("location.hash") == "#main"
    page.close()


def test_color_blindness_preview_applies_a_filter(browser, example_site: Path) -> None:  # type: ignore[no-untyped-def]
    page = browser.new_page()
    page.goto((example_site / "colors.html").as_uri())
    target = ".pinup-swatches.cvd-target"
    assert page.evaluate(f"getComputedStyle(document.querySelector('{target}')).filter") == "none"
    for key in ("protanopia", "deuteranopia", "tritanopia"):
        page.locator(f"#cvd-{key}").check()
        assert f"pinup-cvd-{key}" in page.evaluate(f"getComputedStyle(document.querySelector('{target}')).filter")
    page.close()


def test_script_in_prose_runs_only_with_allow_html(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    evil = MINIMAL.replace("Tiny is small.", "Tiny is small. <script>window.__pwned = 1</script>")
    src = write_workspace(tmp_path / "ws", evil)
    build(src, tmp_path / "safe")
    build(src, tmp_path / "open", allow_html=True)
    page = browser.new_page()
    page.goto((tmp_path / "safe" / "index.html").as_uri())
    assert page.evaluate("window.__pwned === undefined")
    assert "<script>window.__pwned = 1</script>" in page.locator(".pinup-prose").last.inner_text()
    page.goto((tmp_path / "open" / "index.html").as_uri())
    assert page.evaluate("window.__pwned") == 1
    page.close()


def _brand_slugs() -> list[str]:
    from pinup.brands import BrandError
    from pinup.gallery import list_brands

    try:
        return [b.slug for b in list_brands()]
    except BrandError:
        return []


@pytest.fixture(scope="module")
def gallery(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from pinup.gallery import build_gallery

    out = tmp_path_factory.mktemp("gallery")
    build_gallery(out)
    return out


def test_gallery_index_passes_axe(browser, gallery: Path, axe_path: Path) -> None:  # type: ignore[no-untyped-def]
    context = _axe_context(browser, axe_path)
    page = context.new_page()
    assert _open(page, (gallery / "index.html").as_uri()) == []
    assert page.locator(".pinup-gallery-grid li").count() == len(_brand_slugs())
    assert _axe(page) == []
    context.close()


@pytest.mark.parametrize("slug", _brand_slugs())
def test_every_brand_site_passes_axe_and_fits_every_width(
    browser,
    gallery: Path,
    axe_path: Path,  # type: ignore[no-untyped-def]
    slug: str,
) -> None:
    """Each page is loaded once: axe runs (on index.html in dark too), then the same page is resized
    to 375, 768 and 1440 px."""
    context = _axe_context(browser, axe_path)
    page = context.new_page()
    failures = []
    for name in _page_names(gallery / slug):
        page.set_viewport_size({"width": 1280, "height": 900})
        problems = _open(page, (gallery / slug / name).as_uri())
        assert problems == [], f"{slug}/{name}: {problems}"
        failures += [(name, v) for v in _axe(page)]
        if name == "index.html":
            failures += [("index.html (dark)", v) for v in _axe_dark(page)]
        failures += [(name, f"scrolls sideways by {px}px at {w}px") for w, px in _overflows(page).items()]
    context.close()
    assert failures == []


def _axe_dark(page) -> list[dict]:  # type: ignore[no-untyped-def]
    """axe on the loaded page switched to the dark theme, then switched back as it was."""
    before = page.evaluate("document.documentElement.getAttribute('data-theme')")
    page.evaluate("document.documentElement.setAttribute('data-theme', 'dark')")
    violations = _axe(page)
    page.evaluate(
        "t => t === null ? document.documentElement.removeAttribute('data-theme')"
        " : document.documentElement.setAttribute('data-theme', t)",
        before,
    )
    return violations


STRESS = (
    """---
name: Averyveryverylongdesignsystemnamewithoutanyspacesatalltotestwrapping
colors:
  primary: "#5b21b6"
  on-primary: "#ffffff"
  background: "#ffffff"
  on-background: "#111111"
  an-extraordinarily-long-colour-token-name-that-never-ends-and-keeps-going: "#00ff88"
typography:
  display-enormous-specimen-level-with-a-long-name:
    fontFamily: Averyveryverylongfontfamilynamewithoutanybreaks
    fontSize: 120px
    fontWeight: 800
    letterSpacing: 0.2em
  body-md:
    fontFamily: Inter
    fontSize: 16px
spacing:
  huge: 2000px
rounded:
  pill: 9999px
components:
  button-primary-with-a-very-long-component-name-that-goes-on:
    backgroundColor: "{colors.primary}"
    textColor: "{colors.on-primary}"
    width: 900px
  input-search-field:
    backgroundColor: "{colors.background}"
    width: 1200px
  card-hero:
    backgroundColor: "{colors.background}"
    width: 1500px
---

## Overview

See https://example.com/"""
    + "a" * 150
    + """ and `"""
    + "b" * 90
    + """`.

| a | b | c | d | e | f | g | h |
|---|---|---|---|---|---|---|---|
| column one is long | column two is longer | three three three | four four four | five five | six six six | seven | eight eight |

```
"""
    + "c" * 200
    + """
```

## Mystery

"""
    + "d" * 160
    + "\n"
)


def test_long_specimens_wrap_and_wide_content_scrolls_in_its_box(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "site"
    build(write_workspace(tmp_path / "ws", STRESS), out)
    page = browser.new_page()
    failures = {}
    for name in _page_names(out):
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto((out / name).as_uri())
        if found := _overflows(page):
            failures[name] = found
    page.set_viewport_size({"width": 375, "height": 900})
    page.goto((out / "index.html").as_uri())
    table = page.locator(".pinup-prose table")
    assert table.evaluate("t => t.scrollWidth > t.clientWidth"), "the wide prose table scrolls inside its own box"
    page.close()
    assert failures == {}
