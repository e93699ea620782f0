"""The Lambda's cold start builds only the pydantic validators a request needs (bench/lambda_cold_import.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json
from pinup_feedback import schema
models = ["FeedbackV1", "FeedbackV2", "RemixSpec", "Box", "Pin", "Tweakable", "Manifest", "FieldError"]
built = lambda: sorted(m for m in models if getattr(schema, m).__pydantic_complete__)
at_import = built()
schema.parse_feedback({"schemaVersion": 1, "board": "hero", "round": 1, "preferred": "A"})
after_v1 = built()
try:
    schema.parse_feedback({"schemaVersion": 1, "board": "hero"})
except schema.FeedbackInvalid as exc:
    errors = [e.path for e in exc.errors]
print(json.dumps({"import": at_import, "v1": after_v1, "errors": errors}))
"""


def test_importing_the_schema_builds_no_validator_and_a_v1_body_builds_only_v1() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "functions")}
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    seen = json.loads(out.stdout)
    assert seen["import"] == []
    assert "FeedbackV1" in seen["v1"] and "FeedbackV2" not in seen["v1"] and "Pin" not in seen["v1"]
    assert seen["errors"] == ["round"]  # deferred models validate exactly as built ones
