"""`pinup lint FILE` as a whole process stays light: no web, cloud, AI, templating or docs stack."""

from __future__ import annotations

import json
import subprocess
import sys

from helpers_designmd import CORPUS

HEAVY = ("starlette", "boto3", "botocore", "openai", "jinja2", "mkdocs", "uvicorn", "httpx", "pydantic", "ruamel")

SCRIPT = """
import json, sys
sys.argv = ["pinup", "lint", sys.argv[1]]
from pinup.cli import main
try:
    main()
except SystemExit:
    pass
sys.stderr.write("MODULES=" + json.dumps(sorted(sys.modules)) + "\\n")
"""


def _modules(path: str) -> set[str]:
    result = subprocess.run([sys.executable, "-c", SCRIPT, path], capture_output=True, timeout=120)
    line = [x for x in result.stderr.decode().splitlines() if x.startswith("MODULES=")][0]
    return set(json.loads(line[len("MODULES=") :]))


def test_lint_imports_nothing_heavy() -> None:
    modules = _modules(str(CORPUS / "full-ok.md"))
    assert "pinup.designmd.lint" in modules  # it really ran
    loaded = sorted(m for m in modules if m.split(".")[0] in HEAVY)
    assert loaded == [], f"pinup lint imported {loaded}"


def test_importtime_agrees() -> None:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "pinup", "lint", str(CORPUS / "refs.md")],
        capture_output=True,
        timeout=120,
    )
    assert result.returncode == 1
    names = {line.rsplit("|", 1)[-1].strip() for line in result.stderr.decode().splitlines() if "|" in line}
    assert "pinup.designmd.builder" in names
    assert not {n for n in names if n.split(".")[0] in HEAVY}
