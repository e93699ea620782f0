"""The DESIGN.md model is plain dataclasses: linting and modelling a design imports no pydantic,
a report still serialises through pydantic (`TypeAdapter`, what `pinup schema` uses), and a warm
build of a workspace with boards validates no board.yaml again.

Each check runs in a fresh process: this test session has long imported pydantic and built
every validator.
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
from pathlib import Path
from pinup.build import lint_design
from pinup.docsite.pages import build_site_model
report = lint_design(Path(sys.argv[1]))
site = build_site_model(report)
print(json.dumps({"pydantic": "pydantic" in sys.modules, "metadata": "importlib.metadata" in sys.modules}))
"""

DUMPED = """
import json, sys
from pydantic import TypeAdapter
from pinup.designmd.lint import lint_path
from pinup.designmd.model import Component, LintReport
report = lint_path(sys.argv[1], extended=True)
what = sys.argv[2]
if what == "component":
    component = next(c for c in report.design.components.values() if c.properties)
    value = TypeAdapter(Component).dump_python(component, mode="json")
elif what == "json":
    value = json.loads(TypeAdapter(LintReport).dump_json(report))
else:
    value = TypeAdapter(LintReport).dump_python(report, mode="json")
print(json.dumps(value))
"""


def _run(code: str, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_linting_and_modelling_a_design_imports_no_pydantic() -> None:
    out = json.loads(_run(MODELLED, str(ROOT / "site_src" / "DESIGN.md")))
    assert out == {"pydantic": False, "metadata": False}


def test_a_report_dumps_with_its_tokens_in_every_field() -> None:
    design = str(ROOT / "site_src" / "DESIGN.md")
    whole = json.loads(_run(DUMPED, design, "python"))
    assert json.loads(_run(DUMPED, design, "json")) == whole
    symbols = whole["design"]["symbols"]  # an `Any` field: each token dumped with its own fields
    assert any(isinstance(v, dict) and v.get("type") == "color" and v["hex"].startswith("#") for v in symbols.values())
    component = json.loads(_run(DUMPED, design, "component"))
    assert any(
        isinstance(v, dict) and v.get("type") in ("color", "dimension") for v in component["properties"].values()
    )


BUILT = """
import atexit, json, sys
from pinup.boards import spec
parsed = []
parse = spec._parse
spec._parse = lambda path, text: parsed.append(path.parent.name) or parse(path, text)
report = lambda: print(json.dumps({"parsed": sorted(parsed), "modules": sorted({"ruamel"} & set(sys.modules))}))
atexit.register(report)
sys.argv = ["pinup", "build", *sys.argv[1:]]
from pinup.cli import main
main()
"""


def test_a_warm_build_of_a_workspace_with_boards_validates_no_board_again(tmp_path: Path) -> None:
    """The second `pinup build` of an unchanged workspace loads its board specs from the cache:
    no board.yaml is parsed or validated, and no YAML loader is imported."""
    workspace = tmp_path / "ws"
    shutil.copytree(ROOT / "site_src", workspace)
    boards = sorted(path.parent.name for path in (workspace / "boards").glob("*/board.yaml"))
    assert boards
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
    assert runs[0] == {"parsed": boards, "modules": ["ruamel"]}  # the first build validated the boards
    assert runs[1] == {"parsed": [], "modules": []}
