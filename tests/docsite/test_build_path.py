"""The build path makes the DESIGN.md model without validating it twice: it must equal a validated one.

`pinup.designmd.convert` uses `model_construct` (the model builder has already checked
every value), so these tests validate every model object of the report again, one level
at a time (nested models pass through validation as they are), and compare the reprs,
which show types too (`400.0` is not `400`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from pinup.designmd.lint import lint_path

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(
    [
        ROOT / "site_src" / "DESIGN.md",
        *(ROOT / "brand_refs").glob("*/DESIGN.md"),
        *(ROOT / "tests/designmd/corpus").glob("*.md"),
    ]
)


def models(value: Any) -> Iterator[BaseModel]:
    """Every pydantic object in `value`, depth first (through dicts, lists and fields)."""
    if isinstance(value, BaseModel):
        yield value
        for field in value.__dict__.values():
            yield from models(field)
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
        validated = type(obj).model_validate({k: obj.__dict__[k] for k in obj.model_fields_set})
        assert repr(validated) == repr(obj)
        assert validated.model_fields_set == obj.model_fields_set
        seen += 1
    assert seen >= 3  # the report, its design and its summary at least
    report.model_dump()  # serialising works on constructed models (no validator was built for them)


def test_files_cover_brands_and_the_corpus() -> None:
    assert len(FILES) > 60
