"""`construct` makes exactly the instance pydantic's `model_construct` makes.

Every document of the corpus and every bundled brand is linted into a report twice: with
`construct` as it is, and with it handing every class to `model_construct`. Both reports must
match model for model: the class, each field's value and its place in `__dict__`, the fields
marked as set, no extra and no private values, and what they dump to.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers_designmd import CORPUS, ROOT
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from pinup.designmd import construct as construct_module
from pinup.designmd.construct import construct
from pinup.designmd.lint import lint_text

DOCUMENTS = sorted(CORPUS.glob("*.md")) + sorted((ROOT / "brand_refs").glob("*/DESIGN.md"))


def _same(made: Any, reference: Any, where: str) -> None:
    assert type(made) is type(reference), where
    if isinstance(reference, BaseModel):
        assert list(made.__dict__) == list(reference.__dict__), where  # declaration order, defaults included
        assert made.__pydantic_fields_set__ == reference.__pydantic_fields_set__, where
        assert made.__pydantic_extra__ == reference.__pydantic_extra__, where
        assert made.__pydantic_private__ == reference.__pydantic_private__, where
        for name, value in reference.__dict__.items():
            _same(made.__dict__[name], value, f"{where}.{name}")
    elif isinstance(reference, dict):
        assert list(made) == list(reference), where
        for key, value in reference.items():
            _same(made[key], value, f"{where}[{key!r}]")
    elif isinstance(reference, (list, tuple)):
        assert len(made) == len(reference), where
        for index, (one, other) in enumerate(zip(made, reference, strict=True)):
            _same(one, other, f"{where}[{index}]")
    else:
        assert made == reference or (made != made and reference != reference), where  # NaN is NaN


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_reports_match_model_construct(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = path.read_text("utf-8", errors="replace")
    for extended in (False, True):
        made = lint_text(text, extended=extended, modes=True)
        with monkeypatch.context() as patch:
            patch.setattr(construct_module, "_MAKERS", {})
            patch.setattr(construct_module, "_maker", lambda cls: lambda values: cls.model_construct(**values))
            reference = lint_text(text, extended=extended, modes=True)
        _same(made, reference, "report")
        _same(made.model_dump(), reference.model_dump(), "dump")


class _Plain(BaseModel):
    kind: str = "plain"
    size: int
    tags: list[str] = Field(default_factory=list)
    notes: dict[str, str] = {}
    label: str | None = None


def test_defaults_are_fresh_and_unset_fields_are_not_marked() -> None:
    one, two = construct(_Plain, size=1), construct(_Plain, size=2, label="x", unknown=3)
    assert one.tags is not two.tags and one.notes is not two.notes  # copied per instance, as pydantic does
    for values in ({"size": 1}, {"size": 2, "label": "x", "unknown": 3}, {}):
        _same(construct(_Plain, **values), _Plain.model_construct(**values), repr(values))
    one.label = "set later"  # a constructed model can still be changed, and knows it was
    assert one.__pydantic_fields_set__ == {"size", "label"}


class _Aliased(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    name: str = Field(alias="Name")


class _Extra(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str = ""


class _Private(BaseModel):
    name: str = ""
    _seen: int = PrivateAttr(default=0)


@pytest.mark.parametrize("cls", [_Aliased, _Extra, _Private])
def test_classes_it_cannot_mirror_go_to_model_construct(cls: type[BaseModel]) -> None:
    made = construct(cls, Name="a", name="b", other=1)
    reference = cls.model_construct(Name="a", name="b", other=1)
    assert made.__dict__ == reference.__dict__
    assert made.__pydantic_extra__ == reference.__pydantic_extra__
    assert made.__pydantic_fields_set__ == reference.__pydantic_fields_set__
    assert made.__pydantic_private__ == reference.__pydantic_private__
    assert not isinstance(construct_module._MAKERS[cls], construct_module._Maker)
