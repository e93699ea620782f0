"""The DESIGN.md and board models build no pydantic validator until one is used, and still serialise.

Building the first validator in a process loads pydantic's plugin machinery
(`importlib.metadata` and a scan of every installed distribution): a `pinup build` or
`pinup gallery` that only makes these models with `model_construct` must not pay for it.
Tokens also sit in `Any` fields, which serialise through the value's own class, so dumping
any model of the module must build the token classes too. Each check runs in a fresh process:
this test session has long built every validator.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

MODELLED = """
import json, sys
import pydantic._internal._model_construction as construction
built = []
complete = construction.complete_model_class
construction.complete_model_class = lambda cls, *a, **k: built.append(cls.__name__) or complete(cls, *a, **k)
from pathlib import Path
from pinup.build import lint_design
from pinup.docsite.pages import build_site_model
report = lint_design(Path(sys.argv[1]))
site = build_site_model(report)
print(json.dumps({"built": built, "metadata": "importlib.metadata" in sys.modules}))
"""

DUMPED = """
import json, sys
from pinup.designmd.lint import lint_path
report = lint_path(sys.argv[1], extended=True)
what = sys.argv[2]
if what == "component":
    value = next(c for c in report.design.components.values() if c.properties).model_dump(mode="json")
elif what == "json":
    value = json.loads(report.model_dump_json())
else:
    value = report.model_dump(mode="json")
print(json.dumps(value))
"""


def _run(code: str, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_linting_and_modelling_a_design_builds_no_validator() -> None:
    out = json.loads(_run(MODELLED, str(ROOT / "site_src" / "DESIGN.md")))
    assert out == {"built": [], "metadata": False}


def test_a_report_dumps_with_its_tokens_in_every_field() -> None:
    design = str(ROOT / "site_src" / "DESIGN.md")
    whole = json.loads(_run(DUMPED, design, "python"))
    assert json.loads(_run(DUMPED, design, "json")) == whole
    symbols = whole["design"]["symbols"]  # an `Any` field: each token dumped through its own class
    assert any(isinstance(v, dict) and v.get("type") == "color" and v["hex"].startswith("#") for v in symbols.values())
    component = json.loads(_run(DUMPED, design, "component"))
    assert any(
        isinstance(v, dict) and v.get("type") in ("color", "dimension") for v in component["properties"].values()
    )


BUILT = """
import atexit, json, sys
import pydantic._internal._model_construction as construction
built = []
complete = construction.complete_model_class
construction.complete_model_class = lambda cls, *a, **k: built.append(cls.__name__) or complete(cls, *a, **k)
report = lambda: print(json.dumps({"built": built, "modules": sorted({"ruamel", "importlib.metadata"} & set(sys.modules))}))
atexit.register(report)
sys.argv = ["pinup", "build", *sys.argv[1:]]
from pinup.cli import main
main()
"""


def test_a_warm_build_of_a_workspace_with_boards_builds_no_validator(tmp_path: Path) -> None:
    """The second `pinup build` of an unchanged workspace loads its model and board specs from the
    cache: no validator, no YAML loader for the boards, no plugin machinery."""
    workspace = tmp_path / "ws"
    shutil.copytree(ROOT / "site_src", workspace)
    assert list((workspace / "boards").glob("*/board.yaml"))
    env = {**os.environ, "PINUP_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("PINUP_NO_CACHE", None)
    runs = []
    for _ in range(2):
        result = subprocess.run(
            [sys.executable, "-c", BUILT, str(workspace), "--out", str(tmp_path / "site")],
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        runs.append(json.loads(result.stdout.strip().splitlines()[-1]))
    assert "BoardSpec" in runs[0]["built"]  # the first build validated the boards
    assert runs[1] == {"built": [], "modules": []}
