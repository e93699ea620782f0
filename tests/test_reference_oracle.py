"""The batch oracle answers exactly as a fresh `design.md` process would (stdout, stderr, exit status)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from reference_oracle import ReferenceOracle

pytestmark = pytest.mark.node

CORPUS = Path(__file__).resolve().parent / "designmd" / "corpus"
CASES = [
    ("lint", str(CORPUS / "full-ok.md")),
    ("lint", str(CORPUS / "invalid-yaml.md"), "--format", "md"),
    ("diff", str(CORPUS / "full-ok.md"), str(CORPUS / "refs.md")),
    ("export", str(CORPUS / "full-ok.md"), "--format", "css-vars", "--prefix", "ds"),
    ("export", str(CORPUS / "full-ok.md"), "--format", "scss"),
    ("lint", str(CORPUS / "no-such-file.md")),
    ("lint", str(CORPUS / "surrogates.md"), "--format", "md"),
    ("lint",),
]


@pytest.mark.parametrize("args", CASES, ids=lambda a: " ".join(Path(x).name for x in a))
def test_batch_run_matches_a_fresh_process(args: tuple[str, ...], reference: ReferenceOracle) -> None:
    fresh = subprocess.run([str(reference.cli), *args], capture_output=True, text=True, timeout=120, check=False)
    batch = reference(*args)
    assert (batch.stdout, batch.stderr, batch.returncode) == (fresh.stdout, fresh.stderr, fresh.returncode)


def test_runs_are_cached_and_do_not_leak_state(reference: ReferenceOracle) -> None:
    """A failing run does not change the next one; asking twice returns the same answer."""
    ok = ("lint", str(CORPUS / "full-ok.md"))
    first = reference(*ok)
    assert reference("export", str(CORPUS / "full-ok.md"), "--format", "nope").returncode == 1
    reference.cache.pop(ok)
    assert reference(*ok) == first and first.returncode == 0 and first.stderr == ""
