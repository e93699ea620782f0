"""Paths shared by the export tests (a uniquely named module: every test folder has its own conftest)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CORPUS = HERE / "corpus"
CORPUS_FILES = sorted(CORPUS.glob("*.md"))
DESIGNMD_CORPUS = ROOT / "tests" / "designmd" / "corpus"
# Every DESIGN.md the DTCG export must build: both corpora, the bundled workspace and the brand refs.
DTCG_SOURCES = [
    *CORPUS_FILES,
    *sorted(DESIGNMD_CORPUS.glob("*.md")),
    ROOT / "site_src" / "DESIGN.md",
    *sorted(ROOT.glob("brand_refs/*/DESIGN.md")),
]
DTCG_IDS = [str(p.relative_to(ROOT)) for p in DTCG_SOURCES]
