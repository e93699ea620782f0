"""Conformance with the reference CLI (`@google/design.md` 0.4.0 from node_modules) as an oracle.

For every corpus file, the bundled example and the brand references, `pinup lint` must report the
same findings (severity, path, rule, order, message) and summary, with the same exit status, in
JSON and Markdown, byte for byte (YAML error messages included). `diff` must print the same output. `diff` must print the same JSON.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from cli_runner import run_forked as run_pinup  # output-only: forks of a warm `pinup` (tests/cli_runner.py)
from helpers_designmd import CORPUS, HERE, ROOT, corpus_files
from reference_oracle import ReferenceOracle

pytestmark = pytest.mark.node


def _targets() -> list[Path]:
    extra = sorted(ROOT.glob("brand_refs/*/DESIGN.md")) + sorted(ROOT.glob("site_src/DESIGN.md"))
    return corpus_files() + extra


@pytest.fixture(scope="module")
def reference_runs(reference: ReferenceOracle) -> dict[str, tuple[int, str, int, str]]:
    """(json exit, json stdout, md exit, md stdout) per file, from the session's reference oracle."""

    def one(path: Path) -> tuple[int, str, int, str]:
        j = reference("lint", str(path))
        m = reference("lint", str(path), "--format", "md")
        return j.returncode, j.stdout, m.returncode, m.stdout

    return {str(path): one(path) for path in _targets()}


def _label(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", _targets(), ids=_label)
def test_lint_json_matches_reference(path: Path, reference_runs: dict[str, Any]) -> None:
    ref_code, ref_out, _, _ = reference_runs[str(path)]
    mine = run_pinup("lint", str(path))
    assert mine.returncode == ref_code, mine.stderr.decode()
    expected, actual = json.loads(ref_out), json.loads(mine.stdout)
    assert actual["summary"] == expected["summary"]
    assert len(actual["findings"]) == len(expected["findings"])
    for want, got in zip(expected["findings"], actual["findings"], strict=True):
        for key in ("severity", "path", "rule"):
            assert got.get(key) == want.get(key), (key, want, got)
        assert got["message"] == want["message"]
    assert mine.stdout.decode() == ref_out, "byte-for-byte JSON"


@pytest.mark.parametrize("path", _targets(), ids=_label)
def test_lint_markdown_matches_reference(path: Path, reference_runs: dict[str, Any]) -> None:
    _, _, ref_code, ref_out = reference_runs[str(path)]
    mine = run_pinup("lint", str(path), "--format", "md")
    assert mine.returncode == ref_code
    assert mine.stdout.decode() == ref_out


PAIRS = [
    (HERE / "diffpairs" / "before.md", HERE / "diffpairs" / "after.md"),
    (HERE / "diffpairs" / "after.md", HERE / "diffpairs" / "before.md"),
    (CORPUS / "full-ok.md", CORPUS / "components-edge.md"),
    (CORPUS / "refs.md", CORPUS / "colors-syntax.md"),
    (CORPUS / "typography-edge.md", CORPUS / "integer-keys.md"),
    (CORPUS / "invalid-yaml.md", CORPUS / "full-ok.md"),
    (CORPUS / "full-ok.md", CORPUS / "crlf.md"),
]


@pytest.mark.parametrize("before,after", PAIRS, ids=lambda p: p.name)
def test_diff_matches_reference(before: Path, after: Path, reference: ReferenceOracle) -> None:
    for extra in ([], ["--format", "md"]):
        ref = reference("diff", str(before), str(after), *extra)
        mine = run_pinup("diff", str(before), str(after), *extra)
        assert mine.returncode == ref.returncode
        assert mine.stdout.decode() == ref.stdout


@pytest.mark.parametrize("kind", ["missing", "directory"])
def test_read_errors_match_reference(kind: str, tmp_path: Path, reference: ReferenceOracle) -> None:
    target = tmp_path / "nope.md" if kind == "missing" else tmp_path
    ref = reference("lint", str(target))
    mine = run_pinup("lint", str(target))
    assert ref.returncode == mine.returncode == 2
    assert mine.stdout == b""
    assert mine.stderr.decode() == ref.stderr


def _random_design_md(rng: random.Random, n: int) -> str:
    colors = [
        '"#fff"',
        '"#0b57d0"',
        "red",
        "Tan",
        '"rgb(1 2 3)"',
        '"hsl(10 20% 30%)"',
        '"{colors.primary}"',
        '"{colors.a}"',
        '"{colors.b}"',
        '"{rounded.md}"',
        '"#GGG"',
        "12",
        "true",
        "",
        "[a]",
        '"oklch(0.5 0.1 20)"',
        '"color-mix(in srgb, red, blue 20%)"',
        "transparent",
        '"#00000080"',
        '"{colors.g0.a}"',
    ]
    dims = [
        "4px",
        "0.5rem",
        '"1em"',
        "50%",
        "0",
        '"{spacing.sm}"',
        '"{rounded.md}"',
        "auto",
        "12",
        '"-2px"',
        "1vh",
        '"{spacing.x}"',
        '"{typography.t0}"',
    ]
    names = [
        "primary",
        "on-primary",
        "secondary",
        "a",
        "b",
        "brand-500",
        "surface-dim",
        "inverse-on-surface",
        "accent",
        "x",
        "100",
        "050",
        "on-accent",
        "a-b",
    ]
    props = ["backgroundColor", "textColor", "rounded", "padding", "typography", "size", "borderColor", "height"]
    sections = [
        "Overview",
        "Colors",
        "Typography",
        "Layout",
        "Elevation",
        "Shapes",
        "Components",
        "Do's and Don'ts",
        "Brand & Style",
        "Notes",
        "Layout & Spacing",
        "colors",
    ]
    lines = ["---", f"name: Random {n}"]
    if rng.random() < 0.9:
        lines.append("colors:")
        used: set[str] = set()
        for _ in range(rng.randrange(0, 8)):
            key = rng.choice(names)
            if rng.random() < 0.15:
                group = f"g{rng.randrange(3)}"
                if group in used:
                    continue
                used.add(group)
                lines += [f"  {group}:", f"    {key}: {rng.choice(colors)}"]
            elif key not in used:
                used.add(key)
                lines.append(f"  {key}: {rng.choice(colors)}")
    if rng.random() < 0.7:
        lines.append("typography:")
        for i in range(rng.randrange(0, 4)):
            lines.append(f"  t{i}:")
            for prop, values in [
                ("fontFamily", ["Inter", "Tan", '"#333"']),
                ("fontSize", dims),
                ("fontWeight", ["400", '"500"', "bold", '""']),
                ("lineHeight", [*dims, "1.5", '"1.5"']),
                ("letterSpacing", dims),
                ("textTransform", ["upper"]),
            ]:
                if rng.random() < 0.5:
                    lines.append(f"    {prop}: {rng.choice(values)}")
            if lines[-1].endswith(":"):
                lines.append("    fontFamily: Inter")
    for group in ("rounded", "spacing"):
        if rng.random() < 0.7:
            lines.append(f"{group}:")
            for key in rng.sample(["sm", "md", "lg", "x", "full"], rng.randrange(0, 4)):
                lines.append(f"  {key}: {rng.choice(dims)}")
    if rng.random() < 0.7:
        lines.append("components:")
        for c in range(rng.randrange(0, 4)):
            lines.append(f"  comp{c}:")
            for prop in rng.sample(props, rng.randrange(1, 5)):
                lines.append(f"    {prop}: {rng.choice(colors + dims)}")
    if rng.random() < 0.2:
        lines.append("omitted:")
        lines += [f"  - {rng.choice(['spacing', 'Typography', 'rounded', 'colors', 'shadows'])}" for _ in range(2)]
    if rng.random() < 0.2:
        lines += [rng.choice(["colours:", "palette:", "fonts:", "Colors:"]), '  x: "#fff"']
    lines += ["---", ""]
    for section in rng.sample(sections, rng.randrange(0, 6)):
        lines += [f"## {section}", "", "Text.", ""]
    return "\n".join(lines)


def test_random_documents_match_reference(tmp_path: Path, reference: ReferenceOracle) -> None:
    """Differential test: 40 random DESIGN.md files (fixed seed) lint identically, byte for byte."""
    import random

    rng = random.Random(424242)
    paths = []
    for n in range(40):
        path = tmp_path / f"random-{n}.md"
        path.write_text(_random_design_md(rng, n), encoding="utf-8")
        paths.append(path)
    expected = reference.many(("lint", str(p)) for p in paths)
    for path, ref in zip(paths, expected, strict=True):
        mine = run_pinup("lint", str(path))
        assert (mine.returncode, mine.stdout.decode()) == (ref.returncode, ref.stdout), path.read_text()
