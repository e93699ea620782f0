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
        "body{background:#fff url(\"//img.example/bg.png\") no-repeat}</style></head>"
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
    answer = ('<html><body><p>See https://example.com/docs</p>'
              '<img alt="x" src = "https://example.com/a.png"></body></html>')
    html = validate_html(answer).html
    assert "<p>See https://example.com/docs</p>" in html
    assert "a.png" not in html
