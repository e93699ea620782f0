"""pinup's tokens.json builds unchanged in Style Dictionary 5 (usesDtcg) and Terrazzo 2 (`tz build`).

Run over every corpus file, the bundled site_src/DESIGN.md and every brand_refs/*/DESIGN.md.
"""

from __future__ import annotations

import json
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from exports_corpus import CORPUS, DTCG_IDS, DTCG_SOURCES, ROOT

from pinup.designmd.exporters import render_result
from pinup.designmd.exporters.dtcg_validate import validate

pytestmark = pytest.mark.node
SOURCES, IDS = DTCG_SOURCES, DTCG_IDS
NODE_MODULES = ROOT / "node_modules"

SD_SCRIPT = """
import StyleDictionary from %(sd)s;
import { writeFileSync } from "node:fs";
// One node process builds every directory, so the suite pays node's start-up once.
for (const dir of %(dirs)s) {
  let status = { ok: true, error: "" };
  try {
    const sd = new StyleDictionary({
      source: [dir + "/tokens.json"],
      usesDtcg: true,
      log: { verbosity: "verbose" },
      platforms: {
        css: { transformGroup: "css", buildPath: dir + "/sd-out/", files: [{ destination: "tokens.css", format: "css/variables" }] },
        json: { transformGroup: "js", buildPath: dir + "/sd-out/", files: [{ destination: "tokens.json", format: "json/flat" }] },
      },
    });
    await sd.buildAllPlatforms();
  } catch (err) {
    status = { ok: false, error: String(err && err.stack || err) };
  }
  writeFileSync(dir + "/sd-status.json", JSON.stringify(status));
}
"""

TZ_CONFIG = """
import { defineConfig } from %(cli)s;
import css from %(css)s;
export default defineConfig({
  tokens: ["./tokens.json"],
  outDir: "./tz-out/",
  plugins: [css({ filename: "tokens.css" })],
});
"""


@dataclass
class Built:
    """tokens.json for one source, and what Style Dictionary and Terrazzo made of it."""

    dir: Path
    doc: dict
    warnings: list[str]
    sd_ok: bool = False
    sd_error: str = ""
    tz: subprocess.CompletedProcess[str] | None = None


def run_terrazzo(tmp_path: Path, node_bin: Path) -> subprocess.CompletedProcess[str]:
    cli = (NODE_MODULES / "@terrazzo" / "cli" / "dist" / "index.js").as_uri()
    css = (NODE_MODULES / "@terrazzo" / "plugin-css" / "dist" / "index.js").as_uri()
    (tmp_path / "terrazzo.config.mjs").write_text(TZ_CONFIG % {"cli": json.dumps(cli), "css": json.dumps(css)})
    return subprocess.run(
        [str(node_bin / "tz"), "build"], cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False
    )


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory, node_bin: Path) -> dict[Path, Built]:
    """Export every source, then build them all: Style Dictionary in one process, Terrazzo in parallel."""
    from pinup.designmd.lint import lint_text

    out: dict[Path, Built] = {}
    for i, path in enumerate(SOURCES):
        if not path.exists():
            continue
        where = tmp_path_factory.mktemp(f"dtcg{i}")
        result = render_result("dtcg", lint_text(path.read_bytes().decode("utf-8")).design)
        (where / "tokens.json").write_text(result.text, encoding="utf-8")
        out[path] = Built(where, json.loads(result.text), result.warnings)
    with_tokens = [b for b in out.values() if token_paths(b.doc)]
    script = tmp_path_factory.mktemp("sd") / "build-sd.mjs"
    sd = (NODE_MODULES / "style-dictionary" / "lib" / "StyleDictionary.js").as_uri()
    script.write_text(SD_SCRIPT % {"sd": json.dumps(sd), "dirs": json.dumps([str(b.dir) for b in with_tokens])})
    subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=900, check=False)
    for built in with_tokens:
        status_file = built.dir / "sd-status.json"
        status = json.loads(status_file.read_text()) if status_file.exists() else {"ok": False, "error": "not run"}
        built.sd_ok, built.sd_error = status["ok"], status["error"]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = pool.map(lambda b: run_terrazzo(b.dir, node_bin), with_tokens)
        for built, proc in zip(with_tokens, results, strict=True):
            built.tz = proc
    return out


def token_paths(node: dict, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Dotted paths of every token (object with $value) in a DTCG tree."""
    if "$value" in node:
        return [prefix]
    out: list[tuple[str, ...]] = []
    for key, child in node.items():
        if not key.startswith("$") and isinstance(child, dict):
            out += token_paths(child, (*prefix, key))
    return out


def built_for(path: Path, builds: dict[Path, Built]) -> Built:
    if path not in builds:
        pytest.fail(f"{path} is missing")
    return builds[path]


@pytest.mark.parametrize("path", SOURCES, ids=IDS)
def test_tokens_json_is_valid_dtcg(path: Path, builds: dict[Path, Built]) -> None:
    assert validate(built_for(path, builds).doc) == []


@pytest.mark.parametrize("path", SOURCES, ids=IDS)
def test_style_dictionary_builds_tokens_json(path: Path, builds: dict[Path, Built]) -> None:
    built = built_for(path, builds)
    tokens = token_paths(built.doc)
    if not tokens:
        assert set(built.doc) <= {"$schema", "$description"}
        return
    assert built.sd_ok, built.sd_error
    flat = json.loads((built.dir / "sd-out" / "tokens.json").read_text(encoding="utf-8"))
    # Every token comes out, references resolved to values (no "{...}" left).
    assert len(flat) == len(tokens)
    assert not [k for k, v in flat.items() if isinstance(v, str) and "{" in v]
    css = (built.dir / "sd-out" / "tokens.css").read_text(encoding="utf-8")
    assert len(re.findall(r"^\s*--[^:]+:", css, re.M)) == len(tokens)


@pytest.mark.parametrize("path", SOURCES, ids=IDS)
def test_terrazzo_builds_tokens_json(path: Path, builds: dict[Path, Built]) -> None:
    built = built_for(path, builds)
    tokens = token_paths(built.doc)
    if not tokens:
        return
    proc = built.tz
    assert proc is not None
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "✗" not in out and "error" not in out.lower(), out
    css = (built.dir / "tz-out" / "tokens.css").read_text(encoding="utf-8")
    # Terrazzo names a token's variable after its path: color.brand.500 -> --color-brand-500.
    for token in tokens:
        if token[0] == "color" and all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", part) for part in token):
            assert f"--{'-'.join(token)}:" in css, token


def test_terrazzo_rejects_the_reference_dtcg(tmp_path: Path, node_bin: Path, reference_export) -> None:
    """The harness can fail: the reference's own DTCG for units.md does not build in Terrazzo."""
    ref = reference_export(CORPUS / "units.md", "dtcg")
    (tmp_path / "tokens.json").write_text(ref.stdout, encoding="utf-8")
    assert validate(json.loads(ref.stdout))
    proc = run_terrazzo(tmp_path, node_bin)
    assert proc.returncode != 0


def test_style_dictionary_harness_can_fail(tmp_path: Path, node_bin: Path) -> None:
    """A broken alias makes Style Dictionary fail, and the harness reports it."""
    (tmp_path / "tokens.json").write_text(
        json.dumps({"color": {"$type": "color", "a": {"$value": "{color.missing}"}}}), encoding="utf-8"
    )
    script = tmp_path / "build-sd.mjs"
    sd = (NODE_MODULES / "style-dictionary" / "lib" / "StyleDictionary.js").as_uri()
    script.write_text(SD_SCRIPT % {"sd": json.dumps(sd), "dirs": json.dumps([str(tmp_path)])})
    subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=300, check=False)
    status = json.loads((tmp_path / "sd-status.json").read_text())
    assert status["ok"] is False and "missing" in status["error"]
