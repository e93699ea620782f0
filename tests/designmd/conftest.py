"""Make the helpers importable as a plain module for the DESIGN.md tests."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hypothesis import settings  # noqa: E402  (after the path set-up, as the helpers)

#: `--hypothesis-profile=soak` for test_yaml_differential.py: about 2,000 distinct documents. Registered
#: here, not in the test module, so that it exists when the option is read (before modules are collected).
settings.register_profile("soak", max_examples=2600)
