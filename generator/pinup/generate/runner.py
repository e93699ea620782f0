"""The one code path that makes a round, for `pinup generate` and `serve --generate`.

Why one path: the CLI and the server must produce identical rounds, costs and
errors. Order matters: the key is checked before anything is read or written,
every variant is requested one at a time (cached by request hash, validated,
retried with the rejection reason when invalid), and the round reaches disk only
when every variant succeeded, so a failed run leaves nothing half-written and a
retried run pays only for what it did not get the first time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pinup.generate.cache import ResponseCache, request_key
from pinup.generate.client import CallResult, Client, ClientOptions, GenerationError, Usage, resolve_key
from pinup.generate.cost import estimate_cost, load_prices
from pinup.generate.prompts import RoundPlan, html_messages, pick_directions, plan_from_feedback
from pinup.generate.rounds import (
    BoardRef,
    NewVariant,
    current_variants,
    next_round,
    previous_directions,
    read_board,
    read_variant_html,
    resolve_board,
    variant_id,
    write_round,
)

DEFAULT_HTML_MODEL = "gpt-4.1-mini"
DEFAULT_IMAGE_MODEL = "gpt-image-1"


@dataclass
class GenerateOptions:
    """Everything one run needs; the CLI and the serve hook both fill this in."""

    board: str
    src: Path | None = None
    brief: str | None = None
    count: int = 3
    kind: Literal["html", "image"] = "html"
    model: str | None = None
    size: str = "1024x1024"
    client: ClientOptions = field(default_factory=ClientOptions)
    feedback: dict[str, Any] | None = None
    invalid_retries: int = 2
    prices_file: Path | None = None
    use_cache: bool = True

    @property
    def resolved_model(self) -> str:
        return self.model or (DEFAULT_IMAGE_MODEL if self.kind == "image" else DEFAULT_HTML_MODEL)


@dataclass
class ProgressEvent:
    """One step of a run, for the rich display and for SSE."""

    stage: Literal["start", "variant", "retry", "invalid", "variant_done", "writing", "done"]
    k: int
    n: int
    elapsed: float
    usage: Usage
    message: str


ProgressCallback = Callable[[ProgressEvent], None]


@dataclass
class RoundResult:
    """What a finished run wrote."""

    board: BoardRef
    round: int
    folder: Path
    variant_ids: list[str]
    model: str
    usage: Usage
    paid_usage: Usage
    cost: float | None
    meta: dict[str, Any]
    paid_cost: float | None = None


class _Run:
    def __init__(self, opts: GenerateOptions, progress: ProgressCallback | None) -> None:
        self.opts = opts
        self.progress = progress
        self.started = time.monotonic()
        self.usage = Usage()
        self.paid = Usage()
        self.k = 0
        self.n = opts.count

    def emit(self, stage: Any, message: str) -> None:
        if self.progress is not None:
            self.progress(ProgressEvent(stage, self.k, self.n, time.monotonic() - self.started, self.usage, message))


def load_design(workspace: Path) -> Any:
    """The workspace's DESIGN.md model (lint findings do not stop generation)."""
    path = workspace / "DESIGN.md"
    if not path.is_file():
        raise GenerationError("no_design", f"no DESIGN.md in {workspace}: generation follows the design system")
    from pinup.designmd.lint import lint_path

    return lint_path(path).design


def run_generation(
    opts: GenerateOptions,
    progress: ProgressCallback | None = None,
    *,
    client: Client | None = None,
) -> RoundResult:
    """Generate and write the next round of `opts.board`; raises GenerationError."""
    if opts.count < 1 or opts.count > 26:
        raise GenerationError("bad_count", "--count must be between 1 and 26")
    resolve_key(opts.client.api_key_env)  # no key: fail before reading or writing anything
    ref = resolve_board(opts.board, opts.src)
    board = read_board(ref)
    brief = (opts.brief or str(board.get("brief") or "")).strip()
    if not brief:
        raise GenerationError("no_brief", "no brief: pass --brief TEXT (or set brief: in board.yaml)")
    design = load_design(ref.workspace)
    prices = _prices(opts.prices_file)
    model = opts.resolved_model
    run = _Run(opts, progress)
    owned = client is None
    if client is None:
        client = Client(opts.client, on_retry=lambda a, w, r: run.emit("retry", f"{r}: retry {a} in {w:.1f}s"))
    try:
        return _generate(run, client, opts, ref, board, brief, design, prices, model)
    finally:
        if owned:
            client.close()


def _generate(
    run: _Run,
    client: Client,
    opts: GenerateOptions,
    ref: BoardRef,
    board: dict[str, Any],
    brief: str,
    design: Any,
    prices: dict[str, Any],
    model: str,
) -> RoundResult:
    """The round itself, once the inputs are read and checked and a client is at hand."""
    round_number = next_round(ref, board)
    variants = current_variants(board)
    plan = _plan(opts, ref, board, variants)
    run.n = len(plan.directions)
    cache = ResponseCache(ref.workspace / ".pinup" / "cache", enabled=opts.use_cache)
    run.emit("start", f"round {round_number}: {run.n} {opts.kind} variant(s) with {model}")

    made: list[NewVariant] = []
    for k in range(1, run.n + 1):
        run.k = k
        run.emit("variant", f"generating variant {k} of {run.n}")
        if opts.kind == "image":
            made.append(_image_variant(run, client, cache, design, brief, plan, k, round_number, model))
        else:
            title = str(board.get("title") or "")
            made.append(_html_variant(run, client, cache, design, brief, plan, k, round_number, model, title))
        run.emit("variant_done", f"variant {k} of {run.n} done")

    cost = estimate_cost(model, run.usage.input_tokens, run.usage.output_tokens, prices)
    paid_cost = estimate_cost(model, run.paid.input_tokens, run.paid.output_tokens, prices)
    meta = {
        "board": ref.slug,
        "kind": opts.kind,
        "model": model,
        "baseUrl": _public_url(client.base_url),
        "brief": brief,
        "createdAt": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
        "action": plan.action,
        "directions": plan.directions,
        "instruction": plan.instruction,
        "remixSpec": plan.remix,
        "sourceFeedbackId": plan.source_feedback_id,
        "previousRound": int(board.get("round") or 1) if variants else None,
        "usage": run.usage.as_dict(),
        "paidUsage": run.paid.as_dict(),
        "estimatedCostUsd": cost,
        "paidCostUsd": paid_cost,
        "costNote": "estimate from pinup's price table (pinup.generate.cost); not a bill",
    }
    if opts.kind == "image":
        meta["size"] = opts.size
    run.emit("writing", f"writing round {round_number}")
    written, folder = write_round(
        ref, round_number, made, meta, title=str(board.get("title") or "") or None, brief=brief, pick=plan.pick
    )
    meta["round"] = written
    run.emit("done", f"round {written} written")
    return RoundResult(
        board=ref,
        round=written,
        folder=folder,
        variant_ids=[v.id for v in made],
        model=model,
        usage=run.usage,
        paid_usage=run.paid,
        cost=cost,
        meta=meta,
        paid_cost=paid_cost,
    )


def _prices(path: Path | None) -> dict[str, Any]:
    """The price table, or a clear error for a bad --prices / $PINUP_PRICES file (before any request)."""
    from pydantic import ValidationError

    try:
        return load_prices(path)
    except (OSError, ValueError, ValidationError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise GenerationError("bad_prices", f"cannot read the price table: {first}") from None


def _public_url(url: str) -> str:
    """The base URL without credentials or query (it goes into meta.json)."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = host + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def _plan(opts: GenerateOptions, ref: BoardRef, board: dict[str, Any], variants: list[dict[str, Any]]) -> RoundPlan:
    if opts.feedback is None:
        return RoundPlan(directions=pick_directions(opts.count, previous_directions(ref, board) if variants else []))
    by_id = {str(v.get("id")): v for v in variants}

    def read_html(vid: str) -> str | None:
        variant = by_id.get(vid)
        return read_variant_html(ref, variant) if variant else None

    return plan_from_feedback(opts.feedback, variants, read_html, opts.count, previous_directions(ref, board))


def _description(plan: RoundPlan, k: int) -> str:
    """The direction, without a leading "Label:" that the label already shows."""
    direction = plan.directions[k - 1]
    label = plan.label(k)
    if not direction.startswith(label + ":"):
        return direction
    rest = direction[len(label) + 1 :].strip()
    return rest[:1].upper() + rest[1:]


def _cached_call(
    run: _Run, cache: ResponseCache, payload: dict[str, Any], call: Callable[[], CallResult]
) -> CallResult:
    key = request_key(payload)
    hit = cache.get(key)
    if hit is not None:
        result = CallResult.from_cache(hit)
        run.usage = run.usage + result.usage
        return result
    result = call()
    cache.put(key, result.to_cache())
    run.usage = run.usage + result.usage
    run.paid = run.paid + result.usage
    return result


def _html_variant(
    run: _Run,
    client: Client,
    cache: ResponseCache,
    design: Any,
    brief: str,
    plan: RoundPlan,
    k: int,
    round_number: int,
    model: str,
    title: str,
) -> NewVariant:
    from pinup.generate.validate import InvalidOutput, validate_html

    rejection: str | None = None
    reasons: list[str] = []
    for _attempt in range(run.opts.invalid_retries + 1):
        messages = html_messages(
            design, brief=brief, plan=plan, k=k, round_number=round_number, title=title, rejection=rejection
        )
        payload = {"api": "chat.completions", "base_url": client.base_url, "model": model, "messages": messages}
        result = _cached_call(run, cache, payload, lambda: client.chat(model, messages))  # noqa: B023 (called at once)
        try:
            checked = validate_html(result.text)
        except InvalidOutput as exc:
            rejection = str(exc)
            reasons.append(rejection)
            run.emit("invalid", f"variant {k} of {run.n} rejected ({rejection}); asking again")
            continue
        return NewVariant(
            id=variant_id(k - 1),
            label=plan.label(k),
            description=_description(plan, k),
            suffix=".html",
            data=checked.html.encode("utf-8"),
            extra={
                "direction": plan.directions[k - 1],
                "usage": result.usage.as_dict(),
                "cached": result.attempts == 0,
                "rejected": reasons,
                "stripped": checked.stripped,
            },
        )
    raise GenerationError(
        "invalid_output",
        f"variant {k} of {run.n}: the model's answer was rejected {len(reasons)} times (last: {reasons[-1]}); "
        "nothing was written",
    )


def _image_variant(
    run: _Run,
    client: Client,
    cache: ResponseCache,
    design: Any,
    brief: str,
    plan: RoundPlan,
    k: int,
    round_number: int,
    model: str,
) -> NewVariant:
    from pinup.generate.images import decode_png, image_prompt

    prompt = image_prompt(design, brief=brief, plan=plan, k=k, round_number=round_number)
    size = run.opts.size
    payload = {"api": "images.generate", "base_url": client.base_url, "model": model, "prompt": prompt, "size": size}
    result = _cached_call(run, cache, payload, lambda: client.image(model, prompt, size))
    try:
        data = decode_png(result.b64 or "")
    except ValueError as exc:
        raise GenerationError("bad_image", f"variant {k} of {run.n}: {exc}; nothing was written") from None
    return NewVariant(
        id=variant_id(k - 1),
        label=plan.label(k),
        description=_description(plan, k),
        suffix=".png",
        data=data,
        extra={"direction": plan.directions[k - 1], "usage": result.usage.as_dict(), "cached": result.attempts == 0},
    )
