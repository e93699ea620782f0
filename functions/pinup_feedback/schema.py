"""The feedback body, versioned (schemaVersion 1), and the board manifest it is checked against.

Why a registry of versions: a later schema (pins on a variant, token tweaks) is added as a new
model under a new ``schemaVersion`` without touching v1 clients or stored records.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, model_validator

SCHEMA_VERSION = 1
VARIANT_ID_PATTERN = r"^[A-Za-z0-9_-]{1,32}$"
BOARD_SLUG_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"
MAX_VARIANTS = 64
MAX_COMMENT = 5000
MAX_OVERALL = 10000
MAX_ACTION = 2000
MAX_REVIEWER = 100

VariantId = Annotated[str, StringConstraints(pattern=VARIANT_ID_PATTERN)]
BoardSlug = Annotated[str, StringConstraints(pattern=BOARD_SLUG_PATTERN)]
ClientId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.:-]{1,64}$")]
Rating = Annotated[int, Field(ge=1, le=5, strict=True)]
Comment = Annotated[str, StringConstraints(max_length=MAX_COMMENT)]

MORE_LIKE = re.compile(r"^more_like_([A-Za-z0-9_-]{1,32})$")
RESERVED_ACTIONS = ("different", "remix")


class RemixSpec(BaseModel):
    """Which variant each aspect of the remix comes from."""

    model_config = ConfigDict(extra="forbid")

    layout: VariantId | None = None
    colors: VariantId | None = None
    typography: VariantId | None = None
    spacing: VariantId | None = None

    @model_validator(mode="after")
    def _not_empty(self) -> RemixSpec:
        if not any(self.variant_ids()):
            raise ValueError("remixSpec names no variant")
        return self

    def variant_ids(self) -> list[str]:
        return [v for v in (self.layout, self.colors, self.typography, self.spacing) if v]


class FeedbackV1(BaseModel):
    """What a board POSTs to /api/feedback (schemaVersion 1). Unknown fields are refused."""

    model_config = ConfigDict(extra="forbid", title="Feedback")

    schemaVersion: Literal[1]
    board: BoardSlug
    round: Annotated[int, Field(ge=1, le=100000, strict=True)]
    clientId: ClientId | None = Field(default=None, description="Idempotency key, one per browser")
    reviewer: Annotated[str, StringConstraints(max_length=MAX_REVIEWER)] | None = None
    preferred: VariantId | None = None
    ratings: dict[VariantId, Rating] = Field(default_factory=dict, max_length=MAX_VARIANTS)
    comments: dict[VariantId, Comment] = Field(default_factory=dict, max_length=MAX_VARIANTS)
    overall: Annotated[str, StringConstraints(max_length=MAX_OVERALL)] | None = None
    regenerated: Annotated[bool, Field(strict=True)] = False
    regenerateAction: Annotated[str, StringConstraints(min_length=1, max_length=MAX_ACTION)] | None = None
    remixSpec: RemixSpec | None = None
    website: Annotated[str, StringConstraints(max_length=0)] | None = Field(
        default=None, description="Honeypot: must be empty or absent"
    )

    @model_validator(mode="after")
    def _regenerate_consistency(self) -> FeedbackV1:
        if self.regenerated and not self.regenerateAction:
            raise ValueError("regenerated: true needs a regenerateAction")
        if not self.regenerated and self.regenerateAction is not None:
            raise ValueError("regenerateAction needs regenerated: true")
        if self.regenerateAction == "remix" and self.remixSpec is None:
            raise ValueError("regenerateAction 'remix' needs a remixSpec")
        if self.remixSpec is not None and self.regenerateAction != "remix":
            raise ValueError("remixSpec is only allowed with regenerateAction 'remix'")
        action = self.regenerateAction or ""
        if action.startswith("more_like_") and not MORE_LIKE.match(action):
            raise ValueError("more_like_<id> names an invalid variant id")
        return self

    @property
    def kind(self) -> Literal["final", "regenerate"]:
        return "regenerate" if self.regenerated else "final"

    def variant_refs(self) -> list[tuple[tuple[str | int, ...], str]]:
        """Every variant id the body mentions, with the field path that mentions it."""
        refs: list[tuple[tuple[str | int, ...], str]] = []
        if self.preferred:
            refs.append((("preferred",), self.preferred))
        refs += [(("ratings", k), k) for k in self.ratings]
        refs += [(("comments", k), k) for k in self.comments]
        match = MORE_LIKE.match(self.regenerateAction or "")
        if match:
            refs.append((("regenerateAction",), match.group(1)))
        if self.remixSpec:
            for aspect in ("layout", "colors", "typography", "spacing"):
                value = getattr(self.remixSpec, aspect)
                if value:
                    refs.append((("remixSpec", aspect), value))
        return refs

    def stored_body(self) -> dict[str, Any]:
        """The body as stored: validated fields, honeypot dropped."""
        return self.model_dump(mode="json", exclude={"website"})


# schemaVersion -> model. Add FeedbackV2 (pins, tweaks) here; v1 stays valid.
SCHEMAS: dict[int, type[FeedbackV1]] = {1: FeedbackV1}
Feedback = FeedbackV1


class Manifest(BaseModel):
    """A built board's manifest: the variant ids and round the endpoint validates against."""

    model_config = ConfigDict(extra="ignore")

    board: BoardSlug
    title: str | None = None
    round: Annotated[int, Field(ge=1)]
    variants: list[VariantId]


class FieldError(BaseModel):
    """One 422 entry: a dotted path plus pydantic's location and message."""

    path: str
    loc: list[str | int]
    msg: str
    type: str


def _path(loc: tuple[str | int, ...] | list[str | int]) -> str:
    return ".".join(str(p) for p in loc) or "(body)"


def field_errors(exc: ValidationError) -> list[FieldError]:
    """pydantic errors as field paths a person (and the board) can read."""
    out = []
    for err in exc.errors(include_url=False):
        loc = list(err["loc"])
        out.append(FieldError(path=_path(loc), loc=list(loc), msg=err["msg"], type=err["type"]))
    return out


class FeedbackInvalid(Exception):
    """The body does not fit the schema or the manifest (-> 422)."""

    def __init__(self, errors: list[FieldError]) -> None:
        super().__init__("; ".join(f"{e.path}: {e.msg}" for e in errors))
        self.errors = errors


def parse_feedback(data: dict[str, Any]) -> FeedbackV1:
    """Validate a decoded JSON object, dispatching on schemaVersion."""
    version = data.get("schemaVersion")
    model = SCHEMAS.get(version) if isinstance(version, int) and not isinstance(version, bool) else None
    if model is None:
        known = ", ".join(str(v) for v in SCHEMAS)
        raise FeedbackInvalid(
            [FieldError(path="schemaVersion", loc=["schemaVersion"], msg=f"must be one of: {known}",
                        type="schema_version")]
        )
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise FeedbackInvalid(field_errors(exc)) from None


def check_against_manifest(feedback: FeedbackV1, manifest: Manifest) -> None:
    """Refuse variant ids the board does not have, and a round that is not the board's."""
    errors: list[FieldError] = []
    known = set(manifest.variants)
    if feedback.round != manifest.round:
        errors.append(FieldError(path="round", loc=["round"], type="round_mismatch",
                                 msg=f"board {manifest.board} is at round {manifest.round}"))
    for loc, vid in feedback.variant_refs():
        if vid not in known:
            errors.append(FieldError(path=_path(loc), loc=list(loc), type="unknown_variant",
                                     msg=f"unknown variant {vid!r}; board has {', '.join(manifest.variants)}"))
    if errors:
        raise FeedbackInvalid(errors)
