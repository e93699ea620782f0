"""One drift check: load the design's tokens, scan the files, set aside the baseline, report."""

from __future__ import annotations

import os
from bisect import bisect_right
from typing import Any, TextIO

from pinup import sarif
from pinup.drift import baseline, files
from pinup.drift.found import Drift
from pinup.drift.match import RULES, match
from pinup.drift.scan import scan
from pinup.drift.tokens import TokenIndex

FORMATS = ("text", "json", "sarif")


class DriftError(Exception):
    """drift cannot run (exit 2); `str()` is the sentence printed."""


def find_design(start: str) -> str | None:
    """The DESIGN.md in `start` or the nearest folder above it."""
    folder = os.path.abspath(start)
    while True:
        candidate = os.path.join(folder, "DESIGN.md")
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def load_tokens(design_path: str | None) -> tuple[str, TokenIndex]:
    """The DESIGN.md's path and token index; DriftError when there is none or it has no tokens."""
    from pinup.designmd.lint import ReadError, lint_text, read_source

    path = design_path or find_design(os.getcwd())
    if path is None:
        raise DriftError(f"no DESIGN.md in {os.getcwd()} or a folder above it; name one with --design FILE")
    try:
        text = read_source(path)
    except ReadError as exc:
        raise DriftError(str(exc)) from None
    index = TokenIndex(lint_text(text).design)
    if not index:
        raise DriftError(
            f"{path} has no tokens to compare with (no colors, spacing, rounded, or typography with "
            "fontFamily/fontSize); add some, or name another DESIGN.md with --design"
        )
    return path, index


def scan_text(path: str, text: str, index: TokenIndex, uri: str | None = None) -> list[Drift]:
    """Every drift in one file's text, in order."""
    literals = scan(text, files.suffix(path))
    if not literals:
        return []
    starts = [0]
    find = text.find
    at = find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = find("\n", at + 1)
    name = uri if uri is not None else sarif.artifact_uri(path)
    out: list[Drift] = []
    for literal in literals:
        found = match(literal, index)
        if found is None:
            continue
        line = bisect_right(starts, literal.start)
        out.append(Drift(path, name, literal, line, literal.start - starts[line - 1] + 1, found))
    return out


class Outcome:
    """The result of one run: every drift, the new ones, what was scanned and skipped."""

    def __init__(self, design: str, index: TokenIndex) -> None:
        self.design = design
        self.index = index
        self.drifts: list[Drift] = []
        self.new: list[Drift] = []
        self.scanned = 0
        self.skipped: list[tuple[str, str]] = []

    def as_json(self, *, baselined: bool) -> dict[str, Any]:
        shown = self.new if baselined else self.drifts
        return {
            "design": self.design,
            "tokens": self.index.count(),
            "files": self.scanned,
            "skipped": [{"file": f, "reason": r} for f, r in self.skipped],
            "drift": [d.as_json() for d in shown],
            "summary": {"drift": len(self.drifts), "new": len(self.new), "baselined": len(self.drifts) - len(self.new)},
        }


def check(paths: list[str], design: str | None = None, baseline_path: str | None = None) -> Outcome:
    """Scan `paths` against the design's tokens (raises DriftError when it cannot run)."""
    design_path, index = load_tokens(design)
    known = baseline.load(baseline_path) if baseline_path else None
    found, missing = files.expand(paths)
    if missing:
        raise DriftError("; ".join(f'"{p}" {why}' for p, why in missing))
    outcome = Outcome(design_path, index)
    for path in found:
        text, why = files.read_text(path)
        if text is None:
            outcome.skipped.append((path, why or "skipped"))
            continue
        outcome.scanned += 1
        outcome.drifts += scan_text(path, text, index)
    outcome.new = baseline.new_drift(outcome.drifts, known) if known is not None else outcome.drifts
    return outcome


def sarif_rules() -> list[dict[str, Any]]:
    return [sarif.rule_descriptor(rule, "warning", text) for rule, text in RULES.items()]


def to_sarif(drifts: list[Drift]) -> str:
    """The drifts as a SARIF log; each result's fingerprint is its file, rule, value and which occurrence
    of that value in the file it is, so code scanning follows an alert as lines move (as the baseline does)."""
    from collections import Counter

    rules = sarif_rules()
    ids = [r["id"] for r in rules]
    seen: Counter[tuple[str, str, str]] = Counter()
    results = []
    for d in drifts:
        key = (d.uri, d.rule, d.literal.text)
        seen[key] += 1
        results.append(
            sarif.result(
                ids,
                d.rule,
                "warning",
                d.message(),
                d.uri,
                d.line,
                d.column,
                d.end_column,
                fingerprint=f"{d.uri}:{d.rule}:{d.literal.text}:{seen[key]}",
            )
        )
    return sarif.dumps(sarif.sarif_log(rules, results))


def to_text(outcome: Outcome, *, baselined: bool) -> str:
    shown = outcome.new if baselined else outcome.drifts
    lines = [f"{d.uri}:{d.line}:{d.column}: {d.rule} {d.message()}" for d in shown]
    total = f"{len(shown)} drift{'' if len(shown) == 1 else 's'}"
    if baselined:
        total = f"{len(shown)} new drift{'' if len(shown) == 1 else 's'} ({len(outcome.drifts) - len(shown)} in the baseline)"
    total += f" in {outcome.scanned} file{'' if outcome.scanned == 1 else 's'}"
    if outcome.skipped:
        total += f", {len(outcome.skipped)} skipped"
    if lines:
        lines.append("")
    return "\n".join([*lines, total]) + "\n"


def main(
    paths: list[str],
    *,
    design: str | None,
    baseline_path: str | None,
    write_baseline: str | None,
    fmt: str,
    stdout: TextIO,
    stderr: TextIO,
) -> int:
    """`pinup drift`: exit 0 when clean, 1 on (new) drift, 2 when it could not run."""
    import json

    try:
        outcome = check(paths, design, baseline_path)
    except (DriftError, baseline.BaselineError) as exc:
        stderr.write(f"pinup drift: {exc}\n")
        return 2
    for path, why in outcome.skipped:
        stderr.write(f"pinup drift: skipped {path}: {why}\n")
    if write_baseline:
        with open(write_baseline, "w", encoding="utf-8") as handle:
            handle.write(baseline.to_json(outcome.drifts))
        stderr.write(f"pinup drift: wrote {len(outcome.drifts)} drifts to {write_baseline}\n")
        return 0
    baselined = baseline_path is not None
    if fmt == "json":
        stdout.write(json.dumps(outcome.as_json(baselined=baselined), indent=2, ensure_ascii=False) + "\n")
    elif fmt == "sarif":
        stdout.write(to_sarif(outcome.new))
    else:
        stdout.write(to_text(outcome, baselined=baselined))
    stdout.flush()
    return 1 if outcome.new else 0
