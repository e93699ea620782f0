"""pinup's Jinja template class prints what plain Jinja prints, and checks its files once per build."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jinja2 import DictLoader, Environment, StrictUndefined
from markupsafe import Markup, escape

from pinup.templating import environment
from pinup.templating_template import fast_escape, new_build, template_class


class Html:
    def __html__(self) -> str:
        return "<i>safe</i>"


@given(st.text())
def test_fast_escape_gives_markupsafes_text_for_any_string(text: str) -> None:
    assert fast_escape(text) == str(escape(text))
    assert fast_escape(Markup(text)) == str(escape(Markup(text)))


@pytest.mark.parametrize("value", [0, 12, -3.5, True, None, Html(), Markup("<b>x</b>"), ["<a>"], ("'",)])
def test_fast_escape_defers_to_markupsafe_for_other_values(value: object) -> None:
    assert fast_escape(value) == str(escape(value))


#: every construct whose output goes through escape: prints, macros (called, imported, with
#: caller), set blocks, `~`, filters, loops, includes, inheritance, |safe, numbers, markup
TEMPLATES = {
    "base.html": "<title>{% block title %}{{ title }}{% endblock %}</title>{% block body %}{% endblock %}",
    "macros.html": (
        "{% macro pill(text, kind='x') -%}<span class=\"{{ kind }}\">{{ text }}</span>{%- endmacro %}"
        "{% macro box() -%}<div>{{ caller() }}</div>{%- endmacro %}"
        "{% macro many() -%}{{ varargs|join('|') }}{{ kwargs|dictsort }}{%- endmacro %}"
    ),
    "part.html": "<p>{{ item.name }} & {{ item.value }}</p>",
    "page.html": (
        '{% extends "base.html" %}{% import "macros.html" as m %}'
        "{% block title %}{{ super() }} · {{ title|upper }}{% endblock %}"
        '{% block body %}{% from "macros.html" import pill %}'
        "{% set joined %}{{ title }}<{{ count }}>{% endset %}{{ joined }}|{{ joined|length }}"
        "{% set cat = title ~ ' & ' ~ count %}{{ cat }}"
        "{% for item in items %}{{ loop.index }}:{{ pill(item.name, kind=item.value) }}"
        "{% include 'part.html' %}{% endfor %}"
        "{% call m.box() %}{{ title }}{% endcall %}{{ m.many(1, '<', key='\"') }}"
        "{{ html|safe }}{{ html }}{{ markup }}{{ obj }}{{ 3.25 }}{{ none }}{{ flag }}"
        "{{ items|map(attribute='name')|join(', ') }}{{ '<' if flag else '>' }}{{ '%s<' % title }}"
        "{% endblock %}"
    ),
}
CONTEXT = {
    "title": 'Tom & "Jerry" <\'s>',
    "count": 3,
    "items": [{"name": "<a>", "value": "b&c"}, {"name": "d'e", "value": '"f"'}],
    "html": "<em>raw</em>",
    "markup": Markup("<strong>ok</strong>"),
    "obj": Html(),
    "none": None,
    "flag": True,
}


def test_pages_render_byte_identical_to_plain_jinja() -> None:
    options = {"autoescape": True, "trim_blocks": True, "lstrip_blocks": True, "undefined": StrictUndefined}
    plain = Environment(loader=DictLoader(TEMPLATES), **options)
    ours = Environment(loader=DictLoader(TEMPLATES), **options)
    ours.template_class = template_class()
    expected = plain.get_template("page.html").render(CONTEXT)
    assert "Tom &amp; &#34;Jerry&#34; &lt;&#39;s&gt;" in expected and "<em>raw</em>" in expected
    assert ours.get_template("page.html").render(CONTEXT) == expected
    template = ours.get_template("page.html")
    assert isinstance(template, template_class())
    assert template.root_render_func.__globals__["escape"] is fast_escape


def test_a_template_checks_its_file_once_per_build(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text("first {{ n }}", "utf-8")
    env = environment("results", str(tmp_path), None)
    new_build()
    assert env.get_template("page.html").render(n=1) == "first 1"
    page.write_text("second {{ n }}", "utf-8")
    stamp = page.stat()
    os.utime(page, ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 1_000_000_000))
    # the same build keeps what it loaded (no stat per lookup)...
    assert env.get_template("page.html").render(n=2) == "first 2"
    new_build()  # ...the next build sees the edit
    assert env.get_template("page.html").render(n=3) == "second 3"
