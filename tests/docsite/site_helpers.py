"""Shared helpers for the site tests: DESIGN.md snippets, a one-call builder, a private cache, a tree reader."""

from __future__ import annotations

from pathlib import Path

import pytest

MINIMAL = """---
name: Tiny
colors:
  primary: "#1a73e8"
  on-primary: "#ffffff"
  background: "#ffffff"
  on-background: "#202124"
typography:
  body-md:
    fontFamily: Inter
    fontSize: 16px
    fontWeight: 400
spacing:
  sm: 8px
rounded:
  md: 8px
components:
  button-primary:
    backgroundColor: "{colors.primary}"
    textColor: "{colors.on-primary}"
    rounded: "{rounded.md}"
---

## Overview

Tiny is small.

## Colors

- **Primary (#1a73e8):** the call to action.
"""


def write_workspace(root: Path, text: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "DESIGN.md").write_text(text, "utf-8")
    return root


def build(src: Path, out: Path, **kwargs: object):  # type: ignore[no-untyped-def]
    from pinup.build import BuildOptions, build_all

    return build_all(BuildOptions(src=src, out=out, **kwargs))  # type: ignore[arg-type]


def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point pinup's cache at a folder of this test's own (on, whatever the environment says); its `pinup/`."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("PINUP_CACHE_DIR", str(folder))
    monkeypatch.delenv("PINUP_NO_CACHE", raising=False)
    return folder / "pinup"


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` by its relative path: two builds compare equal only byte for byte."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
