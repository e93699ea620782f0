"""How the agent's read paths grow with the store: every one at 1,000 and 10,000 submissions on one
board (and 100,000 with --big).

    .venv/bin/python bench/store_scale.py [--sizes 1000 10000] [--big] [--repeat 3] [--dir DIR]

Each size is a store written the way the endpoint and the items' lifecycle write it (records with
three items each, their numbers, and a state change for one item in ten, journaled), made with
plain writes so that making it takes seconds, not the hours durable creates would. Then, through
the real command line in this process (what an agent's `pinup feedback ...` runs, minus starting
Python), each read path is timed: the median of `--repeat` runs, after one run that builds the
board's index. The first line of each size is that build, from nothing (what the first read after
an upgrade, or after the index file was deleted, pays once). The goal: each read under 0.5 s at
10,000 submissions, growing sub-linearly from there.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "generator"), str(ROOT / "functions")]

BOARD = "hero"


def make_store(root: Path, submissions: int) -> int:
    """A store of `submissions` records on one board, numbered, with one item in ten claimed or
    resolved; returns the number of items."""
    from pinup_feedback.lifecycle import item_specs
    from pinup_feedback.store.base import encode, iso_ts, record_name

    board_dir = root / BOARD
    log = root / "_items" / BOARD
    for folder in (board_dir, log / "n", log / "f", log / "e"):
        folder.mkdir(parents=True, exist_ok=True)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    next_n, journal = 1, []
    for k in range(submissions):
        record = {
            "schemaVersion": 1,
            "board": BOARD,
            "round": 1 + k // 1000,
            "id": uuid.uuid4().hex,
            "receivedAt": iso_ts(start + timedelta(seconds=k)),
            "kind": "final",
            "clientHash": "0" * 16,
            "reviewer": f"reviewer {k}",
            "preferred": "A",
            "comments": {"A": f"too busy ({k})", "B": "good"},
            "overall": "Tighter spacing above the title, please.",
        }
        (board_dir / record_name(record)).write_bytes(encode(record))
        specs = item_specs(record)
        numbers = {spec.key: next_n + i for i, spec in enumerate(specs)}
        doc = json.dumps({"feedbackId": record["id"], "items": numbers, "at": record["receivedAt"]})
        (log / "n" / f"{next_n:010d}.json").write_text(doc)
        (log / "f" / f"{record['id']}.json").write_text(doc)
        for n in numbers.values():
            if n % 10 == 0:
                status = "resolved" if n % 20 == 0 else "in_progress"
                event = {"n": n, "seq": 1, "action": "claim", "status": status, "summary": "done", "actor": "bench"}
                (log / "e" / f"{n:010d}").mkdir()
                (log / "e" / f"{n:010d}" / "000001.json").write_text(json.dumps({**event, "at": record["receivedAt"]}))
                journal.append(f"\ne/{n:010d}/000001.json\n")
        next_n += len(specs)
    (log / "journal").write_text("".join(journal))
    return next_n - 1


def timed(fn: Callable[[], Any], repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def run_cli(*args: str) -> Callable[[], None]:
    from click.testing import CliRunner

    from pinup.cli import cli

    def call() -> None:
        result = CliRunner().invoke(cli, ["feedback", *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output

    return call


def measure(root: Path, submissions: int, repeat: int) -> list[tuple[str, float]]:
    from pinup.mcp_server import Feedback

    items = make_store(root, submissions)
    s = ["--store", str(root)]
    index = root / "_items" / BOARD / "index.sqlite3"
    rows = [("index built from nothing (once)", timed(run_cli("items", *s), 1))]
    fresh = (n for n in range(items, 0, -1) if n % 10)  # open items, newest first: each change succeeds

    def claim_next() -> None:
        run_cli("claim", str(next(fresh)), "--agent", "bench", *s)()

    def resolve_next() -> None:
        run_cli("resolve", str(next(fresh)), "--status", "resolved", "--summary", "done", *s)()

    last_hour = (datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=submissions - 3600)).isoformat()
    mcp = Feedback(None, str(root))  # one `pinup mcp` process serves every call of its agent
    paths: list[tuple[str, Callable[[], Any]]] = [
        ("feedback items", run_cli("items", *s)),
        ("feedback items --status open", run_cli("items", "--status", "open", *s)),
        ("feedback items --format json", run_cli("items", "--format", "json", *s)),
        ("feedback items --since (the last hour)", run_cli("items", "--since", last_hour, *s)),
        ("feedback list", run_cli("list", *s)),
        ("feedback list --format json", run_cli("list", "--format", "json", *s)),
        ("feedback show latest", run_cli("show", "latest", *s)),
        ("feedback handoff", run_cli("handoff", *s)),
        ("feedback claim N", claim_next),
        ("feedback resolve N", resolve_next),
        ("mcp list_items (one page)", lambda: mcp.list_items(BOARD, None)),
        ("mcp list_items status=open (one page)", lambda: mcp.list_items(BOARD, "open")),
        ("mcp list_items since=(the last hour)", lambda: mcp.list_items(BOARD, None, since=last_hour)),
        ("mcp get_item N", lambda: mcp.get_item(items // 2, BOARD)),
        ("mcp get_feedback latest", lambda: mcp.get_feedback(BOARD, "latest")),
        ("mcp handoff", lambda: mcp.handoff(BOARD, "latest", "json")),
        ("mcp claim_item N", lambda: mcp.claim_item(next(fresh), BOARD, "bench")),
        ("mcp list_boards", lambda: mcp.list_boards()),
        ("mcp list_items all=true (every item)", lambda: mcp.list_items(BOARD, None, show_all=True)),
        ("feedback items --all --format json (every item)", run_cli("items", "--all", "--format", "json", *s)),
    ]
    for name, fn in paths:
        rows.append((name, timed(fn, repeat)))
    index.unlink()
    rows.append(("index rebuilt after deletion", timed(run_cli("items", *s), 1)))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000], help="submissions per run")
    parser.add_argument("--big", action="store_true", help="add 100,000 submissions (a few minutes)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per read path (the median is printed)")
    parser.add_argument("--dir", type=Path, default=None, help="scratch folder (default: a temp folder)")
    args = parser.parse_args()
    sizes = [*args.sizes, *([100_000] if args.big else [])]
    results: dict[int, list[tuple[str, float]]] = {}
    for size in sizes:
        scratch = Path(tempfile.mkdtemp(prefix="store-scale-", dir=args.dir))
        try:
            results[size] = measure(scratch / "store", size, args.repeat)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    names = [name for name, _ in results[sizes[0]]]
    print(f"{'read path (seconds, median)':52}" + "".join(f"{size:>12,}" for size in sizes))
    for i, name in enumerate(names):
        print(f"{name:52}" + "".join(f"{results[size][i][1]:12.3f}" for size in sizes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
