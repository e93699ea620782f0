"""The feedback intake: what happens to a submission, in order, with no HTTP in it.

`Intake.submit` runs the steps of one submission:

1. guards: the honeypot, the rate limit, the board token, the schema, the board's manifest;
   every attachment it names already uploaded (`upload`: checked by its bytes, stored bare);
2. the idempotency ledger (`ledger.py`): a retried submission is answered with its first id;
3. one final per round: locally from the ledger, hosted through a create-only claim in the store;
4. the durable save (and, locally, the agent copy beside the board);
5. after the store has it: numbering its items, the board's state, the hooks (webhooks, `pinup
   serve`'s own). Nothing here can take back a stored record: a failure is logged and passed over.

A step that turns the submission down raises `Refused` with a code; the route picks the status.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from .attachments import AttachmentRefused, CleanImage
from .context import Context
from .ledger import Receipt, body_only, claim_name, fingerprint, guard_key
from .logs import log_event
from .records import BOARD_SLUG, new_record
from .schema import FeedbackInvalid, FeedbackV1, FeedbackV2, check_against_manifest, parse_feedback
from .store.base import RecordExists, RecordNotFound, StoreError, StoreUnavailable, iso_ts, new_id, now_utc
from .tokens import HEADER, token_ok

NOT_STORED = "the feedback could not be stored; nothing was acknowledged"


class Refused(Exception):
    """A submission turned down: `code` says why, `detail` says it to a person (or lists the
    schema's errors); `retry_after` (seconds) when trying again later can succeed."""

    def __init__(self, code: str, detail: Any, *, retry_after: int | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.detail = detail
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the reviewer is told: the record's id and kind; `replayed` when it was stored before;
    `trap` when the honeypot caught a bot (nothing was stored, and the bot is not told)."""

    id: str
    kind: str
    replayed: bool = False
    trap: bool = False


def board_hint(data: dict[str, Any]) -> str:
    """The board a body names when it is a well-formed slug, else "-": anything else is user text,
    which must reach neither the logs nor the rate limiter's keys."""
    board = data.get("board")
    return board if isinstance(board, str) and BOARD_SLUG.match(board) else "-"


def admit(ctx: Context, client: str, board: str, token: str | None) -> None:
    """The guards every write from a board passes: the rate limit, then the board token."""
    wait = ctx.limiter.check(client, board)
    if wait:
        raise Refused("rate_limited", f"too many requests; retry in {wait}s", retry_after=wait)
    if not token_ok(ctx.settings.board_secret, board, token):
        raise Refused("bad_board_token", f"missing or wrong {HEADER} header")


def unavailable(ctx: Context) -> Refused:
    return Refused(
        "store_unavailable",
        "the feedback store is unavailable; nothing was stored",
        retry_after=ctx.settings.retry_after,
    )


class Intake:
    """The steps of a submission over one app's context (its store, ledger, lifecycle, hooks)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def submit(self, data: dict[str, Any], address: str | None, token: str | None) -> Outcome:
        """Take one submission (the JSON body as parsed) from `address` with the board `token`."""
        ctx = self.ctx
        board = board_hint(data)
        if data.get("website"):
            log_event("honeypot", board=board)
            return Outcome(new_id(), "regenerate" if data.get("regenerated") is True else "final", trap=True)
        client = ctx.hasher(address)
        admit(ctx, client, board, token)
        feedback = await self.validate(data)
        await self.check_uploaded(feedback)
        key = guard_key(ctx.local, feedback.kind, feedback.board, feedback.round, feedback.clientId)
        async with ctx.ledger.guard(key):
            record, replayed = await self.store(feedback, client)
        if not replayed:  # stored, and (locally) the agent copy written
            self.after_store(record)
        return Outcome(record["id"], record["kind"], replayed)

    async def validate(self, data: dict[str, Any]) -> FeedbackV1:
        """The schema, then the board's manifest (variants, round, the controls it offers)."""
        ctx = self.ctx
        try:
            feedback = parse_feedback(data)
            if ctx.store.remote:
                manifest = await ctx.offload(ctx.manifests.get, feedback.board)
            else:  # an unchanged manifest costs one stat: less than a thread hop
                manifest = ctx.manifests.get(feedback.board)
            if manifest is not None:
                check_against_manifest(feedback, manifest)
        except FeedbackInvalid as exc:
            raise Refused("invalid_feedback", [e.model_dump() for e in exc.errors]) from None
        except StoreUnavailable:
            raise unavailable(ctx) from None
        except StoreError as exc:
            log_event("manifest_unreadable", board=feedback.board, error=type(exc.__cause__ or exc).__name__)
            raise Refused("store_failed", "the board manifest is unreadable; nothing was stored") from None
        return feedback

    async def check_uploaded(self, feedback: FeedbackV1) -> None:
        """Every attachment the body names was uploaded for its board (`upload`): a record never
        names a file that is not stored."""
        if not isinstance(feedback, FeedbackV2) or not feedback.attachments:
            return
        ctx = self.ctx
        for n, attachment in enumerate(feedback.attachments):
            try:
                there = await ctx.offload(ctx.store.has_attachment, feedback.board, attachment.file)
            except StoreUnavailable:
                raise unavailable(ctx) from None
            except StoreError as exc:
                raise Refused("store_failed", NOT_STORED) from exc
            if not there:
                message = f"{attachment.name} was not uploaded to board {feedback.board}; attach it again"
                raise Refused(
                    "invalid_feedback",
                    [
                        {
                            "path": f"attachments.{n}.file",
                            "loc": ["attachments", n, "file"],
                            "msg": message,
                            "type": "unknown_attachment",
                            "file": attachment.name,
                        }
                    ],
                )

    async def upload(
        self, board: str, name: str, data: bytes, declared: str | None, address: str | None, token: str | None
    ) -> tuple[CleanImage, str]:
        """One image for a later submission on `board`: the same guards as a submission, then
        checked by its bytes, re-encoded without metadata and stored create-only under a name of
        its content. Returns (the image, where it is stored)."""
        ctx = self.ctx
        admit(ctx, ctx.hasher(address), board, token)
        from .attachments import clean

        try:
            image = await ctx.offload(clean, name, data, declared)
        except AttachmentRefused as exc:
            code = {413: "attachment_too_large", 415: "attachment_not_image"}.get(exc.status, "bad_attachment")
            log_event("attachment_refused", board=board, error=code)
            raise Refused(code, exc.detail()) from None
        try:
            location = await ctx.offload(ctx.store.put_attachment, board, image.file, image.data, image.type)
        except StoreUnavailable:
            raise unavailable(ctx) from None
        except StoreError as exc:
            raise Refused("store_failed", "the attachment could not be stored") from exc
        return image, location

    async def store(self, feedback: FeedbackV1, client: str) -> tuple[dict[str, Any], bool]:
        """The ledger's replay, one final per round, then the save. Returns (record, replayed)."""
        ctx = self.ctx
        body = feedback.stored_body()
        fp = fingerprint(body)
        board, round_, cid = feedback.board, feedback.round, feedback.clientId
        seen = ctx.ledger.replay(board, round_, cid, fp)
        if seen is not None:
            return {"id": seen.id, "kind": feedback.kind}, True
        if feedback.kind == "final" and ctx.local and ctx.ledger.final_for(board, round_) is not None:
            raise Refused("already_submitted", f"round {round_} of {board} is already submitted")
        if feedback.kind == "final" and not ctx.local and cid is not None:
            return await self.claimed_final(feedback, client, fp)
        record = new_record(body, feedback.kind, client, new_id(), iso_ts(now_utc()))
        try:
            await self.save(record)
        except RecordExists:  # an id collision: impossible with uuid4, refuse rather than overwrite
            raise Refused("store_failed", "record already exists") from None
        ctx.ledger.remember(board, round_, feedback.kind, Receipt(record["id"], feedback.kind, fp, cid))
        return record, False

    async def claimed_final(self, feedback: FeedbackV1, client: str, fp: str) -> tuple[dict[str, Any], bool]:
        """Hosted final with a clientId: a create-only claim makes the guard hold across instances.

        The claim reserves one record name for (board, round, clientId). A later request stores under
        that same name, create-only: if the name is free, the earlier attempt was never acknowledged
        and this one completes it; if it is taken, the stored body decides between replay and 409.
        """
        ctx = self.ctx
        assert feedback.clientId is not None
        body = feedback.stored_body()
        record = new_record(body, feedback.kind, client, new_id(), iso_ts(now_utc()))
        payload = {"id": record["id"], "receivedAt": record["receivedAt"], "fingerprint": fp, "kind": "final"}
        name = claim_name(feedback.board, feedback.round, feedback.clientId)
        try:
            existing = await ctx.offload(ctx.store.claim, name, payload)
        except StoreUnavailable:
            raise unavailable(ctx) from None
        except StoreError as exc:
            raise Refused("store_failed", NOT_STORED) from exc
        if existing is not None:
            record = new_record(body, feedback.kind, client, str(existing["id"]), str(existing["receivedAt"]))
        replayed = False
        try:
            await self.save(record)
        except RecordExists:
            if existing is None:  # a fresh uuid4 name taken: impossible; refuse rather than guess
                raise Refused("store_failed", "record already exists") from None
            original = await self.read_stored(record)
            if fingerprint(body_only(original)) != fp:
                raise Refused(
                    "already_submitted",
                    f"this reviewer already submitted round {feedback.round} of {feedback.board}",
                ) from None
            record, replayed = original, True
        receipt = Receipt(record["id"], "final", fp, feedback.clientId)
        ctx.ledger.remember(feedback.board, feedback.round, "final", receipt)
        return record, replayed

    async def save(self, record: dict[str, Any]) -> None:
        """The durable write (and, locally, the agent copy); store failures are refusals.

        RecordExists passes through: what a taken name means depends on the caller."""
        ctx = self.ctx
        try:
            _, copy_error = await ctx.store.save_async(record, self.agent_copy_path(record), inline=ctx.inline_io)
        except RecordExists:
            raise
        except StoreUnavailable:
            raise unavailable(ctx) from None
        except StoreError as exc:
            raise Refused("store_failed", NOT_STORED) from exc
        if copy_error is not None:
            log_event("agent_copy_failed", board=record["board"], error=type(copy_error).__name__)

    async def read_stored(self, record: dict[str, Any]) -> dict[str, Any]:
        ctx = self.ctx
        try:
            return await ctx.offload(ctx.store.read, ctx.store.key_for(record))
        except StoreUnavailable:
            raise unavailable(ctx) from None
        except (StoreError, RecordNotFound, ValueError) as exc:
            raise Refused("store_failed", "the stored record could not be read") from exc

    def agent_copy_path(self, record: dict[str, Any]) -> Path | None:
        """`<site>/boards/<slug>/feedback.json` or `feedback-pending.json` (local mode, with a site)."""
        site = self.ctx.settings.site_dir
        if not self.ctx.local or site is None:
            return None
        return _copy_path(str(site), str(record["board"]), record["kind"] == "final")

    def after_store(self, record: dict[str, Any]) -> None:
        """Acknowledged (and agent copy written): numbering, board state, hooks. A failure here
        never loses the record."""
        ctx = self.ctx
        board, kind = record["board"], record["kind"]
        if ctx.local:  # hosted, readers number new records
            ctx.lifecycle.number_soon(
                record, lambda exc: log_event("numbering_failed", board=board, error=type(exc).__name__)
            )
            if kind == "regenerate":
                ctx.boards.set_status(board, "regenerating", message="another round was requested")
            else:
                ctx.boards.set_status(board, "done", message="feedback received")
        hooks = ctx.hooks
        if hooks.on_feedback is not None:
            run_hook("on_feedback", board, hooks.on_feedback, record)
        if kind == "regenerate" and hooks.on_regenerate is not None:
            run_hook("on_regenerate", board, hooks.on_regenerate, record, ctx.boards)


def run_hook(name: str, board: str, hook: Any, *args: Any) -> None:
    """A hook bug must not turn a stored record into an error: log it (no text) and go on."""
    try:
        hook(*args)
    except Exception as exc:
        log_event("hook_failed", hook=name, board=board, error=type(exc).__name__)


@lru_cache(maxsize=256)
def _copy_path(site: str, board: str, final: bool) -> Path:
    """Joined once per board: pathlib costs more than the rest of the agent copy's bookkeeping."""
    return Path(site) / "boards" / board / ("feedback.json" if final else "feedback-pending.json")
