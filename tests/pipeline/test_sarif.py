"""`pinup lint --format sarif` and `pinup drift --format sarif`: SARIF 2.1.0 that GitHub code scanning takes.

Validated against the OASIS SARIF 2.1.0 JSON schema, vendored beside this file (see
SARIF-SCHEMA-NOTICE.md), plus what GitHub's upload reads beyond the schema: a rule id on every
result that names a rule of the run, a message, a relative file URI and a 1-based line.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft4Validator

from pinup.spec import rules as spec_rules

HERE = Path(__file__).resolve().parent
TREE = HERE / "drift_tree"
SCHEMA = json.loads((HERE / "sarif-schema-2.1.0.json").read_text("utf-8"))

BROKEN = """---
name: Broken
colors:
  primary: "#0b57d0"
  accent: "not-a-colour"
typography:
  body:
    fontFamily: Inter
    fontSize: 16px
components:
  button:
    backgroundColor: "{colors.primary}"
    textColor: "{colors.missing}"
---

## Colors

Blue.

## Overview

Out of order.
"""


def pinup(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A real `pinup` process in `cwd` (SARIF file URIs are relative to the working folder)."""
    return subprocess.run([sys.executable, "-m", "pinup", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def valid_sarif(text: str) -> dict[str, Any]:
    log: dict[str, Any] = json.loads(text)
    errors = sorted(Draft4Validator(SCHEMA).iter_errors(log), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]
    (run,) = log["runs"]
    ids = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    assert len(ids) == len(set(ids))
    for result in run["results"]:
        assert ids[result["ruleIndex"]] == result["ruleId"]
        assert result["message"]["text"]
        location = result["locations"][0]["physicalLocation"]
        assert not location["artifactLocation"]["uri"].startswith(("/", "file:"))
        assert location["region"]["startLine"] >= 1
    return log


def test_the_vendored_schema_is_the_oasis_one() -> None:
    Draft4Validator.check_schema(SCHEMA)
    assert SCHEMA["id"].startswith("https://docs.oasis-open.org/sarif/sarif/v2.1.0/")
    with pytest.raises(Exception, match="is a required property"):
        Draft4Validator(SCHEMA).validate({"version": "2.1.0"})


def test_lint_sarif_has_every_rule_with_spec_help_and_each_finding_at_its_line(tmp_path: Path) -> None:
    (tmp_path / "design").mkdir()
    (tmp_path / "design" / "DESIGN.md").write_text(BROKEN, "utf-8")
    done = pinup("lint", "--format", "sarif", "design/DESIGN.md", cwd=tmp_path)
    assert done.returncode == 1, done.stderr  # errors, as with every other format
    log = valid_sarif(done.stdout)
    run = log["runs"][0]
    help_by_rule = {r["id"]: r["help"]["text"] for r in run["tool"]["driver"]["rules"]}
    assert {r["name"]: r["description"] for r in spec_rules()}.items() <= help_by_rule.items()
    found = [
        (r["ruleId"], r["level"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in run["results"]
    ]
    assert found == [  # what `--format text` reports, line for line
        ("front-matter", "error", 5),  # accent: not a colour (a finding without a rule in the reference's JSON)
        ("broken-ref", "error", 11),
        ("token-summary", "note", 1),
        ("missing-sections", "note", 1),
        ("missing-sections", "note", 1),
        ("section-order", "warning", 20),
    ]
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]} == {
        "design/DESIGN.md"
    }
    assert all(r["level"] in ("error", "warning", "note") for r in run["results"])
    fingerprints = [r["partialFingerprints"]["pinupFingerprint/v1"] for r in run["results"]]
    assert len(set(fingerprints)) == len(fingerprints)  # code scanning keeps each finding as its own alert


def test_lint_sarif_covers_many_files_and_extended_rules(tmp_path: Path) -> None:
    shutil.copy(TREE / "DESIGN.md", tmp_path / "DESIGN.md")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "DESIGN.md").write_text(BROKEN, "utf-8")
    done = pinup("lint", "--format", "sarif", "--extended", "-r", ".", cwd=tmp_path)
    log = valid_sarif(done.stdout)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
    assert uris == {"DESIGN.md", "b/DESIGN.md"}
    extended = {r["name"] for r in spec_rules() if r["extended"]}
    assert extended <= {r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]}


def test_drift_sarif_has_positions_and_fix_hints(tmp_path: Path) -> None:
    done = pinup("drift", "src", "--format", "sarif", cwd=TREE)
    assert done.returncode == 1, done.stderr
    log = valid_sarif(done.stdout)
    expected = json.loads((TREE / "expected.json").read_text("utf-8"))
    results = log["runs"][0]["results"]
    assert log["runs"][0]["columnKind"] == "unicodeCodePoints"
    assert [
        (
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
            r["locations"][0]["physicalLocation"]["region"]["startColumn"],
            r["ruleId"],
        )
        for r in results
    ] == [(d["file"], d["line"], d["column"], d["rule"]) for d in expected]
    fingerprints = [r["partialFingerprints"]["pinupFingerprint/v1"] for r in results]
    assert len(set(fingerprints)) == len(fingerprints)
    assert "src/button.css:drift-spacing:16px:1" in fingerprints
    first = results[0]
    assert first["message"]["text"].endswith("use var(--color-on-primary) or Tailwind text-on-primary")
    assert first["locations"][0]["physicalLocation"]["region"]["endColumn"] == 29 + len("#ffffff")
