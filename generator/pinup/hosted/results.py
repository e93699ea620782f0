"""Aggregate every reviewer's feedback on a board, and render the static results pages.

Counting rules (documented in docs/deployment.md):
- one round at a time: the board's current round (manifest), else the latest round seen;
- one final vote per reviewer browser: among final submissions with the same clientId in a
  round only the latest counts (submissions without a clientId each count);
- a pick tally tie has several leaders and no winner; a variant nobody rated has no mean/median;
- regenerate requests are listed, never counted as votes.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pinup.hosted.records import LoadedRecords
from pinup_feedback.records import StoredRecord

if TYPE_CHECKING:  # pragma: no cover
    from jinja2 import Environment

    from pinup.output import FileSink


@dataclass(slots=True, kw_only=True)
class Note:
    """A piece of reviewer text with who wrote it and when."""

    id: str
    reviewer: str | None = None
    text: str
    receivedAt: str = ""


@dataclass(slots=True, kw_only=True)
class VariantResult:
    id: str
    label: str | None = None
    picks: int = 0
    pick_share: float = 0.0
    ratings: list[int] = field(default_factory=list)
    mean: float | None = None
    median: float | None = None
    comments: list[Note] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class RegenerateRequest:
    id: str
    reviewer: str | None = None
    action: str
    remixSpec: dict[str, Any] | None = None
    overall: str | None = None
    receivedAt: str = ""
    #: the action in words ("Totally different", "More like B", "Remix: layout from A, …")
    label: str = ""
    #: the reviewer's own words, when the request was written rather than chosen
    words: str | None = None


@dataclass(slots=True, kw_only=True)
class ResolvedItem:
    """An item an agent closed (or asked about), with what it said and the evidence it gave."""

    n: int
    kind: str
    variant: str | None = None
    text: str
    status: str
    summary: str | None = None
    commit: str | None = None
    #: the PR's URL, only when it is http(s) (anything else is never made a link)
    pr: str | None = None
    #: the evidence file beside results.html (`evidence/<sha256>.<ext>`: a picture, or a report
    #: when it ends in .html), when there is one
    evidence: str | None = None


@dataclass(slots=True, kw_only=True)
class BoardResults:
    """Everything `pinup results` prints and results.html shows, for one board and round."""

    board: str
    title: str | None = None
    round: int | None = None
    rounds_seen: list[int] = field(default_factory=list)
    submissions: int = 0
    reviewers: int = 0
    variants: list[VariantResult] = field(default_factory=list)
    leaders: list[str] = field(default_factory=list)
    winner: str | None = None
    no_pick: int = 0
    overall: list[Note] = field(default_factory=list)
    regenerate: list[RegenerateRequest] = field(default_factory=list)
    skipped_files: int = 0
    #: distinct reviewers (one per browser) whose final submission picked a variant
    pickers: int = 0
    #: items an agent resolved, marked won't fix or asked about, newest first, with their evidence
    resolved: list[ResolvedItem] = field(default_factory=list)


def _rating(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return int(value) if 1 <= value <= 5 and float(value).is_integer() else None


def _text(value: Any) -> str | None:
    if isinstance(value, str) and value.strip():
        return value.strip()
    return None


def latest_votes(finals: Iterable[StoredRecord]) -> list[StoredRecord]:
    """One vote per clientId (the latest); records without a clientId each count once."""
    by_client: dict[str, StoredRecord] = {}
    anonymous: list[StoredRecord] = []
    for record in sorted(finals, key=lambda r: (r.receivedAt, r.id)):
        if record.clientId:
            by_client[record.clientId] = record
        else:
            anonymous.append(record)
    return sorted([*by_client.values(), *anonymous], key=lambda r: (r.receivedAt, r.id))


def aggregate(
    board: str,
    loaded: LoadedRecords | Sequence[StoredRecord],
    *,
    variants: Sequence[tuple[str, str | None]] | None = None,
    title: str | None = None,
    round: int | None = None,
) -> BoardResults:
    """Tally picks, ratings and comments for `board` in one round (see the module docstring)."""
    records = list(loaded.records if isinstance(loaded, LoadedRecords) else loaded)
    skipped = len(loaded.skipped) if isinstance(loaded, LoadedRecords) else 0
    records = [r for r in records if not r.board or r.board == board]
    rounds_seen = sorted({r.round for r in records if r.round is not None})
    chosen = round if round is not None else (rounds_seen[-1] if rounds_seen else None)
    if chosen is not None:
        records = [r for r in records if r.round == chosen]

    finals = latest_votes(r for r in records if not r.is_regenerate)
    requests = [r for r in records if r.is_regenerate]

    results: dict[str, VariantResult] = {}
    for vid, label in variants or ():
        results[vid] = VariantResult(id=vid, label=label)

    def slot(vid: str) -> VariantResult:
        if vid not in results:
            results[vid] = VariantResult(id=vid)
        return results[vid]

    overall: list[Note] = []
    no_pick = 0
    for rec in finals:
        if rec.preferred:
            slot(rec.preferred).picks += 1
        else:
            no_pick += 1
        for vid, value in rec.ratings.items():
            rating = _rating(value)
            if rating is not None:
                slot(vid).ratings.append(rating)
        for vid, value in rec.comments.items():
            text = _text(value)
            if text:
                slot(vid).comments.append(Note(id=rec.id, reviewer=rec.reviewer, text=text, receivedAt=rec.receivedAt))
        text = _text(rec.overall)
        if text:
            overall.append(Note(id=rec.id, reviewer=rec.reviewer, text=text, receivedAt=rec.receivedAt))

    votes = len(finals)
    for result in results.values():
        result.pick_share = round_to(result.picks / votes if votes else 0.0, 4)
        if result.ratings:
            result.mean = round_to(statistics.fmean(result.ratings), 3)
            result.median = float(statistics.median(result.ratings))

    top = max((v.picks for v in results.values()), default=0)
    leaders = [v.id for v in results.values() if top > 0 and v.picks == top]
    reviewers = {r.clientId or f"record:{r.id}" for r in records}
    pickers = {r.clientId or f"record:{r.id}" for r in finals if r.preferred}
    return BoardResults(
        board=board,
        title=title,
        round=chosen,
        rounds_seen=rounds_seen,
        submissions=votes,
        reviewers=len(reviewers),
        variants=list(results.values()),
        leaders=leaders,
        winner=leaders[0] if len(leaders) == 1 else None,
        no_pick=no_pick,
        overall=overall,
        regenerate=[
            RegenerateRequest(
                id=r.id,
                reviewer=r.reviewer,
                action=r.regenerateAction or "regenerate",
                remixSpec=r.remixSpec,
                overall=_text(r.overall),
                receivedAt=r.receivedAt,
                label=action_words(
                    r.regenerateAction or "regenerate", r.remixSpec, _text(getattr(r, "regenerateText", None))
                )[0],
                words=action_words(
                    r.regenerateAction or "regenerate", r.remixSpec, _text(getattr(r, "regenerateText", None))
                )[1],
            )
            for r in requests
        ],
        skipped_files=skipped,
        pickers=len(pickers),
    )


REMIX_PARTS = ("layout", "colors", "typography", "spacing")


def action_words(action: str, remix: dict[str, Any] | None, text: str | None = None) -> tuple[str, str | None]:
    """(label, the reviewer's own words or None) for a regenerate request, for people to read."""
    if action == "different":
        return "Totally different", None
    if action.startswith("more_like_"):
        return f"More like {action[len('more_like_') :]}", None
    if action == "remix":
        parts = [f"{part} from {remix[part]}" for part in REMIX_PARTS if remix and remix.get(part)]
        return "Remix" + (": " + ", ".join(parts) if parts else ""), None
    if action == "custom":
        return "In their own words", text
    return "In their own words", action


def local_time(stamp: str) -> str:
    """An ISO UTC stamp as this machine's local time with its offset (results pages are built and read locally)."""
    from datetime import datetime

    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return stamp
    if moment.tzinfo is None:
        return stamp
    local = moment.astimezone()
    offset = local.strftime("%z")
    return local.strftime("%d %b %Y, %H:%M") + f" (UTC{offset[:3]}:{offset[3:]})"


def results_csv(res: BoardResults) -> str:
    """One row per variant with its tally and its comments (each "Name: text" on its own line)."""
    import csv
    import io

    def cell(text: str) -> str:
        # a spreadsheet must not read reviewer text as a formula
        return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        [
            "board",
            "round",
            "variant",
            "label",
            "picks",
            "pick_share",
            "ratings",
            "mean",
            "median",
            "comment_count",
            "comments",
        ]
    )
    for v in res.variants:
        notes = "\n".join(cell(f"{c.reviewer or 'Anonymous'}: {c.text}") for c in v.comments)
        writer.writerow(
            [
                res.board,
                res.round if res.round is not None else "",
                v.id,
                cell(v.label or ""),
                v.picks,
                v.pick_share,
                len(v.ratings),
                "" if v.mean is None else v.mean,
                "" if v.median is None else v.median,
                len(v.comments),
                notes,
            ]
        )
    return buffer.getvalue()


def round_to(value: float, digits: int) -> float:
    return float(f"{value:.{digits}f}")


# -- board metadata ------------------------------------------------------------------------------


def board_meta_from_src(src: Path, board: str) -> tuple[str | None, int | None, list[tuple[str, str | None]]] | None:
    """(title, round, [(variant id, label)]) from `src/boards/<slug>/board.yaml`, or None."""
    folder = Path(src) / "boards" / board
    if not (folder / "board.yaml").is_file():
        return None
    from pinup.boards.spec import parse_board_yaml

    try:
        spec = parse_board_yaml(folder / "board.yaml")
    except Exception:  # a broken board.yaml is the build's error to report, not ours
        return None
    return spec.title, spec.round, [(v.id, v.label) for v in spec.variants]


def board_meta_from_manifest(
    manifest: dict[str, Any] | None,
) -> tuple[str | None, int | None, list[tuple[str, str | None]]] | None:
    if not manifest or not isinstance(manifest.get("variants"), list):
        return None
    round_ = manifest.get("round")
    return (
        manifest.get("title") if isinstance(manifest.get("title"), str) else None,
        round_ if isinstance(round_, int) and not isinstance(round_, bool) else None,
        [(str(v), None) for v in manifest["variants"]],
    )


# -- static pages -------------------------------------------------------------------------------

TEMPLATES = Path(__file__).resolve().parent.parent / "templates" / "results"


@dataclass(frozen=True, slots=True)
class ResultsOptions:
    """Where the results pages read the feedback, and the user's templates that may restyle them."""

    #: a folder or s3://bucket/prefix; None: the workspace's own store (`default_store`)
    store: str | Path | None = None
    #: an S3-compatible endpoint (MinIO, moto, LocalStack) for an s3:// store
    endpoint_url: str | None = None
    templates: Path | None = None


def _env(options: ResultsOptions) -> Environment:
    """The results area's environment (`pinup.templating`: `DIR/results/NAME`, then the packaged templates).

    Autoescape is on there: every reviewer string is user text.
    """
    from pinup.templating import environment

    custom = options.templates
    return environment("results", str(TEMPLATES), str(custom) if custom else None)


def _theme(src: Path) -> tuple[str, str]:
    """(theme CSS, site name) from the workspace's DESIGN.md, or pinup's neutral theme."""
    from pinup.designmd.lint import lint_path
    from pinup.designmd.model import DesignSystem
    from pinup.theme import theme_css

    try:
        design = lint_path(Path(src) / "DESIGN.md").design
        return theme_css(design), (design.name or "pinup")
    except Exception:  # theming is cosmetic; results must render regardless
        return theme_css(DesignSystem()), "pinup"


def render_results_page(
    results: BoardResults,
    *,
    theme_css: str,
    site_name: str,
    store_label: str,
    options: ResultsOptions | None = None,
) -> str:
    template = _env(options or ResultsOptions()).get_template("results.html.j2")
    return template.render(
        r=results, theme_css=theme_css, site_name=site_name, store_label=store_label, local_time=local_time
    )


def resolved_items(store: Any, board: str, limit: int = 100) -> tuple[list[ResolvedItem], dict[str, bytes]]:
    """The board's closed items (and questions) with their evidence, and the evidence files to
    write beside results.html (name -> bytes): a published page cannot ask the endpoint for them."""
    from pinup_feedback.evidence import check_pr, is_evidence_file
    from pinup_feedback.lifecycle import RESOLUTIONS, Lifecycle

    life = Lifecycle(store)
    try:
        found = [i for i in life.items(board, limit=limit, newest_first=True) if i.status in RESOLUTIONS]
        files: dict[str, bytes] = {}
        rows = []
        for item in found:
            proof = item.evidence
            ev = proof.get("evidence") or {}
            file = ev.get("file") if isinstance(ev.get("file"), str) and is_evidence_file(ev["file"]) else None
            kept = life.evidence_file(board, file) if file else None
            if file and kept is not None:
                files[file] = kept[0]
            try:
                pr = check_pr(str(proof["pr"])) if proof.get("pr") else None
            except ValueError:
                pr = None
            rows.append(
                ResolvedItem(
                    n=item.n,
                    kind=item.spec.kind,
                    variant=item.spec.variant,
                    text=item.spec.text,
                    status=item.status,
                    summary=item.summary,
                    commit=str(proof["commit"]) if proof.get("commit") else None,
                    pr=pr,
                    evidence=file if kept is not None else None,
                )
            )
    finally:
        life.close()
    return rows, files


def default_store(src: Path) -> Path:
    """The workspace's local store, where `pinup serve` and `pinup feedback pull` write."""
    return Path(src) / ".pinup" / "feedback"


def build_results_pages(src: Path, out: Path, options: ResultsOptions, writer: FileSink) -> list[Path]:
    """Render `out/boards/<slug>/results.html` for every board of the workspace.

    The store is `options.store` (a directory or s3://, read through `options.endpoint_url`
    when given) or `<src>/.pinup/feedback`. An
    unreachable S3 store is reported on stderr and leaves the pages out rather than failing
    the whole build.
    """
    import sys

    src, out = Path(src), Path(out)
    boards_dir = src / "boards"
    slugs = sorted(p.parent.name for p in boards_dir.glob("*/board.yaml")) if boards_dir.is_dir() else []
    if not slugs:
        return []
    store = options.store or default_store(src)
    theme_css, site_name = _theme(src)
    # never print a bucket name or a local path into a page that may be published
    label = "hosted feedback store" if str(store).startswith("s3://") else "local feedback store"
    written: list[Path] = []
    for slug in slugs:
        meta = board_meta_from_src(src, slug)
        title, round_, variants = meta if meta else (None, None, None)
        try:
            from pinup.hosted.mirror import load_records

            loaded = load_records(store, slug, src=src, endpoint_url=options.endpoint_url)
        except Exception as exc:  # noqa: BLE001 - S3/network trouble must not break the site build
            print(f"pinup: results for {slug} skipped: cannot read the store ({exc})", file=sys.stderr)
            continue
        results = aggregate(slug, loaded, variants=variants, title=title, round=round_)
        try:
            from pinup_feedback.store import open_store

            if not loaded.records:  # no feedback: nothing resolved, and the store is left untouched
                raise LookupError
            results.resolved, files = resolved_items(open_store(store, endpoint_url=options.endpoint_url), slug)
        except LookupError:
            files = {}
        except Exception as exc:  # noqa: BLE001 - as above: the tally still renders without them
            print(f"pinup: resolved items of {slug} left out: cannot read the item log ({exc})", file=sys.stderr)
            files = {}
        for name, data in sorted(files.items()):
            writer.write_bytes(f"boards/{slug}/{name}", data)
        html = render_results_page(
            results, theme_css=theme_css, site_name=site_name, store_label=label, options=options
        )
        writer.write_text(f"boards/{slug}/results.html", html)
        writer.write_text(f"boards/{slug}/results.csv", results_csv(results))
        written.append(out / "boards" / slug / "results.html")  # the page; its CSV sits beside it
    return written
