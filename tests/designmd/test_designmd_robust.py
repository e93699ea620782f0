"""Malformed input never raises: it becomes findings with line numbers. Large files work."""

from __future__ import annotations

import random

import pytest
from helpers_designmd import CORPUS, corpus_files, read_text

from pinup.designmd.lint import lint_text, run
from pinup.designmd.parser import parse_document


def _mutations(text: str, seed: int) -> list[str]:
    rng = random.Random(seed)
    lines = text.split("\n")
    out = []
    for _ in range(12):
        choice = rng.randrange(7)
        if choice == 0 and text:
            out.append(text[: rng.randrange(len(text))])  # truncated anywhere
        elif choice == 1 and lines:
            copy = list(lines)
            i = rng.randrange(len(copy))
            copy.insert(i, copy[i])  # duplicated line (duplicate keys, headings)
            out.append("\n".join(copy))
        elif choice == 2 and lines:
            copy = list(lines)
            i = rng.randrange(len(copy))
            copy[i] = "\t" + copy[i]  # tab indentation
            out.append("\n".join(copy))
        elif choice == 3 and text:
            i = rng.randrange(len(text))
            out.append(
                text[:i] + rng.choice(['"', "'", "{", "[", ":", "#", "\x00", "\r", "&a ", "*a", "!!int "]) + text[i:]
            )
        elif choice == 4:
            out.append(text.replace("\n", "\r\n", rng.randrange(1, 20)))
        elif choice == 5 and lines:
            copy = list(lines)
            rng.shuffle(copy)
            out.append("\n".join(copy))
        else:
            out.append("\ufeff" + text.replace("  ", "   ", rng.randrange(1, 10)))
    return out


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_mutated_corpus_never_raises(path) -> None:  # type: ignore[no-untyped-def]
    for index, text in enumerate(_mutations(read_text(path), hash(path.name) & 0xFFFF)):
        for extended in (False, True):
            result = run(text, extended=extended)
            for finding in result.findings:
                assert finding.severity in ("error", "warning", "info")
                if finding.path is not None or finding.rule is None:
                    assert finding.line is not None, (path.name, index, finding)
        report = lint_text(text)
        assert report.summary.errors == sum(f.severity == "error" for f in report.findings)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "---",
        "---\n",
        "---\n---",
        "```yaml",
        "```yaml\n",
        "## ",
        "\ufeff",
        "\x00\x00",
        "---\n- a\n- [b\n---",
        "---\na: &a [*a]\n---",
        "---\ncolors: &c\n  x: *c\n---",
        "---\n" + "a:\n" + "  " * 300 + "b: 1\n---",
        "---\ncolors:\n" + "".join(f"  {'  ' * i}l{i}:\n" for i in range(400)) + "---",
        "---\n" + "[" * 2000 + "\n---",
        '---\ncomponents:\n  x:\n    backgroundColor: "{colors.a}"\ncolors:\n  a: "{colors.a}"\n---',
        "---\ntypography:\n  body: ~\n---",
    ],
)
def test_hostile_inputs_never_raise(text: str) -> None:
    report = lint_text(text)
    for finding in report.findings:
        assert finding.message


def test_alias_cycle_stops_at_depth_limit() -> None:
    result = run("---\ncolors: &c\n  primary: '#000'\n  loop: *c\n---\n")
    assert any("nesting depth" in f.message for f in result.findings)


def big_document(count: int) -> str:
    lines = ["---", "name: Big", "colors:", '  primary: "#0b57d0"']
    lines += [f'  c{i}: "#{(i * 2654435761) % 0xFFFFFF:06x}"' for i in range(count)]
    lines += ['  broken: "#xyz"', "components:"]
    for i in range(count // 10):
        lines += [f"  comp{i}:", f'    backgroundColor: "{{colors.c{i}}}"', '    textColor: "{colors.primary}"']
    lines += ["---", ""]
    for section in ("Overview", "Colors", "Typography"):
        lines += (
            [f"## {section}", ""] + [f"Line {i} of {section} prose with **bold** text." for i in range(2000)] + [""]
        )
    return "\n".join(lines)


def test_several_hundred_kb_file() -> None:
    text = big_document(5000)
    assert len(text.encode()) > 300_000
    report = lint_text(text)
    assert len(report.design.colors) == 5001
    assert len(report.design.components) == 500
    bad = [f for f in report.findings if f.path == "colors.broken"]
    assert len(bad) == 1 and bad[0].line == 5005
    assert report.design.lines["colors.c4999"] == 5004
    assert [s.heading for s in report.design.sections] == ["Overview", "Colors", "Typography"]
    orphans = [f for f in report.findings if f.rule == "orphaned-tokens"]
    assert len(orphans) == 4500
    assert report.summary.infos == 3  # token summary + missing spacing + missing rounded


def test_parse_keeps_heading_lines_with_crlf_and_bom() -> None:
    plain = parse_document(read_text(CORPUS / "full-ok.md"))
    crlf = parse_document(read_text(CORPUS / "bom-crlf.md"))
    assert [(h.text, h.line) for h in plain.headings] == [(h.text, h.line) for h in crlf.headings]


def _md_lines(text: str) -> list[str]:
    from pinup.designmd.parser import find_front_matter, split_lines

    lines = split_lines(text.removeprefix("\ufeff"))
    close = find_front_matter(lines)
    return lines if close is None else [""] * (close + 1) + lines[close + 1 :]


def _markdown_samples() -> list[tuple[str, str]]:
    from helpers_designmd import ROOT

    paths = corpus_files() + sorted(ROOT.glob("brand_refs/*/DESIGN.md")) + sorted(ROOT.glob("site_src/DESIGN.md"))
    samples = []
    for path in paths:
        text = read_text(path)
        samples.append((path.name, text))
        samples += [(f"{path.name}~{i}", t) for i, t in enumerate(_mutations(text, len(text)))]
    tricky = [
        "## A\n---\n",
        "Para\n## B\n",
        "- item\n\n  ```yaml\n  a: 1\n  ```\n",
        "```yaml\na: 1\n",
        "```yaml\n```\n",
        "## C ##\n",
        "## #\n",
        "##\n",
        "## C#\n",
        "``` yaml extra\nk: v\n```\n",
        "~~~~yml\nk: v\n~~~\n~~~~\n",
        "text\n```yaml\nk: v\n```\n",
        "1. one\n2. two\n## After\n",
        "Para\n===\n",
        "***\n## X\n",
        "## Do's and Don'ts\n",
        "# H1\n### H3\n## H2 text  \n",
        "[ref]: /url\n## Link\n",
        "  ## Indented two\n",
        "```\n## not\n```\n## yes\n",
    ]
    samples += [(f"tricky{i}", t) for i, t in enumerate(tricky)]
    return samples


def test_fast_markdown_scan_agrees_with_markdown_it() -> None:
    from pinup.designmd.parser import scan_markdown, scan_simple

    answered = 0
    for name, text in _markdown_samples():
        lines = _md_lines(text)
        simple = scan_simple(lines)
        if simple is None:
            continue
        answered += 1
        assert simple == scan_markdown(lines), name
    assert answered > 50  # the fast path really is used


def test_fast_markdown_scan_on_random_documents() -> None:
    """Random documents built from lines CommonMark treats specially; fixed seed, so it is repeatable."""
    from pinup.designmd.parser import scan_markdown, scan_simple

    pieces = [
        "## Colors",
        "## Brand & Style",
        "##Colors",
        "  ## Two",
        "### Three",
        "# One",
        "## Colors ##",
        "## `x`",
        "Text line",
        "more text",
        "",
        "",
        "---",
        "===",
        "***",
        "- item",
        "* item",
        "1. item",
        "  continued",
        "```yaml",
        "```",
        "~~~yml",
        "~~~",
        "````",
        "key: value",
        "  nested: 1",
        "> quote",
        "<div>",
        "    code",
        "- ## Shapes",
        "- **Bold** item",
        "- `#fff` code",
        "1. **x**",
        "* *em*",
        "-  two spaces",
        "- - nested",
        "- ```yaml",
        "-",
        "+ > q",
        "10) ten",
        "  ```yaml",
        "   ~~~",
        "[a]: /b",
        "## A *b*",
        "##",
        "## #",
        "## C#",
        "text ## not",
        "\\## escaped",
        "## Do's",
    ]
    rng = random.Random(20260101)
    answered = 0
    for _ in range(3000):
        lines = [rng.choice(pieces) for _ in range(rng.randrange(1, 14))]
        simple = scan_simple(lines)
        if simple is None:
            continue
        answered += 1
        assert simple == scan_markdown(lines), lines
    assert answered > 300
