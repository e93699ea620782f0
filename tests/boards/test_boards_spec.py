"""board.yaml loading: valid boards load, bad ones fail with the file and the line."""

from __future__ import annotations

import copy
import dataclasses
import os
import sys
from pathlib import Path

import pytest

from pinup.boards.spec import BoardError, RoundSpec, VariantSpec, load_board, parse_board_yaml
from pinup.buildcache import BuildCache, using

EXAMPLE = Path(__file__).resolve().parents[2] / "site_src" / "boards"


def make_board(tmp_path: Path, yaml_text: str, files: dict[str, str] | None = None, slug: str = "demo") -> Path:
    folder = tmp_path / slug
    folder.mkdir(parents=True)
    (folder / "board.yaml").write_text(yaml_text)
    for rel, text in (files or {"a.html": "<p>A</p>", "b.png": "x"}).items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    return folder


GOOD = """title: Demo
brief: Which one?
variants:
  - id: A
    label: First
    file: a.html
  - id: B
    file: b.png
    device: phone
"""


def test_example_boards_load() -> None:
    slugs = []
    for folder in sorted(EXAMPLE.iterdir()):
        board = load_board(folder)
        slugs.append(board.slug)
        assert len(board.spec.variants) >= 3
        for vid, path in board.files.items():
            assert path.is_file(), vid
    assert slugs == ["sighting-badge", "trail-home"]
    kinds = {v.kind for v in load_board(EXAMPLE / "trail-home").spec.variants}
    assert kinds == {"html"}
    assert {v.kind for v in load_board(EXAMPLE / "sighting-badge").spec.variants} == {"image"}


def test_good_board_defaults(tmp_path: Path) -> None:
    board = load_board(make_board(tmp_path, GOOD))
    assert board.spec.round == 1
    assert board.spec.device == "desktop"
    assert [v.kind for v in board.spec.variants] == ["html", "image"]
    assert board.spec.variants[1].device == "phone"
    assert board.spec.manifest("demo") == {"board": "demo", "title": "Demo", "round": 1, "variants": ["A", "B"]}


@pytest.mark.parametrize(
    ("text", "line", "needle"),
    [
        (GOOD.replace("  - id: B", "  - id: A"), 7, "used twice"),
        (GOOD.replace("file: b.png", "file: b.gif"), 8, "not supported"),
        (GOOD.replace("device: phone", "device: watch"), 9, "variants.1.device"),
        (GOOD.replace("id: B", "id: 'B C'"), 7, "variant id"),
        ("title: Demo\nvariants: []\n", 2, "variants"),
        ("title: [unclosed\n", 2, "invalid YAML"),
        ("- just\n- a list\n", 1, "mapping"),
        (GOOD.replace("title: Demo\n", "round: 0\ntitle: Demo\n"), 1, "round"),
    ],
)
def test_bad_board_names_file_and_line(tmp_path: Path, text: str, line: int, needle: str) -> None:
    folder = make_board(tmp_path, text)
    with pytest.raises(BoardError) as info:
        load_board(folder)
    err = info.value
    assert err.path == folder / "board.yaml"
    assert err.line == line, str(err)
    assert needle in str(err)
    assert str(err).startswith(f"{folder / 'board.yaml'}:{line}: ")


def test_yaml_tags_are_not_constructed(tmp_path: Path) -> None:
    text = "title: !!python/object/apply:os.system ['echo pwned']\nvariants: []\n"
    with pytest.raises(BoardError, match="invalid YAML"):
        parse_board_yaml(tmp_path / "board.yaml", text)


def test_variant_outside_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "secret.html").write_text("<p>secret</p>")
    folder = make_board(tmp_path, GOOD.replace("file: a.html", "file: ../secret.html"))
    with pytest.raises(BoardError, match="outside the board folder"):
        load_board(folder)


def test_symlink_out_of_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "secret.html").write_text("<p>secret</p>")
    folder = make_board(tmp_path, GOOD.replace("file: a.html", "file: link.html"))
    os.symlink(tmp_path / "secret.html", folder / "link.html")
    with pytest.raises(BoardError, match="outside the board folder"):
        load_board(folder)


def test_absolute_and_missing_files(tmp_path: Path) -> None:
    folder = make_board(tmp_path, GOOD.replace("file: a.html", "file: /etc/hosts.html"))
    with pytest.raises(BoardError, match="relative"):
        load_board(folder)
    folder2 = make_board(tmp_path, GOOD.replace("file: a.html", "file: nope.html"), slug="demo2")
    with pytest.raises(BoardError, match="does not exist"):
        load_board(folder2)


def test_history_must_be_earlier(tmp_path: Path) -> None:
    text = GOOD + "history:\n  - round: 1\n    variants: []\n"
    with pytest.raises(BoardError, match="history round 1"):
        load_board(make_board(tmp_path, text))
    ok = GOOD.replace("title: Demo", "title: Demo\nround: 2") + "history:\n  - round: 1\n    variants: []\n"
    assert load_board(make_board(tmp_path, ok, slug="ok")).spec.history[0].round == 1


def test_example_html_variants_use_design_tokens() -> None:
    """The hand-made variants take every colour from the example DESIGN.md (no stray palette)."""
    import re

    from pinup.designmd.lint import lint_path

    design = lint_path(EXAMPLE.parent / "DESIGN.md").design
    palette = {c.hex.lower() for c in design.colors.values()}
    for html in sorted((EXAMPLE / "trail-home" / "variants").glob("*.html")):
        text = html.read_text()
        used = {h.lower() for h in re.findall(r"#[0-9a-fA-F]{6}\b", text)}
        assert used and used <= palette, (html.name, sorted(used - palette))
        assert "http://" not in text and "https://" not in text  # no network
    for svg in sorted((EXAMPLE / "sighting-badge" / "variants").glob("*.svg")):
        used = {h.lower() for h in re.findall(r"#[0-9a-fA-F]{6}\b", svg.read_text())}
        assert used <= palette, (svg.name, sorted(used - palette))


def test_a_text_parsed_before_is_not_read_again_and_each_caller_gets_its_own_spec(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pinup serve` parses every board.yaml after each edit: the same text is parsed once per process."""
    from pinup.boards import spec as spec_module

    monkeypatch.setenv("PINUP_CACHE_DIR", str(tmp_path / "cache"))  # no spec saved by another test
    calls: list[str] = []
    parse = spec_module._parse
    monkeypatch.setattr(spec_module, "_parse", lambda path, text: calls.append(text) or parse(path, text))
    path = tmp_path / "board.yaml"
    with using(BuildCache()):  # the builds of one `pinup serve`
        first = parse_board_yaml(path, GOOD)
        second = parse_board_yaml(path, GOOD)
        assert len(calls) == 1
        assert first == second and first is not second
        first.variants[0].label = "changed by a caller"
        first.variants.append(dataclasses.replace(first.variants[0]))
        third = parse_board_yaml(path, GOOD)
        assert third.variants[0].label == "First" and len(third.variants) == 2  # the cached spec is untouched
        changed = parse_board_yaml(path, GOOD.replace("Which one?", "Which two?"))
        assert changed.brief == "Which two?" and len(calls) == 2


def test_a_later_process_loads_a_validated_spec_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A text validated once is kept in the site cache: a later process (here, an empty memo) loads it,
    equal to a fresh parse, without parsing; a text that fails is never kept, so it fails again with its line."""
    from pinup.boards import spec as spec_module

    monkeypatch.setenv("PINUP_CACHE_DIR", str(tmp_path / "cache"))
    calls: list[str] = []
    parse = spec_module._parse
    monkeypatch.setattr(spec_module, "_parse", lambda path, text: calls.append(text) or parse(path, text))
    path = tmp_path / "board.yaml"
    bad = GOOD.replace("    file: b.png\n", "    file: b.exe\n")
    for process in range(2):
        with using(BuildCache()):  # a new process's
            loaded = parse_board_yaml(path, GOOD)
            assert loaded == parse(path, GOOD) and loaded.variants[1].kind == "image"
            with pytest.raises(BoardError) as failure:
                parse_board_yaml(path, bad)
        assert failure.value.line == 8
        assert calls == [[GOOD, bad], [GOOD, bad, bad]][process]  # the second process parses only the bad one
    monkeypatch.setenv("PINUP_NO_CACHE", "1")  # off: parsed again
    with using(BuildCache()):
        parse_board_yaml(path, GOOD)
    assert calls == [GOOD, bad, bad, GOOD]


def test_a_bad_text_fails_with_its_line_every_time(tmp_path: Path) -> None:
    path = tmp_path / "board.yaml"
    bad = GOOD.replace("    file: b.png\n", "    file: b.exe\n")
    for _ in range(2):
        with pytest.raises(BoardError) as failure:
            parse_board_yaml(path, bad)
        assert failure.value.line == 8 and "file type .exe is not supported" in str(failure.value)


def test_a_parsed_spec_holds_the_validated_values_and_its_defaults(tmp_path: Path) -> None:
    """Numbers YAML read as ints become variant ids, unknown keys are ignored, defaults are filled."""
    text = GOOD.replace(
        "variants:",
        "round: 3\ndevice: tablet\nnotes: kept out\nhistory:\n  - round: 1\n    variants:\n"
        "      - id: 7\n        file: old.html\nvariants:",
    )
    spec = parse_board_yaml(tmp_path / "board.yaml", text)
    assert (spec.round, spec.device, spec.history) == (
        3,
        "tablet",
        [RoundSpec(round=1, variants=[VariantSpec(id="7", file="old.html")])],
    )
    assert not hasattr(spec, "notes") and spec.variants[0].device is None and spec.history[0].variants[0].label == ""
    for folder in sorted(EXAMPLE.iterdir()):
        assert parse_board_yaml(folder / "board.yaml").variants
    copied = copy.deepcopy(spec)
    assert copied == spec and copied.variants[0] is not spec.variants[0]
    shallow = dataclasses.replace(spec.variants[0])
    assert shallow == spec.variants[0] and shallow is not spec.variants[0]


def test_the_board_page_contract_is_the_schema_s_and_survives_without_a_source_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    from pinup.boards import limits

    monkeypatch.setenv("PINUP_CACHE_DIR", str(tmp_path / "cache"))
    expected = (limits.field_limits(), limits.schema_version(), limits.v2_fields())
    assert expected[0]["comment"] > 0 and expected[1] >= 2 and "pins" in expected[2]
    with using(BuildCache()):  # once per build cache
        assert limits.page_contract() == expected and limits.page_contract() is limits.page_contract()
    schema = sys.modules.pop("pinup_feedback.schema")  # as in a build process that never loaded it
    try:
        assert limits._cached_contract() == expected  # computed and kept
        assert limits._cached_contract() == expected  # loaded from the cache
        assert "pinup_feedback.schema" not in sys.modules
        monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
        assert limits._cached_contract() == expected  # asked of the module itself
    finally:
        sys.modules["pinup_feedback.schema"] = schema


def test_the_board_spec_s_json_schema_comes_from_its_classes() -> None:
    """What `board.yaml` may hold, described by pydantic from the dataclasses that validate it."""
    from pydantic import TypeAdapter

    from pinup.boards.spec import CheckedBoardSpec

    schema = TypeAdapter(CheckedBoardSpec).json_schema()
    assert schema["required"] == ["title", "variants"]
    assert schema["properties"]["variants"]["minItems"] == 1
    variant = schema["$defs"]["VariantSpec"]
    assert variant["required"] == ["id", "file"]
    assert variant["properties"]["file"]["description"] == "Relative to the board folder."
