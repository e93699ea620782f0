"""`pinup lint FILE` starts light: which modules the installed console script imports, and the
hand-written pieces that let it skip `decimal` and PyYAML give the same bytes.

Structural, not timed: the modules a run imports are read from `python -X importtime`.
"""

from __future__ import annotations

import random
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from helpers_designmd import CORPUS, ROOT

from pinup.designmd.jsnum import js_number, to_fixed

SCRIPT = Path(sys.executable).parent / "pinup"  # the console script `pip install` wrote
#: never on the lint path: web, templating, validation, full Markdown, cloud
HEAVY = {"pydantic", "jinja2", "markdown_it", "starlette", "boto3", "openai", "mkdocs", "ruamel"}
#: not needed either when the front matter is plain (the usual case): each costs start-up time
AVOIDABLE = {"yaml", "dataclasses", "decimal", "pathlib", "importlib.metadata"}


def _imported(*args: str) -> tuple[int, set[str]]:
    """Exit status and every module the `pinup` console script imports for `args`."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", str(SCRIPT), *args], capture_output=True, timeout=120, check=False
    )
    lines = result.stderr.decode().splitlines()
    names = {line.rsplit("|", 1)[-1].strip() for line in lines if line.startswith("import time:")}
    return result.returncode, names


def _tops(names: set[str]) -> set[str]:
    return {n for n in names if n.split(".")[0] in HEAVY or n in AVOIDABLE}


PLAIN = [CORPUS / "full-ok.md", CORPUS / "refs.md", ROOT / "site_src" / "DESIGN.md"]


def test_the_console_script_is_the_thin_entry() -> None:
    assert SCRIPT.exists(), SCRIPT
    assert "from pinup.cli import main" in SCRIPT.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", PLAIN, ids=lambda p: p.name)
@pytest.mark.parametrize("fmt", ["json", "md"])
def test_lint_of_plain_front_matter_imports_none_of_the_heavy_or_avoidable(path: Path, fmt: str) -> None:
    code, names = _imported("lint", str(path), "--format", fmt)
    assert code in (0, 1)
    assert "pinup.designmd.lint" in names and "pinup.designmd.yamlsimple" in names  # it really ran
    assert _tops(names) == set()


def test_other_forms_still_skip_the_heavy_stack() -> None:
    """`--extended --format text`, several files, a folder, and YAML the fast reader leaves to the full reader."""
    for args in (
        ("lint", "--extended", "--format", "text", str(CORPUS / "full-ok.md")),
        ("lint", str(CORPUS / "full-ok.md"), str(CORPUS / "refs.md")),
        ("lint", "-r", str(ROOT / "brand_refs")),
        ("lint", str(CORPUS / "anchors.md")),
    ):
        code, names = _imported(*args)
        assert code in (0, 1, 2), args
        assert "pinup.designmd.lint" in names, args
        assert {n for n in names if n.split(".")[0] in HEAVY} == set(), args


def test_yaml_the_fast_reader_declines_goes_through_the_port_of_the_yaml_library() -> None:
    _, names = _imported("lint", str(CORPUS / "anchors.md"))
    assert "pinup.designmd.yamlread.read" in names
    assert "yaml" not in names and not {n for n in names if n.startswith("ruamel")}


def _decimal_to_fixed(value: float, digits: int) -> str:
    if value != value:
        return "NaN"
    if abs(value) == float("inf") or abs(value) >= 1e21:
        return js_number(value)
    text = format(Decimal(value).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP), "f")
    return text[1:] if text.startswith("-") and Decimal(text) == 0 else text


def test_to_fixed_rounds_exactly_like_decimal_half_up() -> None:
    rng = random.Random(7)
    values = [0.0, -0.0, 0.125, -0.125, 2.5, 1.005, 4.495, 4.5, 9.995, -0.001, 1e20, 5e-324, float("nan")]
    values += [rng.uniform(-50, 50) for _ in range(3000)] + [k / 1000 for k in range(-2000, 2000)]
    for value in values:
        for digits in (0, 1, 2, 3):
            assert to_fixed(value, digits) == _decimal_to_fixed(value, digits), (value, digits)
