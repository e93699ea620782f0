"""The function stays lean: importing the Lambda handler pulls in nothing from pinup or the site tooling."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("pinup", "jinja2", "mkdocs", "openai", "markdown_it", "uvicorn", "rich", "click")

PROBE = """
import gc, json, sys
frozen_before = gc.get_freeze_count()
import pinup_feedback.lambda_handler as lh
assert callable(lh.handler)
print(json.dumps({"modules": sorted(sys.modules), "frozen": gc.get_freeze_count() - frozen_before}))
"""


def test_lambda_handler_imports_nothing_heavy(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "PINUP_STORE": "s3://bucket/prefix",
        "AWS_DEFAULT_REGION": "us-east-1",
        "PYTHONPATH": str(ROOT / "functions"),
    }
    out = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, cwd=tmp_path, capture_output=True, text=True, check=True
    )
    probe = json.loads(out.stdout)
    modules = probe["modules"]
    # the init phase's heap is frozen: warm requests' full collections never walk it again
    assert probe["frozen"] > 10_000
    assert "pinup_feedback.lambda_handler" in modules and "mangum" in modules and "botocore.session" in modules
    assert "boto3" not in modules  # the S3 client comes from botocore itself (store/boto_session.py)
    bad = [m for m in modules if m.split(".")[0] in FORBIDDEN]
    assert bad == []


def test_no_source_file_imports_pinup() -> None:
    """A static check too, so a lazy `import pinup` inside a function cannot hide."""
    import ast

    offenders = []
    for path in (ROOT / "functions" / "pinup_feedback").rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            offenders += [f"{path.name}:{n}" for n in names if n.split(".")[0] in FORBIDDEN[:5]]
    assert offenders == []
