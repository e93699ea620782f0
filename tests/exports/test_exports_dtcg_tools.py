"""pinup's tokens.json builds unchanged in Style Dictionary 5 (usesDtcg) and Terrazzo 2 (`tz build`).

Run over every corpus file, the bundled site_src/DESIGN.md and every brand_refs/*/DESIGN.md.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from conftest import CORPUS_FILES

from pinup.designmd.exporters import render_result
from pinup.designmd.exporters.dtcg_validate import validate

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [*CORPUS_FILES, ROOT / "site_src" / "DESIGN.md", *sorted(ROOT.glob("brand_refs/*/DESIGN.md"))]
IDS = [str(p.relative_to(ROOT)) for p in SOURCES]
NODE_MODULES = ROOT / "node_modules"

SD_SCRIPT = """
import StyleDictionary from %(sd)s;
const sd = new StyleDictionary({
  source: ["tokens.json"],
  usesDtcg: true,
  log: { verbosity: "verbose" },
  platforms: {
    css: { transformGroup: "css", buildPath: "sd-out/", files: [{ destination: "tokens.css", format: "css/variables" }] },
    json: { transformGroup: "js", buildPath: "sd-out/", files: [{ destination: "tokens.json", format: "json/flat" }] },
  },
});
await sd.buildAllPlatforms();
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


def token_paths(node: dict, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Dotted paths of every token (object with $value) in a DTCG tree."""
    if "$value" in node:
        return [prefix]
    out: list[tuple[str, ...]] = []
    for key, child in node.items():
        if not key.startswith("$") and isinstance(child, dict):
            out += token_paths(child, (*prefix, key))
    return out


def write_tokens(path: Path, tmp_path: Path) -> tuple[dict, list[str]]:
    if not path.exists():
        pytest.fail(f"{path} is missing")
    from pinup.designmd.lint import lint_text

    design = lint_text(path.read_bytes().decode("utf-8")).design
    result = render_result("dtcg", design)
    (tmp_path / "tokens.json").write_text(result.text, encoding="utf-8")
    return json.loads(result.text), result.warnings


def run_style_dictionary(tmp_path: Path) -> subprocess.CompletedProcess[str]:
    sd = (NODE_MODULES / "style-dictionary" / "lib" / "StyleDictionary.js").as_uri()
    (tmp_path / "build-sd.mjs").write_text(SD_SCRIPT % {"sd": json.dumps(sd)})
    return subprocess.run(
        ["node", "build-sd.mjs"], cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False
    )


def run_terrazzo(tmp_path: Path, node_bin: Path) -> subprocess.CompletedProcess[str]:
    cli = (NODE_MODULES / "@terrazzo" / "cli" / "dist" / "index.js").as_uri()
    css = (NODE_MODULES / "@terrazzo" / "plugin-css" / "dist" / "index.js").as_uri()
    (tmp_path / "terrazzo.config.mjs").write_text(TZ_CONFIG % {"cli": json.dumps(cli), "css": json.dumps(css)})
    return subprocess.run(
        [str(node_bin / "tz"), "build"], cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize("path", SOURCES, ids=IDS)
def test_tokens_json_is_valid_dtcg(path: Path, tmp_path: Path) -> None:
    doc, _ = write_tokens(path, tmp_path)
    assert validate(doc) == []


@pytest.mark.parametrize("path", SOURCES, ids=IDS)
def test_style_dictionary_builds_tokens_json(path: Path, tmp_path: Path, node_bin: Path) -> None:
    doc, _ = write_tokens(path, tmp_path)
    tokens = token_paths(doc)
    if not tokens:
        assert set(doc) <= {"$schema", "$description"}
        return
    proc = run_style_dictionary(tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    flat = json.loads((tmp_path / "sd-out" / "tokens.json").read_text(encoding="utf-8"))
    # Every token comes out, references resolved to values (no "{...}" left).
    assert len(flat) == len(tokens)
    assert not [k for k, v in flat.items() if isinstance(v, str) and "{" in v]
    css = (tmp_path / "sd-out" / "tokens.css").read_text(encoding="utf-8")
    assert len(re.findall(r"^\s*--[^:]+:", css, re.M)) == len(tokens)


@pytest.mark.parametrize("path", SOURCES, ids=IDS)
def test_terrazzo_builds_tokens_json(path: Path, tmp_path: Path, node_bin: Path) -> None:
    doc, _ = write_tokens(path, tmp_path)
    tokens = token_paths(doc)
    if not tokens:
        return
    proc = run_terrazzo(tmp_path, node_bin)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "✗" not in out and "error" not in out.lower(), out
    css = (tmp_path / "tz-out" / "tokens.css").read_text(encoding="utf-8")
    # Terrazzo names a token's variable after its path: color.brand.500 -> --color-brand-500.
    for token in tokens:
        if token[0] == "color" and all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", part) for part in token):
            assert f"--{'-'.join(token)}:" in css, token


def test_terrazzo_rejects_the_reference_dtcg(tmp_path: Path, node_bin: Path, reference_export) -> None:
    """The harness can fail: the reference's own DTCG for units.md does not build in Terrazzo."""
    ref = reference_export(Path(__file__).parent / "corpus" / "units.md", "dtcg")
    (tmp_path / "tokens.json").write_text(ref.stdout, encoding="utf-8")
    assert validate(json.loads(ref.stdout))
    proc = run_terrazzo(tmp_path, node_bin)
    assert proc.returncode != 0
