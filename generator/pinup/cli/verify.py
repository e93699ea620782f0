"""`pinup verify`: compare what was built with the approved variant; exit 0 matches, 1 differs, 2 could not run."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from pinup.workspace import SRC_HELP

EXIT_COULD_NOT_RUN = 2


class CouldNotVerify(click.ClickException):
    """The comparison could not be made (bad URL, page not loading, no approved variant): exit code 2."""

    exit_code = EXIT_COULD_NOT_RUN


@click.command("verify")
@click.argument("board", metavar="BOARD")
@click.option("--url", metavar="URL", help="The implementation, served (loopback only unless --allow-host).")
@click.option(
    "--file",
    "page_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The implementation as a local HTML page or image.",
)
@click.option("--variant", metavar="ID", help="Verify against this variant (default: the round's final pick).")
@click.option(
    "--round", "round_", type=click.IntRange(min=1), metavar="N", help="The round (default: the latest pick's)."
)
@click.option(
    "--threshold",
    type=click.FloatRange(0, 1),
    default=0.01,
    show_default=True,
    help="Largest share of differing pixels (0..1) that still matches.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0.1),
    default=30.0,
    show_default=True,
    help="Seconds a page may take to load before verify gives up (exit 2).",
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="Also open URLs on this host (repeatable); without it only loopback URLs are opened.",
)
@click.option(
    "--report",
    "report_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder for the report page (default: <site>/boards/BOARD/verify/).",
)
@click.option("--src", type=click.Path(file_okay=False, path_type=str), help=SRC_HELP)
@click.option(
    "--store",
    metavar="DIR|s3://BUCKET/PREFIX",
    help="Feedback store holding the pick (default: <workspace>/.pinup/feedback).",
)
@click.option(
    "--endpoint-url", default=None, envvar="AWS_ENDPOINT_URL", help="S3-compatible endpoint for an s3:// store."
)
def verify(
    board: str,
    url: str | None,
    page_file: Path | None,
    variant: str | None,
    round_: int | None,
    threshold: float,
    timeout: float,
    fmt: str,
    allow_hosts: tuple[str, ...],
    report_dir: Path | None,
    src: str | None,
    store: str | None,
    endpoint_url: str | None,
) -> None:
    """Check a built page against BOARD's approved variant, in headless Chromium.

    Renders both at the variant's device size, counts the pixels that differ (anti-aliasing
    ignored), scores their similarity (SSIM), follows each pin of the variant into the page
    (changed, untouched or missing), and writes a report page beside the board. Exit status:
    0 within --threshold, 1 when it differs, 2 when it could not run (the reason is printed).
    """
    from pinup.feedback_store import open_feedback
    from pinup.verify.run import verify as run_verify
    from pinup.verify.target import VerifyError, file_target, url_target

    if (url is None) == (page_file is None):
        raise CouldNotVerify("give the implementation with either --url URL or --file PAGE")
    try:
        target = url_target(url, allow_hosts) if url is not None else file_target(Path(str(page_file)))
        ws, st = open_feedback(src, store, endpoint_url)
        folder = report_dir or Path(ws.out) / "boards" / board / "verify"
        verdict = run_verify(
            Path(ws.src),
            st,
            board,
            target,
            variant=variant,
            round_=round_,
            threshold=threshold,
            timeout=timeout,
            report_dir=folder,
        )
    except (VerifyError, ValueError) as exc:
        raise CouldNotVerify(str(exc)) from None
    click.echo(json.dumps(verdict.as_json(), ensure_ascii=False, indent=2) if fmt == "json" else verdict.text())
    sys.exit(verdict.exit_code)
