"""Which variant was approved: a round's final pick from the stored feedback (or the one named), and its pins."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pinup.verify.target import VerifyError


@dataclass(slots=True, frozen=True)
class Pin:
    """A reviewer's pin on the approved variant: its item number, note and where it points."""

    n: int
    note: str
    severity: str | None
    selector: str | None
    #: the pinned region in fractions of the frame (x, y, w, h), as the board stored it
    box: tuple[float, float, float, float]


@dataclass(slots=True)
class Approved:
    """The variant an implementation is checked against."""

    board: str
    title: str
    round: int
    variant: str
    label: str
    kind: str  # "html" | "image"
    device: str
    file: Path
    #: the final record that picked it, or None when the variant was named with --variant
    record_id: str | None = None
    reviewer: str | None = None
    pins: list[Pin] = field(default_factory=list)


def _finals(store: Any, slug: str, round_: int | None) -> list[dict[str, Any]]:
    from pinup_feedback.store.base import StoreError

    try:
        listed = [item for item in store.list(slug) if item.kind == "final"]
        records = [store.read(item.key) for item in listed]
    except (StoreError, ValueError) as exc:
        raise VerifyError(f"cannot read the feedback of board {slug}: {exc}") from None
    return [r for r in records if round_ is None or r.get("round") == round_]


def _pins(store: Any, slug: str, variant: str, round_: int) -> list[Pin]:
    from pinup_feedback.lifecycle import Lifecycle, LifecycleError
    from pinup_feedback.store.base import StoreError

    try:
        items = Lifecycle(store).items(slug)
    except (LifecycleError, StoreError, ValueError) as exc:
        raise VerifyError(f"cannot read the items of board {slug}: {exc}") from None
    pins = []
    for item in items:
        pin = item.spec.pin or {}
        if item.spec.kind != "pin" or item.spec.variant != variant or item.round != round_:
            continue
        box = pin.get("box") or {}
        x, y, w, h = (float(box.get(k) or 0) for k in ("x", "y", "w", "h"))
        pins.append(
            Pin(
                n=item.n,
                note=item.spec.text,
                severity=item.spec.severity,
                selector=pin.get("selector") or None,
                box=(x, y, w, h),
            )
        )
    return pins


def approved(src: Path, store: Any, slug: str, variant: str | None = None, round_: int | None = None) -> Approved:
    """The variant to verify against: `variant` if named, else the latest final pick (of `round_`)."""
    from pinup.boards.spec import BoardError, load_board, resolve_variant_file

    folder = src / "boards" / slug
    if not (folder / "board.yaml").is_file():
        from pinup.boards.spec import find_boards

        known = ", ".join(p.name for p in find_boards(src)) or "none"
        raise VerifyError(f"no board {slug!r} in {src} (boards: {known})")
    try:
        board = load_board(folder)
    except BoardError as exc:
        raise VerifyError(str(exc)) from None
    spec = board.spec
    finals = _finals(store, slug, round_)
    record = finals[-1] if finals else None
    chosen_round = round_ if round_ is not None else int(record.get("round") or spec.round) if record else spec.round
    variants = spec.variants
    if chosen_round != spec.round:
        past = [r for r in spec.history if r.round == chosen_round]
        if not past or not past[0].variants:
            rounds = ", ".join(str(r) for r in sorted({spec.round, *(r.round for r in spec.history)}))
            raise VerifyError(f"board {slug} has no round {chosen_round} (rounds: {rounds})")
        variants = past[0].variants
    ids = [v.id for v in variants]
    if variant is None:
        picked = record.get("preferred") if record else None
        if not picked:
            where = f" in round {chosen_round}" if round_ is not None else ""
            raise VerifyError(
                f"board {slug} has no final pick{where} yet, so there is no approved variant to verify against; "
                f"name one with --variant ({', '.join(ids)}), or submit a final pick on the board first"
            )
        variant = str(picked)
    else:
        record = next((r for r in reversed(finals) if r.get("preferred") == variant), None)
    found = [v for v in variants if v.id == variant]
    if not found:
        raise VerifyError(
            f"board {slug} has no variant {variant!r} in round {chosen_round} (variants: {', '.join(ids)})"
        )
    spec_variant = found[0]
    try:
        path = resolve_variant_file(folder, spec_variant, folder / "board.yaml")
    except BoardError as exc:
        raise VerifyError(str(exc)) from None
    return Approved(
        board=slug,
        title=spec.title,
        round=chosen_round,
        variant=spec_variant.id,
        label=spec_variant.label,
        kind=spec_variant.kind,
        device=spec_variant.device or spec.device,
        file=path,
        record_id=str(record.get("id")) if record else None,
        reviewer=str(record.get("reviewer")) if record and record.get("reviewer") else None,
        pins=_pins(store, slug, spec_variant.id, chosen_round),
    )
