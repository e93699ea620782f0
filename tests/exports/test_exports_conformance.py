"""pinup's Tailwind and CSS-variable exports against the reference CLI, over the corpus."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from exports_corpus import CORPUS_FILES

from pinup.designmd.exporters import ExportError, render
from pinup.designmd.model import DesignSystem

CASES = [
    ("json-tailwind", None),
    ("tailwind", None),
    ("css-tailwind", None),
    ("css-vars", None),
    ("css-vars", "ds"),
]
pytestmark = pytest.mark.node
_DECL = re.compile(r"^\s*(--[^:]+):\s*(.*);\s*$")


def declarations(css: str) -> list[tuple[str, str]]:
    """The custom-property declarations of a one-block stylesheet, in order."""
    return [m.groups() for line in css.splitlines() if (m := _DECL.match(line))]  # type: ignore[misc]


@pytest.fixture(scope="module", autouse=True)
def _prefetch(reference_export) -> None:
    reference_export.prefetch([(path, fmt, prefix) for path in CORPUS_FILES for fmt, prefix in CASES])


@pytest.mark.parametrize("fmt,prefix", CASES, ids=[f"{f}-{p}" if p else f for f, p in CASES])
@pytest.mark.parametrize("path", CORPUS_FILES, ids=[p.name for p in CORPUS_FILES])
def test_export_matches_reference(path: Path, fmt: str, prefix: str | None, reference_export, design_of) -> None:
    ref = reference_export(path, fmt, prefix)
    design = design_of(path)
    if ref.returncode != 0:
        # The reference fails with one JSON line on stderr (css-tailwind's name check).
        with pytest.raises(ExportError) as info:
            render(fmt, design, prefix=prefix)
        assert ref.stdout == ""
        assert json.loads(info.value.to_json()) == json.loads(ref.stderr.strip().splitlines()[-1])
        return
    ours = render(fmt, design, prefix=prefix)
    if fmt in ("json-tailwind", "tailwind"):
        assert json.loads(ours) == json.loads(ref.stdout)
    else:
        assert declarations(ours) == declarations(ref.stdout)
        assert ours.startswith(ref.stdout.split("\n", 1)[0])
    # Byte for byte, trailing newlines included.
    assert ours == ref.stdout


def test_corpus_exercises_the_css_tailwind_name_check(reference_export) -> None:
    failing = [p.name for p in CORPUS_FILES if reference_export(p, "css-tailwind").returncode != 0]
    assert len(failing) >= 4, failing


def test_invalid_format_matches_reference(reference, tmp_path: Path) -> None:
    doc = tmp_path / "DESIGN.md"
    doc.write_text("---\ncolors:\n  primary: '#000'\n---\n")
    proc = reference("export", str(doc), "--format", "scss")
    assert proc.returncode == 1
    with pytest.raises(ExportError) as info:
        render("scss", DesignSystem())
    assert info.value.code == "INVALID_FORMAT"
    assert info.value.to_json() == proc.stderr.strip().splitlines()[-1]
