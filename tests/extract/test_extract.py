"""`pinup extract`: a DESIGN.md draft from a page rendered in Chromium, checked end to end."""

from __future__ import annotations

import http.server
import json
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from pinup.designmd.lint import lint_text
from pinup.designmd.parser import parse_document

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


def _pinup(*args: str, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pinup", *args], capture_output=True, text=True, timeout=timeout, cwd=cwd
    )


def _front_matter_colors(text: str) -> dict[str, str]:
    report = lint_text(text)
    return {name: color.hex for name, color in report.design.colors.items()}


@pytest.fixture(scope="module")
def example_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    built = _pinup("build", str(ROOT / "site_src"), "--out", str(out))
    assert built.returncode == 0, built.stderr
    return out


@pytest.fixture(scope="module")
def brand_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of a bundled brand reference (its DESIGN.md as a workspace of its own)."""
    src = tmp_path_factory.mktemp("brand") / "src"
    src.mkdir()
    (src / "DESIGN.md").write_text((ROOT / "brand_refs" / "stripe" / "DESIGN.md").read_text("utf-8"), "utf-8")
    out = src.parent / "site"
    built = _pinup("build", str(src), "--out", str(out))
    assert built.returncode == 0, built.stderr
    return out


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def served_site(example_site: Path) -> Iterator[str]:
    def handler(*args: object, **kwargs: object) -> _Quiet:
        return _Quiet(*args, directory=str(example_site), **kwargs)  # type: ignore[arg-type]

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _primary(design_md: Path) -> str:
    return _front_matter_colors(design_md.read_text("utf-8"))["primary"]


def test_draft_of_the_example_site_holds_its_primary_and_lints_clean(
    example_site: Path, reference: object, tmp_path: Path
) -> None:
    out = tmp_path / "DESIGN.md"
    run = _pinup("extract", str(example_site / "index.html"), "--out", str(out), "--name", "Mossbook draft")
    assert run.returncode == 0, run.stderr
    text = out.read_text("utf-8")
    colors = _front_matter_colors(text)
    assert colors["primary"] == _primary(ROOT / "site_src" / "DESIGN.md")
    assert {"background", "on-background", "on-primary"} <= set(colors)
    ours = json.loads(_pinup("lint", str(out), "--format", "json").stdout)
    assert ours["summary"]["errors"] == 0 and ours["summary"]["warnings"] == 0, ours
    theirs = reference("lint", str(out))  # type: ignore[operator]
    assert json.loads(theirs.stdout) == ours
    headings = [h.text for h in parse_document(text).headings]
    assert headings == ["Overview", "Colors", "Typography", "Layout", "Elevation & Depth", "Shapes", "Components"]
    assert "0 errors, 0 warnings" in run.stderr


def test_draft_of_a_brand_site_holds_the_brand_primary(brand_site: Path) -> None:
    run = _pinup("extract", str(brand_site / "index.html"))
    assert run.returncode == 0, run.stderr
    colors = _front_matter_colors(run.stdout)
    assert colors["primary"] == _primary(ROOT / "brand_refs" / "stripe" / "DESIGN.md")
    report = lint_text(run.stdout)
    assert report.summary.errors == 0 and report.summary.warnings == 0


def test_draft_from_a_loopback_url_matches_the_file(served_site: str, example_site: Path) -> None:
    run = _pinup("extract", f"{served_site}/index.html", "--name", "Same")
    assert run.returncode == 0, run.stderr
    from_file = _pinup("extract", str(example_site / "index.html"), "--name", "Same")
    assert _front_matter_colors(run.stdout) == _front_matter_colors(from_file.stdout)


def test_draft_from_a_board_variant(tmp_path: Path) -> None:
    run = _pinup("extract", "--board", "trail-home", "--variant", "B", "--src", str(ROOT / "site_src"))
    assert run.returncode == 0, run.stderr
    colors = _front_matter_colors(run.stdout)
    variant_css = (ROOT / "site_src" / "boards" / "trail-home" / "variants" / "b-map-first.html").read_text("utf-8")
    assert colors["primary"].lower() in variant_css.lower()
    assert lint_text(run.stdout).summary.errors == 0


def test_an_image_variant_is_refused_with_the_reason() -> None:
    run = _pinup("extract", "--board", "sighting-badge", "--variant", "C", "--src", str(ROOT / "site_src"))
    assert run.returncode == 2
    assert "is an image" in run.stderr and run.stdout == ""


def test_an_unknown_variant_names_the_ones_there_are() -> None:
    run = _pinup("extract", "--board", "trail-home", "--variant", "Z", "--src", str(ROOT / "site_src"))
    assert run.returncode == 2
    assert "A, B, C" in run.stderr


def test_a_non_loopback_url_is_refused_before_any_request() -> None:
    run = _pinup("extract", "http://example.com/")
    assert run.returncode == 2
    assert "--allow-host example.com" in run.stderr
    assert "Traceback" not in run.stderr


def test_a_page_that_does_not_answer_exits_2_with_the_url() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/"
    run = _pinup("extract", url, "--timeout", "5")
    assert run.returncode == 2
    assert url in run.stderr and "could not be loaded" in run.stderr
    assert "Traceback" not in run.stderr


def test_a_page_that_answers_404_exits_2(served_site: str) -> None:
    run = _pinup("extract", f"{served_site}/missing.html")
    assert run.returncode == 2
    assert "HTTP 404" in run.stderr


def test_an_existing_out_file_is_never_overwritten(example_site: Path, tmp_path: Path) -> None:
    out = tmp_path / "DESIGN.md"
    out.write_text("mine\n", "utf-8")
    run = _pinup("extract", str(example_site / "index.html"), "--out", str(out))
    assert run.returncode == 2
    assert "already exists" in run.stderr
    assert out.read_text("utf-8") == "mine\n"
