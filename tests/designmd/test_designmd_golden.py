"""Golden tests: every corpus file's findings (with line numbers) and summary, reviewed and frozen.

Regenerate after a reviewed change with `PINUP_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/designmd`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers_designmd import GOLDEN, corpus_files, dump, golden_record, read_text

UPDATE = os.environ.get("PINUP_UPDATE_GOLDEN") == "1"


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
@pytest.mark.parametrize("extended", [False, True], ids=["default", "extended"])
def test_golden(path: Path, extended: bool) -> None:
    record = golden_record(read_text(path), extended=extended)
    golden = GOLDEN / (path.stem + (".extended" if extended else "") + ".json")
    if UPDATE:
        golden.write_text(dump(record), encoding="utf-8")
    assert golden.exists(), f"no golden file for {path.name}; run with PINUP_UPDATE_GOLDEN=1 and review it"
    assert dump(record) == golden.read_text(encoding="utf-8")


def test_every_golden_has_a_corpus_file() -> None:
    names = {p.stem for p in corpus_files()}
    for golden in GOLDEN.glob("*.json"):
        stem = golden.name.removesuffix(".json").removesuffix(".extended")
        assert stem in names, f"stale golden file {golden.name}"
