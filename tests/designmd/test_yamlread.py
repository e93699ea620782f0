"""The YAML reader gives the `yaml` library's (2.8.3) own answers: values, or the first error word for
word. Each expected text below is what `YAML.parse` of the reference's bundled library returned for
the input; the differential test (test_yaml_differential.py) checks the same through the reference CLI."""

from __future__ import annotations

import pytest

from pinup.designmd.yamlload import MAX_FLOW_DEPTH, YamlError, flow_too_deep
from pinup.designmd.yamlread.read import load_block

ERRORS = [
    (
        "list: [a, b\nnext: 1\n",
        "Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1:"
        "\n\nlist: [a, b\nnext: 1\n^\n",
    ),
    (
        "k: v\n  \tbad: tab\n",
        "Nested mappings are not allowed in compact mappings at line 1, column 4:\n\nk: v\n   ^\n",
    ),
    (
        "%YAML 1.2\nk: v\n",
        "Missing directives-end/doc-start indicator line at line 2, column 1:\n\n%YAML 1.2\nk: v\n^\n",
    ),
    ("a: '#abc\nb: c\n", "Missing closing 'quote at line 3, column 1:\n\nb: c\n\n^\n"),
    ("a: 1\n- item\n", "Implicit keys need to be on a single line at line 2, column 1:\n\na: 1\n- item\n^\n"),
    # columns count UTF-16 units, as in JavaScript: the emoji takes two
    ("k: '😀' z\n", "Unexpected scalar at node end at line 1, column 9:\n\nk: '😀' z\n        ^\n"),
    ("*😀x\n", "Unresolved alias (the anchor must be set before the alias): 😀x"),
    ('k: "\\UFFFFFFFF"\n', 'Invalid code point 4294967295 at line 1, column 1:\n\nk: "\\UFFFFFFFF"\n^\n'),
]
VALUES = [
    ("key: [1, 2]: x\n", {"key": [1, 2], "": "x"}),
    ("a: 1\n...\n", {"a": 1}),
    ("a: 1\n  folded text\n", {"a": "1 folded text"}),
    ("a: b\r\nc: d\r\n", {"a": "b", "c": "d"}),
    ("k: 😀 x\n", {"k": "😀 x"}),
    # a directive is trimmed as JavaScript trims (a BOM included): 1.3 is then only a warning
    ("%YAML 1.3\ufeff\n---\nk: v\n", {"k": "v"}),
]


@pytest.mark.parametrize(("text", "message"), ERRORS, ids=[text for text, _ in ERRORS])
def test_first_error_in_the_librarys_words(text: str, message: str) -> None:
    with pytest.raises(YamlError) as caught:
        load_block(text)
    assert caught.value.message == message


@pytest.mark.parametrize(("text", "value"), VALUES, ids=[text for text, _ in VALUES])
def test_values_as_the_library_makes_them(text: str, value: object) -> None:
    assert load_block(text) == value


def test_lines_of_keys_and_items_count_from_the_offset() -> None:
    value = load_block("colors:\n  a: '#fff'\n\n  b: [1,\n    2]\nlist:\n  - x\n  - y\n", 10)
    assert value.key_lines == {"colors": 11, "list": 16}
    assert value["colors"].key_lines == {"a": 12, "b": 14}
    assert value["list"].item_lines == [17, 18]


def test_flow_depth_counts_only_open_brackets_past_stray_closers() -> None:
    """The depth check reads the brackets alone: text between them and closers at depth 0 count
    for nothing, and only an opening past the limit refuses the block."""
    deep = "k: " + "[x, " * (MAX_FLOW_DEPTH + 1)
    assert flow_too_deep(deep)
    assert not flow_too_deep("k: " + "[a], {b: c} " * MAX_FLOW_DEPTH)
    assert flow_too_deep("]} " * 50 + deep)
    assert not flow_too_deep("]" * (MAX_FLOW_DEPTH + 50) + "[" * MAX_FLOW_DEPTH)
    with pytest.raises(YamlError, match="too deep"):
        load_block(deep + "\n")
