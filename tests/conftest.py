"""Fixtures shared by every test package: paths, free ports, a real Chromium, a moto S3 server."""

from __future__ import annotations

import gc
import os
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cli_runner  # noqa: E402  (tests/ is not a package)
import nodetools  # noqa: E402
from chromium_args import CHROMIUM_ARGS  # noqa: E402
from reference_oracle import ReferenceOracle  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("PINUP_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture(autouse=True)
def build_cache() -> Iterator[object]:
    """Each test's builds share one `BuildCache`, as one process's do, and no test sees another's."""
    from pinup.buildcache import BuildCache, using

    with using(BuildCache()) as cache:
        yield cache


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return ROOT


#: The test files that take longest (seconds in one serial run, `pytest --durations=0`, 2026-12-01,
#: load average 6),
#: longest first. Under pytest-xdist (`--dist loadfile`: a file's tests run on one worker, so its
#: module fixtures are built once) the workers take these first and the many short files fill in
#: behind them, so no long file starts last while the other worker idles. A file not listed keeps
#: its place after these; the order only matters for how evenly the workers finish.
SLOWEST_FIRST = (
    "tests/docsite/test_site_browser.py",  # 539 s: axe on every page of 25 brand sites
    "tests/boards/test_boards_e2e.py",  # 97 s
    "tests/reliability/test_reliability_fuzz.py",  # 87 s
    "tests/exports/test_exports_dtcg_tools.py",  # 52 s
    "tests/boards/test_boards_readable.py",  # 52 s
    "tests/boards/test_boards_serve_cli.py",  # 49 s
    "tests/reliability/test_reliability_load.py",  # 44 s
    "tests/serve/test_serve_watch.py",  # 40 s
    "tests/docsite/test_mkdocs_plugin.py",  # 37 s
    "tests/lambda/test_lambda_handler.py",  # 36 s
    "tests/hosted/test_hosted_e2e.py",  # 34 s
    "tests/designmd/test_designmd_conformance.py",  # 31 s
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test that uses the npm tools (through `node_bin`) carries the `node` marker; under
    xdist, the slowest files come first (SLOWEST_FIRST)."""
    for item in items:
        if "node_bin" in getattr(item, "fixturenames", ()) and item.get_closest_marker("node") is None:
            item.add_marker(pytest.mark.node)
    _unique_nodeids(items)
    if hasattr(config, "workerinput"):  # an xdist worker: every worker sorts alike, as xdist requires
        rank = {name: i for i, name in enumerate(SLOWEST_FIRST)}
        items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


def _unique_nodeids(items: list[pytest.Item]) -> None:
    """Give items that share a node id one of their own (`module::name`).

    schemathesis collects one item per API operation under the bare test's id (its name holds the
    operation: `test_x[POST /api/feedback]`); xdist schedules by node id, so without this it ran
    one of tests/reliability/test_reliability_fuzz.py's six operations and dropped the rest.
    """
    seen: dict[str, int] = {}
    for item in items:
        seen[item.nodeid] = seen.get(item.nodeid, 0) + 1
    for item in items:
        if seen[item.nodeid] > 1 and item.parent is not None:
            if hasattr(item.parent, "id"):  # pytest 9 keeps node ids structured (Node.id, private)
                item._id = item.parent.id.child(item.name)
            else:
                item._nodeid = f"{item.parent.nodeid}::{item.name}"


def pytest_collection_finish(session: pytest.Session) -> None:
    """Freeze what collection left alive (pytest, hypothesis, schemathesis, every test module).

    Why: each full garbage collection during the run walked that whole heap again, although none
    of it is ever garbage; frozen, it is skipped. The in-process tests (lint, exports, site models)
    take about 0.9x the CPU. Objects the tests create are collected as before, so a leaked
    resource still raises its ResourceWarning.
    """
    gc.freeze()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Stop the warm `pinup` fork server (tests/cli_runner.py) if a test used it."""
    cli_runner.close_shared()


@pytest.fixture(scope="session")
def node_bin() -> Path:
    """node_modules/.bin, installed by `make test-deps`, with a Node >= 22 first on PATH.

    The PATH change is for the whole session, so `node` and every `#!/usr/bin/env node` script the
    tests run find the same node that `npm install` used (see tests/nodetools.py).
    """
    path = ROOT / "node_modules" / ".bin"
    if not path.is_dir():
        pytest.fail("node_modules is missing: run `make test-deps` (make test does)")
    try:
        nodetools.activate()
    except RuntimeError as exc:
        pytest.fail(str(exc))
    return path


@pytest.fixture(scope="session")
def reference(node_bin: Path) -> Iterator[ReferenceOracle]:
    """The reference CLI as an oracle: `reference("lint", path)` -> RefRun, one node process a session."""
    oracle = ReferenceOracle(node_bin / "design.md")
    yield oracle
    oracle.close()


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """A headless Debian Chromium driven by Playwright (no downloaded browser).

    Module-scoped on purpose: Playwright's sync API keeps an event loop running in
    the main thread while it is alive, which breaks asyncio code (Mangum, ASGI
    clients) in the tests that follow; stopping it after each module avoids that.
    """
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (make test does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture()
def page(browser: object) -> Iterator[object]:
    # Playwright's wait_for_function evaluates strings, which the served pages' CSP forbids;
    # tests/reliability/test_reliability_security.py checks the pages under the real CSP.
    context = browser.new_context(bypass_csp=True)  # type: ignore[attr-defined]
    pg = context.new_page()
    yield pg
    context.close()


@pytest.fixture(scope="session")
def moto_endpoint() -> Iterator[str]:
    """moto's server mode (ThreadedMotoServer) on a free loopback port: boto3 talks real HTTP to it.

    One per session, shared by tests/hosted and tests/lambda; each test makes its own bucket.
    """
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()
