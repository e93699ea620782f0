"""The fork server answers exactly as a fresh `python -m pinup` process would (stdout, stderr, exit status)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_runner import ForkedCli

CORPUS = Path(__file__).resolve().parent / "designmd" / "corpus"
CASES: list[tuple[tuple[str, ...], bytes | None, dict[str, str]]] = [
    (("lint", str(CORPUS / "full-ok.md")), None, {}),
    (("lint", str(CORPUS / "refs.md"), "--format", "text"), None, {}),
    (("lint", str(CORPUS / "refs.md"), "--format", "text"), None, {"NO_COLOR": "1"}),
    (("lint", "-"), (CORPUS / "refs.md").read_bytes(), {}),
    (("lint", str(CORPUS / "surrogates.md"), "--format", "md"), None, {}),
    (("lint", str(CORPUS / "no-such-file.md")), None, {}),
    (("diff", str(CORPUS / "full-ok.md"), str(CORPUS / "refs.md"), "--format", "md"), None, {}),
    (("export", str(CORPUS / "full-ok.md"), "--format", "css-vars", "--prefix", "ds"), None, {}),
    (("export", "--format", "nope", str(CORPUS / "full-ok.md")), None, {}),
    (("lint", "--help"), None, {}),
    (("no-such-command",), None, {}),
]


@pytest.fixture(scope="module")
def forked() -> Iterator[ForkedCli]:
    runner = ForkedCli()
    yield runner
    runner.close()


def _case_id(case: tuple[tuple[str, ...], bytes | None, dict[str, str]]) -> str:
    args, _, env = case
    return " ".join([Path(x).name for x in args] + [f"{k}={v}" for k, v in env.items()])


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_fork_matches_a_fresh_process(
    case: tuple[tuple[str, ...], bytes | None, dict[str, str]], forked: ForkedCli, tmp_path: Path
) -> None:
    args, stdin, env = case
    fresh = subprocess.run(
        [sys.executable, "-m", "pinup", *args],
        input=stdin,
        capture_output=True,
        timeout=120,
        env={**os.environ, **env},
        cwd=tmp_path,
        check=False,
    )
    fork = forked.run(*args, input=stdin, env=env, cwd=tmp_path)
    assert (fork.stdout, fork.stderr, fork.returncode) == (fresh.stdout, fresh.stderr, fresh.returncode)


def test_each_fork_starts_clean(forked: ForkedCli, tmp_path: Path) -> None:
    """A run's environment and folder do not leak into the next; a command that hangs hits its timeout."""
    src = CORPUS.parent.parent.parent / "site_src"
    store = tmp_path / "no-store-here"
    with_env = forked.run("results", "trail-home", "--src", str(src), env={"PINUP_STORE": str(store)})
    without = forked.run("results", "trail-home", "--src", str(src))
    assert with_env.returncode == without.returncode == 0
    assert str(store).encode() in with_env.stderr and str(store).encode() not in without.stderr
    (tmp_path / "DESIGN.md").write_bytes((CORPUS / "full-ok.md").read_bytes())
    assert forked.run("lint", "DESIGN.md", cwd=tmp_path).returncode == 0
    assert forked.run("lint", "DESIGN.md").returncode == 2  # back in this process's folder
    with pytest.raises(subprocess.TimeoutExpired):
        forked.run("wait", str(src), "--board", "trail-home", "--store", str(tmp_path), "--timeout", "600", timeout=1)
