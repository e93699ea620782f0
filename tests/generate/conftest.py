"""Fixtures for the generation tests: the fake OpenAI server and a workspace copy."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fake_openai import FakeOpenAI, free_port  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def fake_openai() -> Iterator[FakeOpenAI]:
    """A running fake; the test fails if two requests ever overlapped."""
    server = FakeOpenAI()
    server.start(free_port())
    yield server
    server.stop()
    assert not server.overlaps, f"requests overlapped: {server.overlaps}"


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    """A private copy of the bundled site_src/ (never the real one)."""
    dest = tmp_path / "site_src"
    shutil.copytree(ROOT / "site_src", dest, ignore=shutil.ignore_patterns(".pinup"))
    return dest


@pytest.fixture()
def api_env(monkeypatch: pytest.MonkeyPatch, fake_openai: FakeOpenAI) -> FakeOpenAI:
    """OPENAI_API_KEY and OPENAI_BASE_URL pointing at the fake."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.delenv("PINUP_PRICES", raising=False)
    return fake_openai
