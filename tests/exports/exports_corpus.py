"""Paths shared by the export tests (a uniquely named module: every test folder has its own conftest)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CORPUS = HERE / "corpus"
CORPUS_FILES = sorted(CORPUS.glob("*.md"))
# Every DESIGN.md the DTCG export must build: the corpus, the bundled workspace and the brand refs.
DTCG_SOURCES = [*CORPUS_FILES, ROOT / "site_src" / "DESIGN.md", *sorted(ROOT.glob("brand_refs/*/DESIGN.md"))]
DTCG_IDS = [str(p.relative_to(ROOT)) for p in DTCG_SOURCES]
