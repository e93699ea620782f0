"""Check that a model's answer is one self-contained HTML document.

Why: a variant runs in the reviewer's browser, so it must load nothing from the
network or from other files, and must be exactly one page. Harmless problems are
stripped (stylesheet links, `@import`, `url()` in CSS that is not inline data,
outbound hrefs, images and fonts from the web or from relative paths, event
handler attributes and `srcdoc` that name a network URL); what cannot be made
safe by stripping (external or remote scripts, frames, embeds, network calls in
inline script, no document, two documents, a cut-off document) raises
`InvalidOutput`, and the runner asks for that variant again.
The parser is the standard library's `html.parser`, not regular expressions
over markup; regexes only scan CSS and script text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import unquote

#: Schemes (or protocol-relative `//`) that fetch from the network.
_NETWORK = re.compile(r"^\s*(?:(?:https?|wss?|ftp):|//)", re.IGNORECASE)
#: Namespace URIs are identifiers, not fetches (inline SVG uses them).
_NAMESPACE = re.compile(r"^\s*https?://www\.w3\.org/", re.IGNORECASE)
_SCRIPT_URL = re.compile(r"""(?i)(?:\b(?:https?|wss?|ftp):|(?<=["'`(])\s*)//[^\s'"`)<>]+""")
_CSS_IMPORT = re.compile(r"(?is)@import\b[^;]*;?")
#: The opening of a CSS `url(...)`; `css_urls` finds its end. One pattern for the whole reference,
#: `url\(\s*(['"]?)(.*?)\1\s*\)`, scanned to the end of the text from every `url(` that was not
#: closed, and tried every split of each run of spaces in it.
_CSS_URL_OPEN = re.compile(r"(?i)url\(\s*+")
_CSS_URL_CLOSE = {quote: re.compile(quote + r"\s*+\)") for quote in ("'", '"')}
#: `image-set()` takes bare strings as image URLs (not only `url()`).
_CSS_IMAGE_SET = re.compile(r"""(?is)(?:-webkit-)?image-set\((?:[^()]|\([^()]*\))*\)""")
_CSS_STRING = re.compile(r"""(['"])(.*?)\1""", re.DOTALL)
#: References that stay inside the document: fragments and inline data.
_INLINE_REF = re.compile(r"^\s*(?:#|data:|blob:|about:blank\s*$|$)", re.IGNORECASE)
#: the spaces up to the fence's line end are taken whole: handing some back to `(.*?)` never finds a
#: closing fence the first try missed, and tried every split of a long run of blank lines.
_FENCE = re.compile(r"```[a-zA-Z0-9_-]*+(?>\s*\n)(.*?)```", re.DOTALL)
#: `<!doctype html ...>` or `<html`. A doctype with no `>` after it takes the rest of the text
#: (group 1 unset), so the next doctype is not scanned to the end again; `_doc_start` looks for
#: `<html` past it.
_DOC_START = re.compile(r"(?is)<!doctype\s++html\b[^>]*+(>)?|<html\b")
_HTML_OPEN = re.compile(r"(?i)<html\b")
_DOC_END = re.compile(r"(?is)</html\s*>")

#: Attributes that fetch what they name; on these even a relative path is another file.
FETCH_ATTRS = frozenset(
    {
        "src",
        "srcset",
        "poster",
        "data",
        "background",
        "lowsrc",
        "dynsrc",
        "icon",
        "manifest",
        "codebase",
        "imagesrcset",
        "ping",
    }
)
#: Navigation, not fetching: relative targets are harmless here (network ones are still stripped).
_NAV_TAGS = frozenset({"a", "area"})
URL_ATTRS = frozenset(
    {
        "src",
        "href",
        "srcset",
        "poster",
        "data",
        "action",
        "formaction",
        "background",
        "xlink:href",
        "ping",
        "manifest",
        "codebase",
        "cite",
        "longdesc",
        "lowsrc",
        "dynsrc",
        "icon",
        "imagesrcset",
    }
)
#: Elements whose network source would run or embed foreign code: reject.
_FATAL_ELEMENTS = frozenset({"script", "iframe", "frame", "embed", "object", "applet", "portal"})
#: Elements removed outright (void elements, so the start tag is the element).
_STRIP_ELEMENTS = frozenset({"link", "base"})


class InvalidOutput(ValueError):
    """The answer cannot be used as a variant; the reason goes into the retry prompt."""


@dataclass
class ValidatedHTML:
    """A document ready to save, and what was stripped from it on the way."""

    html: str
    stripped: list[str] = field(default_factory=list)


def is_network_url(value: str | None) -> bool:
    return bool(value) and bool(_NETWORK.match(value or "")) and not _NAMESPACE.match(value or "")


def is_external_ref(value: str | None) -> bool:
    """A reference to anything outside this document (network URL or another file)."""
    return not _INLINE_REF.match(value or "") and not _NAMESPACE.match(value or "")


def _srcset_urls(value: str) -> list[str]:
    """The URLs of a srcset (each candidate is a URL without spaces, then descriptors up to a comma)."""
    urls: list[str] = []
    i, n = 0, len(value)
    while i < n:
        while i < n and (value[i].isspace() or value[i] == ","):
            i += 1
        start = i
        while i < n and not value[i].isspace():
            i += 1
        url = value[start:i]
        if url.endswith(","):
            urls.append(url.rstrip(","))
            continue
        if url:
            urls.append(url)
        while i < n and value[i] != ",":
            i += 1
    return urls


def _script_network_url(code: str) -> str | None:
    """The first network URL named in script text (JSON-escaped slashes included)."""
    urls: list[str] = _SCRIPT_URL.findall(code.replace("\\/", "/"))
    for url in urls:
        if not _NAMESPACE.match(url):
            return url
    return None


def _clean_css(css: str, stripped: list[str], where: str) -> str:
    """Drop `@import` rules and `url()`/`image-set()` references to other files from CSS text."""

    def drop_import(match: re.Match[str]) -> str:
        stripped.append(f"@import in {where}")
        return ""

    def drop_urls(css: str) -> str:
        pieces: list[str] = []
        last = 0
        for start, end, target in css_urls(css):
            pieces.append(css[last:start])
            if is_external_ref(target):
                kind = "network" if is_network_url(target) else "external"
                stripped.append(f"{kind} url() in {where}: {target[:80]}")
                pieces.append("none")
            else:
                pieces.append(css[start:end])
            last = end
        pieces.append(css[last:])
        return "".join(pieces)

    def drop_image_set(match: re.Match[str]) -> str:
        strings = [m.group(2) for m in _CSS_STRING.finditer(match.group(0))]
        if any(is_external_ref(v) for v in strings):
            stripped.append(f"image-set() with an external image in {where}")
            return "none"
        return match.group(0)

    css = _CSS_IMPORT.sub(drop_import, css)
    css = drop_urls(css)
    return _CSS_IMAGE_SET.sub(drop_image_set, css)


def css_urls(css: str) -> Iterator[tuple[int, int, str]]:
    r"""Each `url(...)` in `css` as (start, end, target), as `url\(\s*(['"]?)(.*?)\1\s*\)` reads them.

    A quoted target ends at the first quote followed by `)`; without one (or unquoted) the target
    runs to the first `)`, less the spaces before it. Once a quote has no closing left, later
    `url(` openings with that quote are not scanned again, so the work is linear in the text.
    """
    pos = 0
    unclosed: set[str] = set()
    while opening := _CSS_URL_OPEN.search(css, pos):
        body = opening.end()
        quote = css[body : body + 1]
        close = None
        if quote in _CSS_URL_CLOSE and quote not in unclosed:
            close = _CSS_URL_CLOSE[quote].search(css, body + 1)
            if close is None:
                unclosed.add(quote)
        if close is not None:
            yield opening.start(), close.end(), css[body + 1 : close.start()]
            pos = close.end()
            continue
        paren = css.find(")", body)
        if paren < 0:
            return
        yield opening.start(), paren + 1, css[body:paren].rstrip()
        pos = paren + 1


class _Scanner(HTMLParser):
    """Collects edits (offset ranges to replace) and fatal problems."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.text = text
        self.line_starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self.line_starts.append(i + 1)
        self.edits: list[tuple[int, int, str]] = []
        self.stripped: list[str] = []
        self.fatal: list[str] = []
        self.html_tags = 0
        self.doctypes = 0
        self.has_body = False
        self._raw_tag: str | None = None

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.line_starts[line - 1] + col

    def handle_decl(self, decl: str) -> None:
        if decl.lower().startswith("doctype"):
            self.doctypes += 1

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag(tag, attrs, self_closing=False)
        if tag in ("script", "style"):
            self._raw_tag = tag

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag(tag, attrs, self_closing=True)

    def handle_endtag(self, tag: str) -> None:
        if tag == self._raw_tag:
            self._raw_tag = None

    def handle_data(self, data: str) -> None:
        if self._raw_tag == "script":
            url = _script_network_url(data)
            if url:
                self.fatal.append(f"inline script refers to a network URL ({url[:80]})")
        elif self._raw_tag == "style":
            cleaned = _clean_css(data, self.stripped, "<style>")
            if cleaned != data:
                start = self._offset()
                self.edits.append((start, start + len(data), cleaned))

    def _tag(self, tag: str, attrs: list[tuple[str, str | None]], *, self_closing: bool) -> None:
        raw = self.get_starttag_text() or ""
        start = self._offset()
        end = start + len(raw)
        if tag == "html":
            self.html_tags += 1
        if tag == "body":
            self.has_body = True
        values = {name: (value or "") for name, value in attrs}
        if tag == "script" and "src" in values and not values["src"].strip().lower().startswith("data:"):
            self.fatal.append(f"external script <script src={values['src'][:80]!r}>")
            return
        if tag in _FATAL_ELEMENTS and tag != "script":
            for name in ("src", "data", "href", "codebase"):
                if is_network_url(values.get(name)):
                    self.fatal.append(f"<{tag}> loads a network URL ({values[name][:80]})")
                    return
        if tag in _STRIP_ELEMENTS:
            href = values.get("href", "")
            inline = href.strip().lower().startswith("data:") and not _script_network_url(unquote(href))
            if tag == "base" or not inline:
                self.stripped.append(f"<{tag}> {href[:80]}".rstrip())
                self.edits.append((start, end, ""))
            return
        if tag == "meta" and values.get("http-equiv", "").lower() == "refresh":
            self.stripped.append("<meta http-equiv=refresh>")
            self.edits.append((start, end, ""))
            return
        changed = False
        new_attrs: list[tuple[str, str | None]] = []
        for name, value in attrs:
            if name.startswith("xmlns"):
                new_attrs.append((name, value))
                continue
            if name in URL_ATTRS and value:
                urls = _srcset_urls(value) if name.endswith("srcset") else [value]
                fetches = name in FETCH_ATTRS or (name in ("href", "xlink:href") and tag not in _NAV_TAGS)
                check = is_external_ref if fetches else is_network_url
                if any(check(url) for url in urls):
                    changed = True
                    self.stripped.append(f"<{tag} {name}> {value[:80]}")
                    if tag in _NAV_TAGS and name == "href":
                        new_attrs.append((name, "#"))
                    continue
            if name.startswith("on") and value and _script_network_url(value):
                changed = True
                self.stripped.append(f"<{tag} {name}> handler naming a network URL")
                continue
            if name == "srcdoc" and value:
                inner = _scan(value)
                if inner.fatal or inner.edits:
                    changed = True
                    self.stripped.append(f"<{tag} srcdoc> with external content")
                    continue
            if name == "style" and value:
                cleaned = _clean_css(value, self.stripped, f"<{tag} style>")
                if cleaned != value:
                    changed = True
                    value = cleaned
            new_attrs.append((name, value))
        if changed:
            self.edits.append((start, end, _render_tag(tag, new_attrs, self_closing or raw.rstrip().endswith("/>"))))


def _render_tag(tag: str, attrs: list[tuple[str, str | None]], self_closing: bool) -> str:
    parts = [tag]
    for name, value in attrs:
        parts.append(name if value is None else f'{name}="{html.escape(value, quote=True)}"')
    return "<" + " ".join(parts) + (" />" if self_closing else ">")


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, replacement in sorted(edits, key=lambda e: e[0], reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def _scan(text: str) -> _Scanner:
    scanner = _Scanner(text)
    scanner.feed(text)
    scanner.close()
    return scanner


def _doc_start(text: str) -> int | None:
    r"""Where `(?is)<!doctype\s+html\b[^>]*>|<html\b` first matches in `text`, in one pass."""
    found = _DOC_START.search(text)
    if found is None:
        return None
    if found.group(0).startswith("<!") and found.group(1) is None:  # no `>` left: only `<html` can match
        html_open = _HTML_OPEN.search(text, found.start())
        return None if html_open is None else html_open.start()
    return found.start()


def extract_document(answer: str) -> tuple[str, list[str]]:
    """The one HTML document in a model answer (fences and chatter removed)."""
    notes: list[str] = []
    text = answer
    for block in _FENCE.findall(answer):
        if _doc_start(block) is not None:
            text = block
            notes.append("markdown code fence")
            break
    begin = _doc_start(text)
    if begin is None:
        raise InvalidOutput("no HTML document in the answer (expected <!DOCTYPE html> … </html>)")
    ends = list(_DOC_END.finditer(text))
    if not ends:
        raise InvalidOutput("the HTML document is incomplete (no closing </html>; was the answer cut off?)")
    finish = ends[-1].end()
    if text[:begin].strip() or text[finish:].strip():
        notes.append("text outside the HTML document")
    return text[begin:finish], notes


def validate_html(answer: str) -> ValidatedHTML:
    """Return a clean, self-contained document or raise InvalidOutput."""
    document, notes = extract_document(answer)
    scan = _scan(document)
    if scan.html_tags > 1 or scan.doctypes > 1:
        raise InvalidOutput("the answer holds more than one HTML document; send exactly one")
    if scan.html_tags == 0:
        raise InvalidOutput("no <html> element in the answer")
    if not scan.has_body:
        raise InvalidOutput("the HTML document has no <body>")
    if scan.fatal:
        raise InvalidOutput("; ".join(dict.fromkeys(scan.fatal)))
    cleaned = _apply(document, scan.edits)
    if scan.doctypes == 0:
        cleaned = "<!DOCTYPE html>\n" + cleaned
    again = _scan(cleaned)
    if again.fatal or again.edits:
        raise InvalidOutput("the HTML could not be made self-contained")
    return ValidatedHTML(html=cleaned.rstrip() + "\n", stripped=notes + scan.stripped)
