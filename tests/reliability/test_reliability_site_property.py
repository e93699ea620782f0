"""The site builder (`pinup build`: every page of the design-system site) on generated DESIGN.md
documents: never raises, always writes an overview page, in bounded time.

The DESIGN.md properties of test_reliability_designmd.py stop at the model and the exports; this
one renders the pages too. A build costs ~100x a lint, so CI runs 30 examples;
PINUP_SITE_EXAMPLES sets more (bench/soak.py --only-hypothesis runs 1,000).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from test_reliability_designmd import design_docs

from pinup.build import BuildOptions, build_all

EXAMPLES = int(os.environ.get("PINUP_SITE_EXAMPLES", "30"))


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=EXAMPLES <= 30,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(design_docs())
def test_generated_documents_always_build_a_site(text: str) -> None:
    work = Path(tempfile.mkdtemp(prefix="pinup-site-property-"))
    (work / "ws").mkdir()
    (work / "ws" / "DESIGN.md").write_text(text, encoding="utf-8")
    try:
        start = time.perf_counter()
        result = build_all(BuildOptions(src=work / "ws", out=work / "site"))
        assert time.perf_counter() - start < 30
        assert (work / "site" / "index.html").is_file()
        assert result.report.summary.errors == sum(f.severity == "error" for f in result.report.findings)
    finally:
        shutil.rmtree(work, ignore_errors=True)
