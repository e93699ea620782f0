"""The bundled example works with no API key and no network (issue 6, "the example keeps working offline")."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

from gen_helpers import snapshot

from pinup.generate.validate import is_network_url

#: Run `pinup build` with every non-loopback connection refused and no OPENAI_* variables.
GUARD = r"""
import socket, sys
_connect = socket.socket.connect
def guarded(self, address):
    host = address[0] if isinstance(address, tuple) else str(address)
    if self.family in (socket.AF_INET, socket.AF_INET6) and host not in ("127.0.0.1", "::1", "localhost"):
        print("NETWORK_ATTEMPT", host, file=sys.stderr)
        raise OSError("network disabled in this test")
    return _connect(self, address)
socket.socket.connect = guarded
from pinup.cli import main
sys.argv = ["pinup", "build", sys.argv[1], "--out", sys.argv[2]]
try:
    main()
finally:
    print("OPENAI_IMPORTED", "openai" in sys.modules, file=sys.stderr)
"""

FETCHING = {
    "script": "src",
    "img": "src",
    "link": "href",
    "iframe": "src",
    "source": "src",
    "video": "src",
    "audio": "src",
    "embed": "src",
    "object": "data",
    "image": "href",
    "use": "href",
}
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)""")


class Fetches(HTMLParser):
    """Every URL a page would load by itself (not links a person clicks)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        name = FETCHING.get(tag)
        if name and values.get(name):
            self.urls.append(values[name])
        if values.get("srcset"):
            self.urls += [part.split()[0] for part in values["srcset"].split(",") if part.strip()]
        self.urls += CSS_URL.findall(values.get("style", ""))

    def handle_data(self, data: str) -> None:
        self.urls += CSS_URL.findall(data)


def test_example_builds_offline_with_no_key(workspace: Path, tmp_path: Path, repo_root: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_") and k != "PINUP_PRICES"}
    out = tmp_path / "site"
    before = snapshot(workspace)
    proc = subprocess.run(
        [sys.executable, "-c", GUARD, str(workspace), str(out)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=240,
    )
    assert proc.returncode == 0, proc.stderr
    assert "NETWORK_ATTEMPT" not in proc.stderr
    assert "OPENAI_IMPORTED False" in proc.stderr  # building never touches the API client
    assert snapshot(workspace) == before  # the example is read, not changed
    manifests = {p.parent.name: json.loads(p.read_text()) for p in (out / "boards").glob("*/board.json")}
    assert {"trail-home", "sighting-badge"} <= set(manifests)
    pages = sorted(out.rglob("*.html"))
    assert len(pages) > 5
    for page in pages:
        parser = Fetches()
        parser.feed(page.read_text(encoding="utf-8"))
        remote = [u for u in parser.urls if is_network_url(u)]
        assert not remote, f"{page.relative_to(out)} loads {remote}"
    for css in out.rglob("*.css"):
        remote = [u for u in CSS_URL.findall(css.read_text(encoding="utf-8")) if is_network_url(u)]
        assert not remote, f"{css.relative_to(out)} loads {remote}"
    # the board's variant files are there for the board to show
    for slug, manifest in manifests.items():
        assert manifest["variants"], slug
