"""The Jinja `Template` class of pinup's environments: how it prints, and when it looks at its file.

Printing. A site build prints about 80,000 values; MarkupSafe's `escape` wraps each
escaped string in a `Markup` (a Python-level constructor) that the page then joins into
one string anyway. What a template *prints* only needs the escaped text, so the compiled
templates' `escape` is swapped for `fast_escape`, which returns that text as a plain `str`
for plain strings and defers to MarkupSafe for everything else (`Markup`, objects with
`__html__`, numbers, undefined values). Jinja's compiler calls `escape` only on what an
output node prints (checked in tests/docsite/test_templating_template.py), and every place
where the type matters (macros, `{% set %}` blocks, `~`) builds its own `Markup` from the
joined text, so pages come out byte-identical.

Freshness. Jinja checks a cached template's file (a `stat`) on every `get_template`: a
page's template, its base, the includes and imports, about nine per page, 2,200 for the
gallery. A template here checks its file once per build instead: `new_build()` (called
when an output writer is made, i.e. when a build starts) makes every template look again
the next time it is used, so `pinup serve` and other long-running processes still pick
up an edited template on their next build.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from markupsafe import Markup, escape

if TYPE_CHECKING:  # pragma: no cover
    from jinja2 import Template


def _escape_fallback(text: str, /) -> str:
    return str(escape(text))


try:  # MarkupSafe's own escaping of the characters (its C speedup when built), without the Markup
    from markupsafe import _escape_inner as _escape_text
except ImportError:  # pragma: no cover - a MarkupSafe without it
    _escape_text = _escape_fallback


#: the current build's number; a template checked its file in build `_checked`
_build = [0]


def new_build() -> None:
    """A build starts: every template checks its file (once) before it is used again."""
    _build[0] += 1


def fast_escape(value: Any) -> str:
    """`str(markupsafe.escape(value))`, faster for plain strings (most of what a page prints)."""
    kind = type(value)
    if kind is str:
        return _escape_text(value)
    if kind is Markup:  # a macro's or `|safe` value: already safe, printed as it is
        marked: Markup = value
        return marked
    return escape(value)


@lru_cache(maxsize=1)
def template_class() -> type[Template]:
    """The `Template` subclass pinup's environments use (see the module docstring)."""
    from jinja2 import Template

    class PinupTemplate(Template):
        _checked = -1

        @classmethod
        def _from_namespace(cls, environment: Any, namespace: Any, globals: Any) -> Template:
            # the compiled module imported jinja2.runtime.escape (MarkupSafe's); its render
            # functions look the name up in this namespace when they run
            if "escape" in namespace:
                namespace["escape"] = fast_escape
            template = cast(PinupTemplate, super()._from_namespace(environment, namespace, globals))
            template._checked = _build[0]  # just read from its file (or the bytecode of its source)
            return template

        @property
        def is_up_to_date(self) -> bool:
            build = _build[0]
            if self._checked == build:
                return True
            fresh = bool(super().is_up_to_date)
            if fresh:
                self._checked = build
            return fresh

    return PinupTemplate
