"""Prose rendering: one configured markdown-it-py parser for every page.

CommonMark (as the reference linter parses DESIGN.md) plus tables and
strikethrough. Raw HTML is escaped unless the user opts in with `--allow-html`,
so a hosted site never runs a DESIGN.md's script; markdown-it's link validation
already drops `javascript:` URLs.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pinup.buildcache import active
from pinup.designmd.memo import remember
from pinup.docsite.anchors import slugify
from pinup.prosememo import keep, recall

if TYPE_CHECKING:  # pragma: no cover
    from markdown_it import MarkdownIt
    from markdown_it.renderer import RendererHTML
    from markdown_it.token import Token
    from markdown_it.utils import OptionsDict


@lru_cache(maxsize=4)
def markdown_parser(allow_html: bool = False, *, extensions: bool = True) -> MarkdownIt:
    """The shared parser; headings get stable `id`s so search results can link to them.

    `extensions=False` leaves out tables and strikethrough: the same output for text
    without `|` or `~` (neither can start without one), parsed about a quarter faster
    because the table rule is otherwise tried at every line.
    """
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": allow_html, "typographer": False})
    if extensions:
        md.enable(["table", "strikethrough"])

    def heading_open(
        renderer: RendererHTML, tokens: list[Token], idx: int, options: OptionsDict, env: dict[str, Any]
    ) -> str:
        # markdown-it binds render rules as methods: the renderer comes first
        token = tokens[idx]
        inline = tokens[idx + 1]
        base = "h-" + slugify(inline.content or "section")
        used: set[str] = env.setdefault("pinup_ids", set())
        anchor, n = base, 2
        while anchor in used:
            anchor, n = f"{base}-{n}", n + 1
        used.add(anchor)
        token.attrSet("id", anchor)
        return renderer.renderToken(tokens, idx, options, env)

    md.add_render_rule("heading_open", heading_open)
    return md


def parser_for(text: str, allow_html: bool = False) -> MarkdownIt:
    """The cheapest parser that gives the full parser's result for `text`."""
    return markdown_parser(allow_html, extensions="|" in text or "~" in text)


def render_markdown(text: str, *, allow_html: bool = False, env: dict[str, Any] | None = None) -> str:
    """Markdown -> HTML (safe unless allow_html)."""
    if not text.strip():
        return ""
    html: str = parser_for(text, allow_html).render(text, env if env is not None else {})
    return html


#: parsed prose kept in the build cache (`BuildCache.prose.tokens`), by (allow_html, text): a
#: rebuild after a token edit (`pinup serve`) parses none of the unchanged prose again. Readers
#: never change the tokens (rendering only sets heading ids, the same ones each time). Its HTML is
#: kept by the same key (kind "html" of `pinup.prosememo`, on disk too): rendering depends only on
#: the tokens (each render starts with a fresh env, so heading ids come out the same every time).
_PARSED_MAX = 2048


class MarkdownCache:
    """Parse each distinct text once per build cache: several pages read the same section's tokens.

    The parser is made (and markdown-it-py imported) only when a text must be parsed: a rebuild
    whose prose products are all remembered (`pinup.prosememo`) never needs it.
    """

    def __init__(self, allow_html: bool = False) -> None:
        self.allow_html = allow_html

    def tokens(self, text: str) -> list[Any]:
        key = (self.allow_html, text)
        parsed = active().prose.tokens
        found = parsed.get(key)
        if found is None:
            found = remember(parsed, key, parser_for(text, self.allow_html).parse(text, {}), _PARSED_MAX)
        return found

    def html(self, text: str) -> str:
        if not text.strip():
            return ""
        key = (self.allow_html, text)
        found = recall("html", key)
        if found is None:
            md = markdown_parser(self.allow_html)
            found = keep("html", key, str(md.renderer.render(self.tokens(text), md.options, {})))
        return str(found)
