"""The build path makes the DESIGN.md model without validating it: every value must have its declared type.

`pinup.designmd.convert` makes the model's dataclasses directly (the model builder has already
checked every value), so these tests validate every object of the report again with pydantic,
one level at a time (nested objects pass through validation as they are), and compare the
reprs, which show types too (`400.0` is not `400`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from pinup.designmd.lint import lint_path
from pinup.designmd.model import LintReport

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(
    [
        ROOT / "site_src" / "DESIGN.md",
        *(ROOT / "brand_refs").glob("*/DESIGN.md"),
        *(ROOT / "tests/designmd/corpus").glob("*.md"),
    ]
)


def models(value: Any) -> Iterator[Any]:
    """Every model object in `value`, depth first (through dicts, lists and fields)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        yield value
        for field in dataclasses.fields(value):
            yield from models(getattr(value, field.name))
    elif isinstance(value, dict):
        for item in value.values():
            yield from models(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from models(item)


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_constructed_report_equals_the_validated_one(path: Path) -> None:
    report = lint_path(path, extended=True)
    seen = 0
    for obj in models(report):
        values = {field.name: getattr(obj, field.name) for field in dataclasses.fields(obj)}
        validated = TypeAdapter(type(obj)).validate_python(values)
        assert repr(validated) == repr(obj)
        seen += 1
    assert seen >= 3  # the report, its design and its summary at least
    dumped = TypeAdapter(LintReport).dump_python(report, mode="json")  # what `pinup schema` describes
    assert dumped["summary"] == dataclasses.asdict(report.summary)


def test_files_cover_brands_and_the_corpus() -> None:
    assert len(FILES) > 60


def test_the_model_s_json_schema_carries_each_field_s_docstring() -> None:
    """pydantic describes the model from the classes themselves: a field's docstring is its description."""
    schema = TypeAdapter(LintReport).json_schema()
    color = schema["$defs"]["Color"]
    assert color["required"] == ["hex", "r", "g", "b", "luminance"]
    assert color["properties"]["luminance"]["description"] == "WCAG 2.0 relative luminance from the 8-bit channels."
    assert schema["$defs"]["Finding"]["properties"]["severity"]["enum"] == ["error", "warning", "info"]
