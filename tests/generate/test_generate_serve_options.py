"""`pinup serve --generate` options: the key check at start-up, and --model/--count/--base-url/--api-key-env.

The options live in generator/pinup/cli/serve.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pinup.cli.serve import serve


def test_serve_generate_options_build_the_hook(
    workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pinup.serve.server as server

    seen: dict[str, Any] = {}

    class NoServe:
        """Stands in for the HTTP session: records the options instead of serving."""

        def __init__(self, ws: Any, options: Any, cache: Any = None) -> None:
            seen["hook"] = options.on_regenerate

        def run(self) -> int:
            return 0

    monkeypatch.setattr(server, "ServeSession", NoServe)
    monkeypatch.setenv("GATEWAY_KEY", "gw-1")
    result = CliRunner().invoke(
        serve,
        [
            str(workspace),
            "--out",
            str(tmp_path / "site"),
            "--no-open",
            "--generate",
            "--model",
            "llama3.1",
            "--count",
            "2",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--api-key-env",
            "GATEWAY_KEY",
        ],
    )
    assert result.exit_code == 0, result.output
    hook = seen["hook"]
    assert hook.model == "llama3.1" and hook.count == 2
    assert hook.client.base_url == "http://127.0.0.1:9/v1" and hook.client.api_key_env == "GATEWAY_KEY"


def test_serve_generate_without_a_key_exits_2_before_building(
    workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pinup.serve.server as server

    class NoServe:
        """If the key check were missing, serve would get here: return instead of serving forever."""

        def __init__(self, ws: Any, options: Any, cache: Any = None) -> None:
            pass

        def run(self) -> int:
            return 0

    monkeypatch.setattr(server, "ServeSession", NoServe)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    out = tmp_path / "site"
    result = CliRunner().invoke(serve, [str(workspace), "--out", str(out), "--no-open", "--generate"])
    assert result.exit_code == 2
    assert "no API key: set OPENAI_API_KEY" in result.output
    assert not out.exists()  # nothing built, nothing served
