"""Tweakable tokens, and `pinup tweaks apply`: a patched copy of DESIGN.md, its diff, the original untouched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from boards_helpers import copy_workspace
from click.testing import CliRunner

from pinup.cli import cli
from pinup.designmd.lint import lint_path
from pinup.tweaks import TweakError, apply_tweaks, tweakables
from pinup_feedback.schema import tweak_problem
from pinup_feedback.store.file import FileStore

DESIGN = """---
name: Demo   # the brand
colors:
  primary: "#3d5a2a"   # moss
  surface: '#faf7f0'
  on-surface: "#1f1d17"
rounded:
  md: 8px # corners
spacing:
  md: 16px
typography:
  body-md:
    fontFamily: Public Sans, sans-serif
    fontSize: 16px
  headline-lg:
    fontFamily: "Literata, serif"
    fontSize: 36px
---

## Overview
primary: "#3d5a2a" stays as prose.
"""


def test_tweakables_pick_at_most_eight_key_tokens(tmp_path: Path) -> None:
    (tmp_path / "DESIGN.md").write_text(DESIGN)
    items = tweakables(lint_path(tmp_path / "DESIGN.md").design)
    assert [t.token for t in items] == [
        "colors.primary",
        "colors.surface",
        "colors.on-surface",
        "rounded.md",
        "typography.body-md.fontSize",
        "spacing.md",
        "typography.headline-lg.fontFamily",
    ]
    assert items[3].model_dump(exclude_none=True) == {
        "token": "rounded.md",
        "kind": "dimension",
        "label": "Corner radius",
        "value": "8px",
        "min": 0,
        "max": 32,
        "step": 1,
        "unit": "px",
    }
    assert items[-1].kind == "choice" and items[-1].options == ["Public Sans, sans-serif", "Literata, serif"]
    assert tweak_problem("#1a73e8", items[0]) is None and tweak_problem("blue", items[0])
    assert tweak_problem("12px", items[3]) is None and tweak_problem("12em", items[3])
    assert tweakables(None) == []


def test_a_value_outside_a_control_s_range_is_refused_as_the_endpoint_refuses_it(tmp_path: Path) -> None:
    """The board's controls are the endpoint's `Tweakable`s and are checked by its one validator:
    a radius beyond the slider's maximum (pinup's own check used to accept any length in the unit)
    and a choice the board did not offer are refused, with the messages a reviewer sees."""
    (tmp_path / "DESIGN.md").write_text(DESIGN)
    items = {t.token: t for t in tweakables(lint_path(tmp_path / "DESIGN.md").design)}
    radius = items["rounded.md"]
    assert tweak_problem("32px", radius) is None
    assert tweak_problem("40px", radius) == "must be at most 32"
    assert tweak_problem("-1px", radius) == "must be at least 0"
    font = items["typography.headline-lg.fontFamily"]
    assert tweak_problem("Literata, serif", font) is None
    assert tweak_problem("Comic Sans", font) == "must be one of: Public Sans, sans-serif, Literata, serif"


def test_apply_changes_only_the_values() -> None:
    out = apply_tweaks(
        DESIGN,
        {
            "colors.primary": "#1a73e8",
            "colors.surface": "#ffffff",
            "rounded.md": "12px",
            "typography.body-md.fontSize": "17px",
            "typography.headline-lg.fontFamily": "Public Sans, sans-serif",
        },
    )
    before, after = DESIGN.splitlines(), out.splitlines()
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    assert changed == [
        ('  primary: "#3d5a2a"   # moss', '  primary: "#1a73e8"   # moss'),
        ("  surface: '#faf7f0'", "  surface: '#ffffff'"),
        ("  md: 8px # corners", "  md: 12px # corners"),
        ("    fontSize: 16px", "    fontSize: 17px"),
        ('    fontFamily: "Literata, serif"', '    fontFamily: "Public Sans, sans-serif"'),
    ]
    with pytest.raises(TweakError, match="colors.nope"):
        apply_tweaks(DESIGN, {"colors.nope": "#000000"})
    with pytest.raises(TweakError, match="no such token"):
        apply_tweaks(DESIGN, {"typography.body-md": "#000000"})  # a group, not a value


def test_cli_writes_a_copy_and_prints_the_diff(tmp_path: Path) -> None:
    ws = copy_workspace(tmp_path)
    original = (ws / "DESIGN.md").read_bytes()
    store = FileStore(ws / ".pinup" / "feedback")
    store.save(
        {
            "schemaVersion": 2,
            "board": "trail-home",
            "round": 1,
            "id": "abcdef123456",
            "receivedAt": "2026-12-01T09:00:00.000000Z",
            "kind": "final",
            "preferred": "A",
            "tweaks": {"colors.primary": "#1a73e8", "rounded.md": "12px"},
        }
    )
    runner = CliRunner()
    result = runner.invoke(cli, ["tweaks", "apply", "abcdef", "--src", str(ws), "--format", "json"])
    assert result.exit_code == 0, result.output
    copy = ws / "DESIGN.tweaks-abcdef12.md"
    assert copy.is_file() and (ws / "DESIGN.md").read_bytes() == original
    diff = json.loads(result.stdout)
    assert diff["tokens"]["colors"]["modified"] == ["primary"]
    assert diff["tokens"]["rounded"]["modified"] == ["md"]
    assert lint_path(copy).design.colors["primary"].hex == "#1a73e8"

    md = runner.invoke(cli, ["tweaks", "apply", "latest", "--src", str(ws), "--out", str(tmp_path / "t.md")])
    assert md.exit_code == 0 and (tmp_path / "t.md").is_file() and "primary" in md.stdout
    refused = runner.invoke(cli, ["tweaks", "apply", "abcdef", "--src", str(ws), "--out", str(ws / "DESIGN.md")])
    assert refused.exit_code == 1 and "never overwritten" in refused.output
    assert (ws / "DESIGN.md").read_bytes() == original
    missing = runner.invoke(cli, ["tweaks", "apply", "zzz", "--src", str(ws)])
    assert missing.exit_code == 1 and "no feedback with id 'zzz'" in missing.output
    # a copy that cannot be written (its folder does not exist) is a one-line error for a person
    nowhere = tmp_path / "missing" / "t.md"
    blocked = runner.invoke(cli, ["tweaks", "apply", "abcdef", "--src", str(ws), "--out", str(nowhere)])
    assert blocked.exit_code == 1, blocked.output
    assert blocked.output == f"Error: cannot write {nowhere}: No such file or directory\n"
