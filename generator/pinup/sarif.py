"""SARIF 2.1.0 logs, the format GitHub code scanning uploads: one shape for `pinup lint` and `pinup drift`.

Why here and plain dicts: both commands describe their rules and results the same way (rule id,
level, message, file, line, column), and a SARIF log is JSON whose schema the tests check; a
model class per SARIF object would only repeat that schema.
"""

from __future__ import annotations

import json
import os
from typing import Any

from pinup import __version__

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"

#: pinup's severities as SARIF levels (SARIF calls an info a note).
LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def rule_descriptor(rule_id: str, severity: str, description: str, help_uri: str | None = None) -> dict[str, Any]:
    """A `reportingDescriptor`: the rule's id, what it checks (as help too) and its default level."""
    text = " ".join(description.split())
    out: dict[str, Any] = {
        "id": rule_id,
        "name": rule_id,
        "shortDescription": {"text": text.split(" — ")[0] if " — " in text else text},
        "fullDescription": {"text": text},
        "help": {"text": text},
        "defaultConfiguration": {"level": LEVELS[severity]},
    }
    if help_uri:
        out["helpUri"] = help_uri
    return out


def artifact_uri(path: str) -> str:
    """A file as code scanning wants it: relative to the working folder (the repository root in CI),
    with forward slashes; a file outside it as an absolute `file://` URI."""
    from pathlib import Path
    from urllib.parse import quote

    absolute = Path(os.path.abspath(path))
    try:
        relative = absolute.relative_to(Path.cwd())
    except ValueError:
        return absolute.as_uri()
    return quote(relative.as_posix())


def result(
    rule_ids: list[str],
    rule_id: str,
    level: str,
    message: str,
    uri: str,
    line: int,
    column: int | None = None,
    end_column: int | None = None,
    fingerprint: str | None = None,
) -> dict[str, Any]:
    """One `result` at a file position (`level` is pinup's severity)."""
    region: dict[str, Any] = {"startLine": max(1, line)}
    if column is not None:
        region["startColumn"] = max(1, column)
        if end_column is not None and end_column > column:
            region["endColumn"] = end_column
    out: dict[str, Any] = {
        "ruleId": rule_id,
        "ruleIndex": rule_ids.index(rule_id),
        "level": LEVELS[level],
        "message": {"text": message},
        "locations": [
            {"physicalLocation": {"artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"}, "region": region}}
        ],
    }
    if uri.startswith("file:"):
        del out["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"]
    if fingerprint is not None:
        out["partialFingerprints"] = {"pinupFingerprint/v1": fingerprint}
    return out


def sarif_log(rules: list[dict[str, Any]], results: list[dict[str, Any]]) -> dict[str, Any]:
    """A SARIF 2.1.0 log with one run of pinup (columns count Unicode code points, not UTF-16 units)."""
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "pinup",
                        "version": __version__,
                        "rules": rules,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }


def dumps(log: dict[str, Any]) -> str:
    """The log as indented JSON with a final newline."""
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"
