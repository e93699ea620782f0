"""The HTML validator: one self-contained document, stripped or rejected."""

from __future__ import annotations

import pytest

from pinup.generate.validate import InvalidOutput, validate_html

GOOD = "<!DOCTYPE html><html><head><style>body{color:#222}</style></head><body><p>Hi</p></body></html>"


def test_good_document_passes_unchanged() -> None:
    result = validate_html(GOOD)
    assert result.html == GOOD + "\n" and result.stripped == []


def test_fences_and_chatter_are_removed() -> None:
    result = validate_html("Sure! Here it is:\n```html\n" + GOOD + "\n```\nEnjoy.")
    assert result.html.strip() == GOOD


def test_missing_doctype_is_added() -> None:
    assert validate_html("<html><body>x</body></html>").html.startswith("<!DOCTYPE html>\n<html>")


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("I can't help with that.", "no HTML document"),
        ("<!DOCTYPE html><html><body><p>cut off", "incomplete"),
        (GOOD + "\n" + GOOD, "more than one HTML document"),
        ("<html><head></head></html>", "no <body>"),
        ('<html><body><script src="https://cdn.example/x.js"></script></body></html>', "external script"),
        ('<html><body><script src="app.js"></script></body></html>', "external script"),
        ('<html><body><script>fetch("https://api.example/track")</script></body></html>', "network URL"),
        ('<html><body><iframe src="https://example.com"></iframe></body></html>', "<iframe> loads a network URL"),
        ('<html><body><script type="module">import x from "//cdn.example/m.js"</script></body></html>', "network URL"),
    ],
)
def test_rejections(answer: str, reason: str) -> None:
    with pytest.raises(InvalidOutput, match=reason.replace("<", ".").replace(">", ".")):
        validate_html(answer)


def test_network_references_are_stripped() -> None:
    answer = (
        '<!DOCTYPE html><html><head><base href="https://example.com/">'
        '<link rel="preconnect" href="https://fonts.gstatic.com">'
        '<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter">'
        '<meta http-equiv="refresh" content="0;url=https://example.com">'
        "<style>@import url('https://x.example/a.css');\n"
        "@font-face{font-family:X;src:url(https://x.example/x.woff2) format('woff2')}\n"
        'body{background:#fff url("//img.example/bg.png") no-repeat}</style></head>'
        '<body style="background-image:url(https://img.example/a.png)">'
        '<a href="https://example.com/pricing" class="cta">Pricing</a>'
        '<img src="https://img.example/hero.jpg" alt="Hero" width="10">'
        '<img srcset="https://img.example/1.jpg 1x, https://img.example/2.jpg 2x" alt="b">'
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect fill="url(#g)"/></svg>'
        '<a href="#top">top</a><img src="data:image/png;base64,AAAA" alt="inline">'
        "<p>Visit us &amp; more</p></body></html>"
    )
    result = validate_html(answer)
    html = result.html
    for gone in ("example.com", "googleapis", "gstatic", "img.example", "x.example", "@import", "<base", "refresh"):
        assert gone not in html, gone
    assert '<a href="#" class="cta">Pricing</a>' in html
    assert '<img alt="Hero" width="10">' in html
    assert 'xmlns="http://www.w3.org/2000/svg"' in html and 'fill="url(#g)"' in html
    assert '<a href="#top">top</a>' in html and "data:image/png;base64,AAAA" in html
    assert "<p>Visit us &amp; more</p>" in html
    assert len(result.stripped) >= 10


def test_comments_in_inline_script_are_not_urls() -> None:
    answer = "<html><body><script>// toggles the menu\nvar a = 1; // see docs\n</script></body></html>"
    assert "toggles the menu" in validate_html(answer).html


def test_stripping_is_done_with_a_parser_not_string_search() -> None:
    # a URL in visible text is not a fetch and stays; the same URL in an attribute goes
    answer = (
        '<html><body><p>See https://example.com/docs</p><img alt="x" src = "https://example.com/a.png"></body></html>'
    )
    html = validate_html(answer).html
    assert "<p>See https://example.com/docs</p>" in html
    assert "a.png" not in html


def test_relative_files_are_not_self_contained() -> None:
    # fonts, images and frames from other files would 404 (or hit the board's server): stripped
    answer = (
        "<html><head><style>@font-face{font-family:Brand;src:url(fonts/brand.woff2) format('woff2'),local(Arial)}"
        "body{background:url('img/bg.png')}</style></head><body>"
        '<img src="hero.jpg" alt="Hero"><img srcset="data:image/png;base64,AAAA 1x, pics/b.png 2x" alt="b">'
        '<iframe src="/api/feedback"></iframe><svg><use href="#icon"/><image href="sprite.png"/></svg>'
        '<a href="pricing.html">Pricing</a><a href="#top">Top</a></body></html>'
    )
    result = validate_html(answer)
    html = result.html
    for gone in ("brand.woff2", "bg.png", "hero.jpg", "pics/b.png", "/api/feedback", "sprite.png"):
        assert gone not in html, gone
    assert "local(Arial)" in html and '<img alt="Hero">' in html
    assert '<use href="#icon"/>' in html  # a fragment stays inside the document
    assert '<a href="pricing.html">Pricing</a>' in html  # navigation, not a fetch
    assert any("brand.woff2" in s for s in result.stripped)


def test_image_set_strings_are_stripped() -> None:
    answer = (
        '<html><head><style>.h{background-image:image-set("https://img.example/a.png" 1x, '
        '"https://img.example/b.png" 2x);color:red}</style></head><body>x</body></html>'
    )
    html = validate_html(answer).html
    assert "img.example" not in html and "color:red" in html


def test_event_handlers_and_srcdoc_naming_the_network_are_stripped() -> None:
    answer = (
        "<html><body onload=\"navigator.sendBeacon('https://t.example/b')\">"
        '<img src="data:," alt="p" onerror="fetch(\'//t.example/x\')">'
        "<button onclick=\"document.body.classList.toggle('dark')\">Theme</button>"
        '<iframe srcdoc="&lt;script src=https://t.example/a.js&gt;&lt;/script&gt;"></iframe>'
        '<iframe srcdoc="&lt;p&gt;inline&lt;/p&gt;"></iframe></body></html>'
    )
    result = validate_html(answer)
    html = result.html
    assert "t.example" not in html
    assert "onclick=\"document.body.classList.toggle('dark')\"" in html  # a local handler stays
    assert 'srcdoc="&lt;p&gt;inline&lt;/p&gt;"' in html
    assert len([s for s in result.stripped if "handler" in s]) == 2


def test_escaped_slashes_in_inline_script_are_still_urls() -> None:
    with pytest.raises(InvalidOutput, match="network URL"):
        validate_html('<html><body><script>var u = "https:\\/\\/t.example\\/x"; fetch(u)</script></body></html>')


def test_inline_data_links_stay_unless_they_import_from_the_network() -> None:
    icon = '<link rel="icon" href="data:image/svg+xml,%3Csvg%3E%3C/svg%3E">'
    sneaky = '<link rel="stylesheet" href="data:text/css,@import%20url(%22https://t.example/a.css%22);">'
    html = validate_html(f"<html><head>{icon}{sneaky}</head><body>x</body></html>").html
    assert icon in html and "t.example" not in html
