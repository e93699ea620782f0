"""The feedback body, versioned (schemaVersion 1 and 2), and the board manifest it is checked against.

Why a registry of versions: v2 (pins on a variant, token tweaks, reopened items) is a new model
under a new ``schemaVersion``, so v1 clients and stored v1 records stay valid as they are.
"""

from __future__ import annotations

import math
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, StringConstraints, ValidationError, model_validator

# what readers of stored records need, without pydantic (`pinup_feedback.records`), re-exported
from .records import ATTACHMENT_FILE_PATTERN
from .records import BOARD_SLUG_PATTERN as BOARD_SLUG_PATTERN
from .records import is_custom_request as is_custom_request
from .records import regenerate_request as regenerate_request

VARIANT_ID_PATTERN = r"^[A-Za-z0-9_-]{1,32}$"
TOKEN_PATH_PATTERN = r"^[A-Za-z][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+){1,3}$"
MAX_VARIANTS = 64
MAX_COMMENT = 5000
MAX_OVERALL = 10000
MAX_ACTION = 2000
MAX_REVIEWER = 100
MAX_PINS = 50
MAX_NOTE = 2000
MAX_SELECTOR = 1024
MAX_PIN_TEXT = 200
MAX_PIN_HTML = 800
MAX_TWEAKS = 8
MAX_REOPEN = 50
MAX_ATTACHMENTS = 5
MAX_ATTACHMENT_NAME = 200
BOX_SLACK = 1e-6

VariantId = Annotated[str, StringConstraints(pattern=VARIANT_ID_PATTERN)]
BoardSlug = Annotated[str, StringConstraints(pattern=BOARD_SLUG_PATTERN)]
ClientId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.:-]{1,64}$")]
Rating = Annotated[int, Field(ge=1, le=5, strict=True)]
Comment = Annotated[str, StringConstraints(max_length=MAX_COMMENT)]
Fraction = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]
Severity = Literal["blocker", "major", "minor", "nit"]
TokenPath = Annotated[str, StringConstraints(pattern=TOKEN_PATH_PATTERN, max_length=120)]
MAX_TWEAK_VALUE = 100


def _tweak_value(value: object) -> str | int | float:
    """A tweak value is one JSON scalar: a short string or a finite number (never a bool)."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ValueError("a tweak value is a string or a number")
    if isinstance(value, str) and len(value) > MAX_TWEAK_VALUE:
        raise ValueError(f"a tweak value has at most {MAX_TWEAK_VALUE} characters")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("a tweak value must be finite")
    return value


TweakValue = Annotated[str | int | float, PlainValidator(_tweak_value, json_schema_input_type=str | int | float)]
ItemNumber = Annotated[int, Field(ge=1, le=10_000_000, strict=True)]

MORE_LIKE = re.compile(r"^more_like_([A-Za-z0-9_-]{1,32})$")


class FieldError(BaseModel):
    """One 422 entry: a dotted path plus pydantic's location and message."""

    model_config = ConfigDict(defer_build=True)

    path: str
    loc: list[str | int]
    msg: str
    type: str


def _path(loc: tuple[str | int, ...] | list[str | int]) -> str:
    return ".".join(str(p) for p in loc) or "(body)"


class RemixSpec(BaseModel):
    """Which variant each aspect of the remix comes from."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

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

    model_config = ConfigDict(extra="forbid", title="Feedback", defer_build=True)

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

    def cross_errors(self) -> list[FieldError]:
        """Checks across list entries that keep their own field path (none in v1)."""
        return []

    def stored_body(self) -> dict[str, Any]:
        """The body as stored: validated fields, honeypot dropped."""
        return self.model_dump(mode="json", exclude={"website"})


class Box(BaseModel):
    """Where a pin points: fractions 0..1 of the variant's frame, so it survives a resize."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    x: Fraction
    y: Fraction
    w: Fraction
    h: Fraction

    @model_validator(mode="after")
    def _inside_frame(self) -> Box:
        if self.x + self.w > 1 + BOX_SLACK or self.y + self.h > 1 + BOX_SLACK:
            raise ValueError("the box leaves the frame: x + w and y + h must be at most 1")
        return self


class Viewport(BaseModel):
    """The reviewed page's window when the pin was placed (`pinup review`)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    w: Annotated[int, Field(ge=1, le=100_000)]
    h: Annotated[int, Field(ge=1, le=100_000)]


class Pin(BaseModel):
    """A note pinned to one spot of one variant."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    id: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,40}$")]
    variant: VariantId
    note: Annotated[str, StringConstraints(min_length=1, max_length=MAX_NOTE, pattern=r"\S")]
    severity: Severity
    box: Box
    selector: Annotated[str, StringConstraints(max_length=MAX_SELECTOR)] | None = Field(
        default=None, description="HTML variants: data-pin/data-id, #id or a structural path"
    )
    text: Annotated[str, StringConstraints(max_length=MAX_PIN_TEXT)] | None = Field(
        default=None, description="the element's visible text"
    )
    html: Annotated[str, StringConstraints(max_length=MAX_PIN_HTML)] | None = Field(
        default=None, description="an excerpt of the element's HTML"
    )
    # `pinup review` pins on a running app: where the page was and how large its window (left out
    # of the stored record when absent, so a board pin is stored as before)
    path: Annotated[str, StringConstraints(max_length=MAX_SELECTOR, pattern=r"^/")] | None = Field(
        default=None, description="a reviewed app's page: its path and query", exclude_if=lambda v: v is None
    )
    viewport: Viewport | None = Field(
        default=None, description="a reviewed app's window size in CSS px", exclude_if=lambda v: v is None
    )


class AttachmentIn(BaseModel):
    """An image attached to a pin (`pin`), a variant's comment (`variant`) or the overall note
    (neither): the file `POST /api/attachments` answered with, and the name the reviewer gave it."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    name: Annotated[str, StringConstraints(min_length=1, max_length=MAX_ATTACHMENT_NAME, pattern=r"^[^/\\\x00-\x1f]+$")]
    file: Annotated[str, StringConstraints(pattern=ATTACHMENT_FILE_PATTERN)] = Field(
        description="`file` from the upload's answer: attachments/<sha256>.<png|jpg|webp>"
    )
    pin: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,40}$")] | None = Field(
        default=None, description="the id of the pin (in this body) it belongs to"
    )
    variant: VariantId | None = Field(default=None, description="the variant whose comment it belongs to")

    @model_validator(mode="after")
    def _one_target(self) -> AttachmentIn:
        if self.pin is not None and self.variant is not None:
            raise ValueError("an attachment belongs to a pin or to a variant's comment, not both")
        return self


class FeedbackV2(FeedbackV1):
    """schemaVersion 2: every v1 field, plus pins, token tweaks, the items the reviewer reopens and
    image attachments (optional, so earlier v2 bodies stay valid)."""

    model_config = ConfigDict(extra="forbid", title="FeedbackV2", defer_build=True)

    schemaVersion: Literal[2]  # type: ignore[assignment]  # v2 narrows v1's version
    pins: list[Pin] = Field(default_factory=list, max_length=MAX_PINS)
    tweaks: dict[TokenPath, TweakValue] = Field(
        default_factory=dict,
        max_length=MAX_TWEAKS,
        description="token path -> value; keys among the board manifest's tweakables",
    )
    reopen: list[ItemNumber] = Field(
        default_factory=list, max_length=MAX_REOPEN, description="item numbers (#n) the reviewer reopens"
    )
    regenerateText: Annotated[str, StringConstraints(min_length=1, max_length=MAX_ACTION)] | None = Field(
        default=None,
        description="The reviewer's own words for another round; only with regenerateAction 'custom'",
    )

    attachments: list[AttachmentIn] = Field(
        default_factory=list,
        max_length=MAX_ATTACHMENTS,
        description="images uploaded first (POST /api/attachments: PNG, JPEG or WebP, 2 MB each), at most 5",
    )

    @model_validator(mode="after")
    def _custom_words(self) -> FeedbackV2:
        if self.regenerateText is not None and self.regenerateAction != "custom":
            raise ValueError("regenerateText is only allowed with regenerateAction 'custom'")
        if self.regenerateAction == "custom" and self.regenerateText is None:
            raise ValueError("regenerateAction 'custom' needs a regenerateText")
        return self

    def variant_refs(self) -> list[tuple[tuple[str | int, ...], str]]:
        refs = super().variant_refs() + [(("pins", n, "variant"), pin.variant) for n, pin in enumerate(self.pins)]
        return refs + [(("attachments", n, "variant"), a.variant) for n, a in enumerate(self.attachments) if a.variant]

    def stored_body(self) -> dict[str, Any]:
        """The body as stored: validated fields, honeypot dropped, attachments only when there are some."""
        body = self.model_dump(mode="json", exclude={"website", "attachments"})
        if self.attachments:  # absent when empty: records without images stay as they were
            body["attachments"] = [a.model_dump(mode="json", exclude_none=True) for a in self.attachments]
        return body

    def cross_errors(self) -> list[FieldError]:
        """Pin ids are unique within the list; an item is reopened once; an attachment's pin is one
        of the body's pins."""
        errors = []
        pin_ids = {pin.id for pin in self.pins}
        for n, att in enumerate(self.attachments):
            if att.pin is not None and att.pin not in pin_ids:
                errors.append(
                    FieldError(
                        path=f"attachments.{n}.pin",
                        loc=["attachments", n, "pin"],
                        type="unknown_pin",
                        msg=f"{att.name}: no pin {att.pin!r} in this submission",
                    )
                )
        seen: set[str] = set()
        for n, pin in enumerate(self.pins):
            if pin.id in seen:
                errors.append(
                    FieldError(
                        path=f"pins.{n}.id",
                        loc=["pins", n, "id"],
                        type="duplicate_pin",
                        msg=f"pin id {pin.id!r} is used twice",
                    )
                )
            seen.add(pin.id)
        for n, number in enumerate(self.reopen):
            if number in self.reopen[:n]:
                errors.append(
                    FieldError(
                        path=f"reopen.{n}",
                        loc=["reopen", n],
                        type="duplicate_item",
                        msg=f"item {number} is listed twice",
                    )
                )
        return errors


# schemaVersion -> model. A new version is a new model here; older ones stay valid.
SCHEMAS: dict[int, type[FeedbackV1]] = {1: FeedbackV1, 2: FeedbackV2}
Feedback = FeedbackV1


class Tweakable(BaseModel):
    """One DESIGN.md token the board offers in its Tweak panel, with the control's limits."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    token: TokenPath
    kind: Literal["color", "dimension", "number", "choice"]
    label: str | None = None
    value: Any = None
    min: float | None = None
    max: float | None = None
    step: float | None = None
    unit: str | None = None
    options: list[Any] | None = None

    @property
    def number(self) -> float | None:
        """The number of a dimension's value (`12` of `12px`), where a range control starts; else None."""
        match = _DIMENSION.match(self.value) if isinstance(self.value, str) else None
        return float(match.group(1)) if match else None


class Manifest(BaseModel):
    """A built board's manifest: the variant ids, round and tweakable tokens the endpoint checks against."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    board: BoardSlug
    title: str | None = None
    round: Annotated[int, Field(ge=1)]
    variants: list[VariantId]
    tweakables: list[Tweakable] = Field(default_factory=list)
    #: a digest of the built board; reload events carry it so a page already showing it stays put
    build: Annotated[str, Field(max_length=64)] | None = None


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
            [
                FieldError(
                    path="schemaVersion", loc=["schemaVersion"], msg=f"must be one of: {known}", type="schema_version"
                )
            ]
        )
    try:
        feedback = model.model_validate(data)
    except ValidationError as exc:
        raise FeedbackInvalid(field_errors(exc)) from None
    errors = feedback.cross_errors()
    if errors:
        raise FeedbackInvalid(errors)
    return feedback


def check_against_manifest(feedback: FeedbackV1, manifest: Manifest) -> None:
    """Refuse variant ids the board does not have, a round that is not the board's, and bad tweaks."""
    errors: list[FieldError] = []
    known = set(manifest.variants)
    if feedback.round != manifest.round:
        errors.append(
            FieldError(
                path="round",
                loc=["round"],
                type="round_mismatch",
                msg=f"board {manifest.board} is at round {manifest.round}",
            )
        )
    for loc, vid in feedback.variant_refs():
        if vid not in known:
            errors.append(
                FieldError(
                    path=_path(loc),
                    loc=list(loc),
                    type="unknown_variant",
                    msg=f"unknown variant {vid!r}; board has {', '.join(manifest.variants)}",
                )
            )
    if isinstance(feedback, FeedbackV2):
        errors += tweak_errors(feedback.tweaks, manifest.tweakables)
    if errors:
        raise FeedbackInvalid(errors)


_COLOR = re.compile(r"^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")
_DIMENSION = re.compile(r"^(-?\d+(?:\.\d+)?)(px|rem|em|%)$")


def tweak_problem(value: object, spec: Tweakable) -> str | None:
    """Why `value` does not fit the tweakable token `spec` (None: it fits)."""
    number: float | None = None
    if spec.kind == "color":
        if not isinstance(value, str) or not _COLOR.match(value):
            return "a colour must be a hex value such as #1a73e8"
    elif spec.kind == "dimension":
        match = _DIMENSION.match(value) if isinstance(value, str) else None
        if match is None:
            return "a dimension must be a number with a unit, such as 12px"
        if spec.unit and match.group(2) != spec.unit:
            return f"this dimension is in {spec.unit}"
        number = float(match.group(1))
    elif spec.kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return "must be a number"
        number = float(value)
    elif spec.options is not None and value not in spec.options:
        return "must be one of: " + ", ".join(str(o) for o in spec.options)
    if number is not None and spec.min is not None and number < spec.min:
        return f"must be at least {spec.min:g}"
    if number is not None and spec.max is not None and number > spec.max:
        return f"must be at most {spec.max:g}"
    return None


def tweak_errors(tweaks: dict[str, Any], tweakables: list[Tweakable]) -> list[FieldError]:
    """Each tweak names one of the board's tweakable tokens and carries a value valid for its kind."""
    by_token = {t.token: t for t in tweakables}
    errors: list[FieldError] = []
    for token, value in tweaks.items():
        loc: list[str | int] = ["tweaks", token]
        spec = by_token.get(token)
        if spec is None:
            offered = ", ".join(by_token) or "none"
            errors.append(
                FieldError(
                    path=_path(loc),
                    loc=loc,
                    type="unknown_token",
                    msg=f"token {token!r} is not tweakable on this board; tweakable: {offered}",
                )
            )
            continue
        problem = tweak_problem(value, spec)
        if problem:
            errors.append(FieldError(path=_path(loc), loc=loc, type="invalid_tweak", msg=problem))
    return errors
