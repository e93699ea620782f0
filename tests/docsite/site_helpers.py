"""Shared helpers for the site tests: DESIGN.md snippets and a one-call builder."""

from __future__ import annotations

from pathlib import Path

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
