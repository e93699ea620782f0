"""The `.pre-commit-hooks.yaml` hooks, run by the real `pre-commit` in a scratch git repository.

The scratch repository's `.pre-commit-config.yaml` names a git repository holding this checkout's
hooks file by path and commit, as a team's config names pinup's repository: pre-commit clones it
and runs the hooks on the team's files. The hooks are `language: system`, so nothing is installed
and nothing goes over the network; they run the `pinup` beside this Python.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from pinup.drift.scan import SUFFIXES

ROOT = Path(__file__).resolve().parents[2]
TREE = Path(__file__).resolve().parent / "drift_tree"
GIT = ["git", "-c", "user.name=pinup tests", "-c", "user.email=tests@example.invalid", "-c", "init.defaultBranch=main"]


def git(*args: str, cwd: Path) -> str:
    done = subprocess.run([*GIT, *args], cwd=cwd, capture_output=True, text=True, check=True, timeout=60)
    return done.stdout.strip()


@pytest.fixture()
def hooks_repo(tmp_path: Path) -> tuple[Path, str]:
    """A git repository with this checkout's hooks file, and its commit."""
    repo = tmp_path / "pinup-hooks"
    repo.mkdir()
    shutil.copy(ROOT / ".pre-commit-hooks.yaml", repo / ".pre-commit-hooks.yaml")
    git("init", "-q", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "-q", "-m", "hooks", cwd=repo)
    return repo, git("rev-parse", "HEAD", cwd=repo)


def pre_commit(project: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-cache"),
        "NO_COLOR": "1",
    }
    command = [sys.executable, "-m", "pre_commit", *args, "--all-files", "--color", "never"]
    return subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=300)


def project(tmp_path: Path, hooks: tuple[Path, str], hook_args: dict[str, list[str]]) -> Path:
    repo, rev = hooks
    work = tmp_path / "team"
    (work / "web").mkdir(parents=True)
    shutil.copy(TREE / "DESIGN.md", work / "DESIGN.md")
    shutil.copy(TREE / "src" / "button.css", work / "web" / "button.css")
    (work / "README.md").write_text("# not a DESIGN.md\n", "utf-8")
    config = {
        "repos": [
            {
                "repo": str(repo),
                "rev": rev,
                "hooks": [{"id": hook, "args": args} for hook, args in hook_args.items()],
            }
        ]
    }
    (work / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), "utf-8")
    git("init", "-q", cwd=work)
    git("add", "-A", cwd=work)
    return work


def test_lint_passes_a_clean_design_and_fails_a_broken_one(tmp_path: Path, hooks_repo: tuple[Path, str]) -> None:
    work = project(tmp_path, hooks_repo, {"pinup-lint": []})
    done = pre_commit(work, tmp_path, "run")
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"pinup lint \(DESIGN\.md\)\.+Passed", done.stdout)
    design = work / "DESIGN.md"
    design.write_text(design.read_text("utf-8").replace('"#b3261e"', '"not-a-colour"'), "utf-8")
    git("add", "-A", cwd=work)
    done = pre_commit(work, tmp_path, "run")
    assert done.returncode == 1
    assert re.search(r"pinup lint \(DESIGN\.md\)\.+Failed", done.stdout)
    assert "DESIGN.md:8: error colors.error: 'not-a-colour' is not a valid color." in done.stdout
    assert "README.md" not in done.stdout


def test_drift_fails_on_new_drift_only(tmp_path: Path, hooks_repo: tuple[Path, str]) -> None:
    work = project(tmp_path, hooks_repo, {"pinup-drift": []})
    done = pre_commit(work, tmp_path, "run")
    assert done.returncode == 1
    assert "web/button.css:4:21: drift-color #0b57d0 equals colors.primary" in done.stdout
    # the team records today's drift; from then on only new drift fails the hook
    subprocess.run(
        [sys.executable, "-m", "pinup", "drift", "web", "--write-baseline", "drift-baseline.json"],
        cwd=work,
        check=True,
        capture_output=True,
    )
    config = work / ".pre-commit-config.yaml"
    config.write_text(config.read_text("utf-8").replace("args: []", "args: [--baseline, drift-baseline.json]"))
    git("add", "-A", cwd=work)
    done = pre_commit(work, tmp_path, "run")
    assert done.returncode == 0, done.stdout + done.stderr
    (work / "web" / "new.scss").write_text(".x { padding: 16px; }\n", "utf-8")
    git("add", "-A", cwd=work)
    done = pre_commit(work, tmp_path, "run")
    assert done.returncode == 1
    assert "web/new.scss:1:15: drift-spacing 16px equals spacing.md" in done.stdout


def test_the_drift_hook_takes_exactly_the_files_drift_scans() -> None:
    (hook,) = [
        h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8")) if h["id"] == "pinup-drift"
    ]
    pattern = re.compile(hook["files"])
    assert {s for s in SUFFIXES if pattern.search(f"src/file{s}")} == SUFFIXES
    assert not any(pattern.search(f"src/file{s}") for s in (".md", ".py", ".json", ".csv", ".tsv", ".jsonc"))
