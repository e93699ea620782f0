"""`pinup publish`, `pinup results` and `pinup feedback pull`: the hosted-mode commands.

boto3 and rich's progress bar are imported inside the commands, so `pinup --help`
and the local commands never pay for them.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pinup.workspace import NEAREST_WORKSPACE, resolve

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import JustifyMethod

DEFAULT_SITE = "site"


def _s3_error(exc: BaseException) -> click.ClickException:
    from pinup.hosted.aws import describe_error

    return click.ClickException(describe_error(exc))


def _workspace_src(src: Path | None) -> Path:
    """--src as given, else the nearest workspace from here up, else ./site_src (which may not exist).

    `results` and `pull` want a workspace only for variant labels and the default local store, so
    no workspace is not an error here: the store options work without one.
    """
    if src is not None:
        return src
    return resolve(None, must_exist=False).src


def _location(url: str, what: str) -> Any:
    from pinup.hosted.aws import parse_s3_url

    try:
        return parse_s3_url(url)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=what) from None


# -- publish -------------------------------------------------------------------------------------


@click.command()
@click.argument("site", required=False, default=DEFAULT_SITE, type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--bucket", required=True, envvar="PINUP_BUCKET", help="Bucket that serves the boards (the stack's BoardsBucket)."
)
@click.option("--prefix", default="", help="Key prefix for the site inside the bucket (default: the bucket root).")
@click.option(
    "--store",
    "store",
    default=None,
    help="Hosted feedback store s3://bucket/prefix; board manifests go to <prefix>/boards/<slug>.json there. "
    "Default: the site bucket and prefix.",
)
@click.option(
    "--endpoint-url", default=None, envvar="AWS_ENDPOINT_URL", help="S3-compatible endpoint (MinIO, moto, LocalStack)."
)
@click.option("--region", default=None, help="AWS region of the bucket.")
@click.option(
    "--public-url", default=None, envvar="PINUP_PUBLIC_URL", help="Public base URL of the site (the stack's BoardsUrl)."
)
@click.option("--with-results", is_flag=True, help="Also upload boards/*/results.html (reviewer names and comments).")
@click.option("--force", is_flag=True, help="Upload every file even if unchanged (e.g. to apply new headers).")
@click.option("--dry-run", is_flag=True, help="List what would be uploaded; change nothing.")
def publish(
    site: Path,
    bucket: str,
    prefix: str,
    store: str | None,
    endpoint_url: str | None,
    region: str | None,
    public_url: str | None,
    with_results: bool,
    force: bool,
    dry_run: bool,
) -> None:
    """Upload the built SITE (default ./site) to S3; only changed files are sent."""
    from pinup.hosted import publish as pub
    from pinup.hosted.aws import S3Location, clean_prefix, s3_client

    if not site.is_dir():
        raise click.ClickException(f"{site} is not a built site: run `pinup build` first")
    if not (site / "index.html").is_file() and not (site / "boards").is_dir():
        raise click.ClickException(f"{site} has no index.html and no boards/: is it a pinup build?")
    try:
        site_loc = S3Location(bucket=bucket, prefix=clean_prefix(prefix))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--prefix") from None
    manifest_loc = _location(store, "--store") if store else site_loc
    try:
        plan = pub.build_plan(site, site_loc, manifest_loc, include_results=with_results)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None

    from botocore.exceptions import BotoCoreError, ClientError

    client = s3_client(endpoint_url, region)
    try:
        pub.compare(plan, {} if force else pub.fetch_etags(client, plan))
    except (BotoCoreError, ClientError) as exc:
        raise _s3_error(exc) from None

    changed = plan.changed
    if dry_run:
        for upload in changed:
            bucket_name = manifest_loc.bucket if upload.kind == "manifest" else site_loc.bucket
            click.echo(
                f"{upload.status:8} s3://{bucket_name}/{upload.key}  {upload.content_type}  [{upload.cache_control}]"
            )
        click.echo(f"dry run: {len(changed)} to upload, {len(plan.unchanged)} unchanged; nothing was uploaded")
        return

    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

    total = sum(u.size for u in changed)
    console = Console(stderr=True)
    try:
        with Progress(
            TextColumn("[bold]publish"),
            BarColumn(),
            DownloadColumn(),
            TextColumn("{task.fields[current]}", style="dim", markup=False),
            TimeRemainingColumn(),
            console=console,
            transient=not console.is_terminal,
        ) as progress:
            task = progress.add_task("upload", total=max(total, 1), current="")

            def done(upload: Any) -> None:
                progress.update(task, advance=upload.size, current=upload.rel)

            pub.execute(client, plan, on_done=done)
            progress.update(task, completed=max(total, 1), current="")
    except (BotoCoreError, ClientError) as exc:
        raise _s3_error(exc) from None

    manifests = [u for u in changed if u.kind == "manifest"]
    click.echo(
        f"uploaded {len(changed)} file(s) ({total} bytes), {len(plan.unchanged)} unchanged"
        + (f"; {len(manifests)} board manifest(s) to {manifest_loc.url}/boards/" if manifests else "")
    )
    urls = pub.public_urls(
        site_loc, plan.boards, public_url=public_url, endpoint_url=endpoint_url, region=client.meta.region_name
    )
    for url in urls:
        click.echo(url)
    if not public_url and not endpoint_url:
        click.echo(
            "note: with the SAM stack the bucket is private; open the boards through the CloudFront "
            "BoardsUrl (pass it as --public-url to print those links)",
            err=True,
        )


# -- results -------------------------------------------------------------------------------------


def _store_default(src: Path) -> str:
    env = os.environ.get("PINUP_STORE")
    if env:
        return env
    return str(Path(src) / ".pinup" / "feedback")


@click.command()
@click.argument("board")
@click.option(
    "--store",
    default=None,
    help="Local store directory or s3://bucket/prefix (default: $PINUP_STORE or SRC/.pinup/feedback).",
)
@click.option(
    "--src",
    default=None,
    type=click.Path(file_okay=False, path_type=Path),
    help=f"Workspace, for variant labels and the default store (default: {NEAREST_WORKSPACE}).",
)
@click.option(
    "--round", "round_", type=int, default=None, help="Round to aggregate (default: the board's current round)."
)
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table", show_default=True)
@click.option("--endpoint-url", default=None, envvar="AWS_ENDPOINT_URL", help="S3-compatible endpoint.")
@click.option("--region", default=None, help="AWS region of the store bucket.")
def results(
    board: str,
    store: str | None,
    src: Path | None,
    round_: int | None,
    fmt: str,
    endpoint_url: str | None,
    region: str | None,
) -> None:
    """Aggregate every reviewer's feedback on BOARD: picks, ratings, comments, regenerate requests."""
    from pinup.hosted.aws import is_s3_url
    from pinup.hosted.mirror import load_records
    from pinup.hosted.records import check_board
    from pinup.hosted.results import aggregate, board_meta_from_manifest, board_meta_from_src

    try:
        check_board(board)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="BOARD") from None
    src = _workspace_src(src)
    store = store or _store_default(src)
    meta = board_meta_from_src(src, board)
    try:
        if meta is None and is_s3_url(store):
            from pinup.hosted.aws import s3_client
            from pinup.hosted.records import read_s3_manifest

            meta = board_meta_from_manifest(
                read_s3_manifest(s3_client(endpoint_url, region), _location(store, "--store"), board)
            )
        loaded = load_records(store, board, src=src, endpoint_url=endpoint_url, region=region)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    except Exception as exc:  # botocore errors, without importing botocore for local stores
        if type(exc).__module__.startswith("botocore"):
            raise _s3_error(exc) from None
        raise
    title, board_round, variants = meta if meta else (None, None, None)
    res = aggregate(board, loaded, variants=variants, title=title, round=round_ if round_ is not None else board_round)
    if not loaded.records and not is_s3_url(store) and not Path(store).is_dir():
        click.echo(f"note: no local store at {store}", err=True)
    if fmt == "json":
        click.echo(json.dumps(dataclasses.asdict(res), indent=2, ensure_ascii=False))
    elif fmt == "csv":
        _write_csv(res)
    else:
        _print_table(res)


def _write_csv(res: Any) -> None:
    from pinup.hosted.results import results_csv

    sys.stdout.write(results_csv(res))


_CONTROL = {c: None for c in [*range(0, 9), *range(11, 32), 127, *range(128, 160)]}


def _safe(text: str) -> str:
    """Reviewer text for a terminal: rich markup escaped, control characters (ANSI escapes) dropped."""
    from rich.markup import escape

    return escape(text.translate(_CONTROL))


def _print_table(res: Any) -> None:
    from rich.console import Console
    from rich.table import Table

    escape = _safe

    console = Console(highlight=False)
    title = f"{res.title or res.board} — round {res.round if res.round is not None else '?'}"
    table = Table(
        title=escape(title),
        caption=f"{res.submissions} final submission(s), {res.reviewers} reviewer(s), {len(res.regenerate)} regenerate request(s)",
    )
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("Variant", "left"),
        ("Picks", "right"),
        ("Share", "right"),
        ("Ratings", "right"),
        ("Mean", "right"),
        ("Median", "right"),
        ("Comments", "right"),
    )
    for col, justify in columns:
        table.add_column(col, justify=justify)
    for v in res.variants:
        name = v.id + (f" · {v.label}" if v.label else "")
        star = " ★" if v.id in res.leaders else ""
        table.add_row(
            escape(name) + star,
            str(v.picks),
            f"{v.pick_share:.0%}",
            str(len(v.ratings)),
            "—" if v.mean is None else f"{v.mean:.2f}",
            "—" if v.median is None else f"{v.median:.1f}",
            str(len(v.comments)),
        )
    console.print(table)
    if res.winner:
        console.print(f"Most picked: [bold]{escape(res.winner)}[/bold]")
    elif len(res.leaders) > 1:
        console.print("Tie between " + ", ".join(escape(x) for x in res.leaders))
    for v in res.variants:
        for c in v.comments:
            console.print(f"[bold]{escape(v.id)}[/bold] {escape(c.reviewer or 'Anonymous')}: {escape(c.text)}")
    for c in res.overall:
        console.print(f"[bold]overall[/bold] {escape(c.reviewer or 'Anonymous')}: {escape(c.text)}")
    for q in res.regenerate:
        spec = ""
        if q.remixSpec:
            spec = " (" + ", ".join(f"{k} from {v}" for k, v in q.remixSpec.items() if v) + ")"
        console.print(f"[bold]regenerate[/bold] {escape(q.reviewer or 'Anonymous')}: {escape(q.action + spec)}")
    if res.skipped_files:
        console.print(f"[yellow]{res.skipped_files} unreadable record file(s) skipped[/yellow]")


# -- feedback pull -------------------------------------------------------------------------------


@click.command()
@click.option(
    "--store",
    required=True,
    envvar="PINUP_HOSTED_STORE",
    help="Hosted store s3://bucket/prefix (the stack's FeedbackStore).",
)
@click.option("--endpoint-url", default=None, envvar="AWS_ENDPOINT_URL", help="S3-compatible endpoint.")
@click.option("--region", default=None, help="AWS region of the store bucket.")
@click.option(
    "--into",
    default=None,
    type=click.Path(file_okay=False, path_type=Path),
    help="Local store directory (default: SRC/.pinup/feedback).",
)
@click.option(
    "--src",
    default=None,
    type=click.Path(file_okay=False, path_type=Path),
    help=f"Workspace whose local store is the default target (default: {NEAREST_WORKSPACE}).",
)
@click.option("--board", "boards", multiple=True, help="Only this board (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def pull(
    store: str,
    endpoint_url: str | None,
    region: str | None,
    into: Path | None,
    src: Path | None,
    boards: tuple[str, ...],
    as_json: bool,
) -> None:
    """Mirror hosted feedback from S3 into the local store; existing files are never overwritten."""
    from botocore.exceptions import BotoCoreError, ClientError

    from pinup.hosted.aws import s3_client
    from pinup.hosted.pull import pull as do_pull
    from pinup.hosted.records import check_board

    location = _location(store, "--store")
    for board in boards:
        try:
            check_board(board)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--board") from None
    target = into or (_workspace_src(src) / ".pinup" / "feedback")
    try:
        report = do_pull(s3_client(endpoint_url, region), location, target, boards=boards)
    except (BotoCoreError, ClientError) as exc:
        raise _s3_error(exc) from None
    if as_json:
        click.echo(json.dumps({"into": str(target), **report.as_dict()}, indent=2))
    else:
        click.echo(f"pulled {len(report.pulled)} new record(s) into {target}; {len(report.present)} already present")
        for path in report.conflicts:
            click.echo(f"conflict: {path} differs from the hosted copy; left unchanged", err=True)
        for key in report.invalid:
            click.echo(f"skipped: s3://{location.bucket}/{key} is not a feedback record", err=True)
    if report.conflicts:
        sys.exit(1)
