"""board.yaml's schema as pydantic models: what a board.yaml read for the first time is checked against.

Only `pinup.boards.spec._parse` imports this module. What it accepts is kept (in the process and
in the build cache) as the plain classes of the same names in `pinup.boards.spec`, so a build
whose board.yaml files were all validated before never imports pydantic.
tests/boards/test_boards_spec.py holds the two to the same fields, order and defaults.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from pinup.boards import spec as plain
from pinup.boards.spec import VARIANT_ID, VARIANT_KINDS, Device

__all__ = ["BoardSpec", "RoundSpec", "ValidationError", "VariantSpec", "plain_spec"]

#: validators are built when a board.yaml is first validated in a process, not at import
_SPEC_CONFIG = ConfigDict(extra="allow", defer_build=True)


class VariantSpec(BaseModel):
    """One design variant on a board."""

    model_config = _SPEC_CONFIG

    id: str = Field(description="[A-Za-z0-9_-]{1,32}, unique on the board")
    label: str = ""
    file: str = Field(description="relative to the board folder")
    description: str = ""
    device: Device | None = None

    @field_validator("id", mode="before")
    @classmethod
    def _id_shape(cls, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str) or not VARIANT_ID.match(value):
            raise ValueError("variant id must match [A-Za-z0-9_-]{1,32}")
        return value

    @field_validator("file")
    @classmethod
    def _file_shape(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("file must not be empty")
        if os.path.isabs(value) or value.startswith(("/", "\\")):
            raise ValueError("file must be relative to the board folder")
        suffix = Path(value).suffix.lower()
        if suffix not in VARIANT_KINDS:
            allowed = " ".join(sorted({s for s in VARIANT_KINDS if s != ".htm"}))
            raise ValueError(f"file type {suffix or '(none)'} is not supported (use {allowed})")
        return value


class RoundSpec(BaseModel):
    """An earlier round kept in `history` (written by `pinup generate`)."""

    model_config = _SPEC_CONFIG

    round: int = Field(ge=1)
    variants: list[VariantSpec] = Field(default_factory=list)


class BoardSpec(BaseModel):
    """The whole board.yaml."""

    model_config = _SPEC_CONFIG

    title: str = Field(min_length=1)
    brief: str = ""
    round: int = Field(1, ge=1)
    device: Device = "desktop"
    variants: list[VariantSpec] = Field(min_length=1)
    history: list[RoundSpec] = Field(default_factory=list)

    @model_validator(mode="after")
    def _history_before_current(self) -> BoardSpec:
        for past in self.history:
            if past.round >= self.round:
                raise ValueError(f"history round {past.round} is not before the current round {self.round}")
        return self


def _plain_variant(model: VariantSpec) -> plain.VariantSpec:
    return plain.VariantSpec(
        id=model.id, label=model.label, file=model.file, description=model.description, device=model.device
    )


def plain_spec(model: BoardSpec) -> plain.BoardSpec:
    """The validated values as `pinup.boards.spec`'s plain classes (what builds keep and read)."""
    return plain.BoardSpec(
        title=model.title,
        brief=model.brief,
        round=model.round,
        device=model.device,
        variants=[_plain_variant(v) for v in model.variants],
        history=[
            plain.RoundSpec(round=r.round, variants=[_plain_variant(v) for v in r.variants]) for r in model.history
        ],
    )
