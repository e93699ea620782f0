"""The PyYAML-free reader of plain front matter gives exactly what the full YAML loader gives.

`yamlsimple.load_simple` answers only for a subset (nested mappings of one-line scalars, folded
and literal descriptions); wherever it answers, the value, the types, the key order and every
recorded source line must equal `yamlread.read.load_block`'s, and it must never accept a block the
full loader rejects. Checked on every DESIGN.md in the repository and on random blocks.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers_designmd import CORPUS, GOLDEN, ROOT, read_text
from hypothesis import given, settings
from hypothesis import strategies as st

from pinup.designmd import parser
from pinup.designmd.yamlload import YamlError
from pinup.designmd.yamlread.read import load_block
from pinup.designmd.yamlsimple import NOT_SIMPLE, load_simple


def _same(a: Any, b: Any, where: str = "") -> None:
    """Equal values of equal types, with equal `.line` / `.key_lines`, keys in the same order."""
    assert type(a) is type(b), (where, a, b)
    if isinstance(a, dict):
        assert list(a) == list(b), where
        assert a.line == b.line, where  # type: ignore[attr-defined]
        assert a.key_lines == b.key_lines, where  # type: ignore[attr-defined]
        for key in a:
            _same(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, list):
        assert len(a) == len(b) and a.line == b.line and a.item_lines == b.item_lines, where  # type: ignore[attr-defined]
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{where}[{index}]")
    elif isinstance(a, float) and a != a:
        assert b != b, where
    else:
        assert a == b, (where, a, b)


def _check(text: str, offset: int = 1) -> bool:
    """True when the simple reader answered (and agreed)."""
    simple = load_simple(text, offset)
    if simple is NOT_SIMPLE:
        return False
    try:
        full = load_block(text, offset)
    except YamlError as exc:  # pragma: no cover - the assertion message is the point
        raise AssertionError(f"simple reader accepted a block the loader rejects: {exc.message}\n{text}") from None
    _same(simple, full)
    return True


def _documents() -> list[tuple[str, str]]:
    paths = sorted(CORPUS.glob("*.md")) + sorted(ROOT.glob("brand_refs/*/DESIGN.md"))
    paths += sorted(ROOT.glob("site_src/DESIGN.md")) + sorted(GOLDEN.glob("*.md"))
    paths += sorted(ROOT.glob("tests/exports/corpus/*.md"))
    return [(str(p.relative_to(ROOT)), read_text(p)) for p in paths]


def _front_matter(text: str) -> str | None:
    lines = parser.split_lines(text.removeprefix("\ufeff"))
    close = parser.find_front_matter(lines)
    return "\n".join(lines[1:close]) if close else None


def test_agrees_on_every_design_md_in_the_repository() -> None:
    answered = 0
    documents = _documents()
    for _name, text in documents:
        block = _front_matter(text)
        if block is not None:
            answered += _check(block)
    assert answered > 20  # the brand references and the example really take the fast path
    assert load_simple(_front_matter(read_text(ROOT / "site_src" / "DESIGN.md")) or "") is not NOT_SIMPLE


@pytest.mark.parametrize("name", ["full-ok.md", "refs.md", "unicode.md", "integer-keys.md", "duplicate-key.md"])
def test_whole_documents_parse_the_same_either_way(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """parse_document with and without the fast reader: same data, lines and error."""
    text = read_text(CORPUS / name)
    fast = parser.parse_document(text)
    monkeypatch.setattr(parser, "load_simple", lambda text, offset=0: NOT_SIMPLE)
    full = parser.parse_document(text)
    assert list(fast.data) == list(full.data)
    for key in full.data:
        _same(fast.data[key], full.data[key], key)
    assert (fast.keys, fast.key_lines) == (full.keys, full.key_lines)
    fast_error = fast.error and (fast.error.code, fast.error.message, fast.error.line)
    full_error = full.error and (full.error.code, full.error.message, full.error.line)
    assert fast_error == full_error


def test_the_subset_and_what_falls_outside_it() -> None:
    assert _check("a: 1\nb:\n  c: '#fff'\n  d: \"x: y # z\"  # note\ne:\n")
    assert _check("description: >-\n  one\n  two\nname: x")
    assert _check("description: |\n  one\n  two\nname: x")
    assert _check("2: b\n1: a\nc: #comment\n")  # integer-like keys first, a comment is no value
    assert _check("a: one\n  two\n  three\nb: yes")
    assert _check("\"050\": a\n50: b\n'x y': c")  # quoted keys stay strings
    for outside in [
        "a: [1, [2]]",
        "a:\n  - x",
        "a: &x 1\nb: *x",
        "a: !!str 1",
        'a: "x\\ty"',
        "a: 1\na: 2",
        "a: b: c",
        "a:\n    b: 1\n  c: 2",
        "a: >-\n  one\n\n  two\nb: 1",
        "a: >-\n  end",
        "a:\tb",
        "a: x\x85y",
        "",
        "# only a comment",
        "---\na: 1",
    ]:
        assert load_simple(outside) is NOT_SIMPLE, outside


PIECES = [
    "name: Big",
    "colors:",
    "  primary: '#0b57d0'",
    '  primary: "#0b57d0"',
    "  on-primary: #fff",
    "  2: x",
    '  "2": quoted',
    '  "050": "#fafafa"',
    "  '1e3': single",
    '  "a b": spaced',
    '  "": empty',
    '  "x":y',
    '  "x" : y',
    '  "a\\"b": escaped',
    "  10: y",
    "  true: z",
    "  null: n",
    "  ~: m",
    "  0x1f: h",
    "  1e3: e",
    "  x: 1.50",
    "  x: .5",
    "  x: -0.0",
    "  x: 0o17",
    "  x: 017",
    "  x: .inf",
    "  x: yes",
    "  x: a:b",
    "  x: a: b",
    "  x: a #b",
    "  x: a#b",
    "  x: -a",
    "  x: - a",
    "  x: ? a",
    "  x: '' ",
    '  x: ""',
    "  x: 'a'b",
    "  x: {colors.primary}",
    "  x: a {b} [c], d",
    "  x: []",
    "  x: [a, 'b', \"c\", 1, .5, true, null]",
    "  x: [a b]",
    "  x: [a, [b]]",
    "  x: [-, ., +1, -.5e3, 0x1f, 1_000, %a, a%]",
    "  x: [a,]",
    "  x: [ a ,b ] # c",
    "  x: [a]b",
    '  x: ["#fff", "x, y"]',
    "    deeper: 1",
    "   odd: 1",
    "      continued words",
    "  continued: words",
    "typography:",
    "  h1:",
    "    fontFamily: Inter, sans-serif",
    "    fontSize: 12px",
    "description: >-",
    "description: |",
    "description: >",
    "  folded line",
    "    more indented",
    "",
    "# comment",
    "  # indented comment",
    "x:",
    "x: 1",
    "- item",
    "...",
]


def test_agrees_on_random_blocks() -> None:
    """Random blocks from lines YAML treats specially; fixed seed, so it is repeatable."""
    rng = random.Random(13)
    answered = 0
    for _ in range(4000):
        text = "\n".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 12)))
        answered += _check(text, rng.randrange(0, 5))
    assert answered > 300


VALUES = ['"#fff"', "'x y'", "12px", "1.5", "-0.02em", "Inter, sans-serif", "true", "null", "~", "0x10"]
VALUES += ["[a, 'b', \"c\"]", "[]", "a #c", "x:y", "{colors.primary}", '"{colors.primary}"', '"a" # c', "yes"]
VALUES += ["1e3", ".5", "+1", "-", "a - b", "é ü", "😀", "a\u00a0b", "| x"]
KEYS = ["primary", "on-primary", "2", "10", '"050"', "'a b'", "fontFamily", "x.y", "true", "1e2", "_p"]


def _nested(rng: random.Random, depth: int, indent: int, out: list[str]) -> None:
    """Random nested front matter: mappings, block scalars, multi-line plain values, comments."""
    for _ in range(rng.randrange(1, 5)):
        key, pad, roll = rng.choice(KEYS) + str(rng.randrange(3)), " " * indent, rng.random()
        if roll < 0.05:
            out.append(pad + "# comment")
        if roll < 0.25 and depth < 4:
            out.append(f"{pad}{key}:" + rng.choice(["", " ", "  # c"]))
            _nested(rng, depth + 1, indent + rng.choice([1, 2, 4]), out)
        elif roll < 0.32:
            out.append(f"{pad}{key}: " + rng.choice([">-", ">", "|", "|-"]))
            width = indent + rng.choice([1, 2, 3])
            out += [" " * width + rng.choice(["text here", "a: b", "# no comment", "x  "]) for _ in range(2)]
        elif roll < 0.36:
            out.append(f"{pad}{key}: word")
            out.append(" " * (indent + rng.choice([1, 2])) + rng.choice(["more words", "and: more", "- x"]))
        else:
            out.append(f"{pad}{key}: {rng.choice(VALUES)}")
        if rng.random() < 0.05:
            out.append(rng.choice(["", "   "]))


def test_agrees_on_random_nested_front_matter() -> None:
    rng = random.Random(12)
    answered = 0
    for _ in range(1500):
        out: list[str] = []
        _nested(rng, 0, 0, out)
        answered += _check("\n".join(out), rng.randrange(3))
    assert answered > 200


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=12), st.integers(0, 4))
def test_agrees_on_generated_blocks(lines: list[str], offset: int) -> None:
    """The same property with hypothesis choosing (and shrinking) the lines."""
    _check("\n".join(lines), offset)


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 2))
def test_agrees_on_generated_nested_front_matter(rng: random.Random, offset: int) -> None:
    out: list[str] = []
    _nested(rng, 0, 0, out)
    _check("\n".join(out), offset)


def test_lines_read_before_give_the_same_values_anywhere() -> None:
    """Lines are parsed once per process (a rebuild reads the new ones): a line seen before, in
    another document, mapping, place or line number, still reads as the full loader reads it."""
    first = 'colors:\n  primary: "#000000"\n  size: 12px\n  list: [a, b]\n  text: >\n    folded\n  next: 1'
    assert _check(first, 1)
    again = 'spacing:\n  size: 12px\n  list: [a, b]\ncolors:\n  list: [a, b]\n  primary: "#000000"\n  text: >\n    two\n  end: x'
    assert _check(again, 7)
    # the same line twice in one mapping is a duplicate, in two mappings it is not
    assert load_simple("a:\n  size: 12px\n  size: 12px") is NOT_SIMPLE
    assert _check("a:\n  size: 12px\nb:\n  size: 12px")
    # a plain scalar whose first line was read alone before goes on over the next line
    assert _check("x:\n  note: one")
    assert _check("a:\n  note: one\n    two\n  size: 12px")
