"""The test browser's flags: ours must not switch back on what Playwright switches off."""

from __future__ import annotations

import pytest
from chromium_args import CHROMIUM_ARGS

pytestmark = pytest.mark.browser


def _disabled_features(command_line: str) -> list[set[str]]:
    return [set(a.split("=", 1)[1].split(",")) for a in command_line.split() if a.startswith("--disable-features=")]


def test_the_last_disable_features_keeps_playwrights_and_adds_render_document(browser) -> None:  # type: ignore[no-untyped-def]
    """Chromium keeps only the last --disable-features; if Playwright's list grows, ours must too."""
    page = browser.new_page()
    page.goto("chrome://version")
    command_line = page.inner_text("#command_line")
    page.close()
    flags = _disabled_features(command_line)
    assert len(flags) >= 2, command_line  # Playwright's own, then ours
    ours = flags[-1]
    assert ours == _disabled_features(" ".join(CHROMIUM_ARGS))[-1]
    assert "RenderDocument" in ours
    for earlier in flags[:-1]:
        assert earlier <= ours, (
            f"Playwright disables {sorted(earlier - ours)}: add them to PLAYWRIGHT_DISABLED_FEATURES"
        )
