"""pinup's tokens.json builds unchanged in Style Dictionary 5 (usesDtcg) and Terrazzo 2 (`tz build`).

Run over every file of both corpora, the bundled site_src/DESIGN.md and every brand_refs/*/DESIGN.md,
each exported plainly and, when it has dark values, also with `--modes` (`$extensions.mode`).
"""

from __future__ import annotations

import json
import re
import subprocess
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
// What a mode-aware Style Dictionary format reads: each token's $extensions.mode, as given.
StyleDictionary.registerFormat({
  name: "pinup/modes",
  format: ({ dictionary }) => JSON.stringify(Object.fromEntries(dictionary.allTokens
    .filter((t) => t.$extensions && t.$extensions.mode)
    .map((t) => [t.path.join("."), Object.fromEntries(Object.entries(t.$extensions.mode)
      .map(([m, v]) => [m, v.hex || (v.value + v.unit)]))]))),
});
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
        modes: { buildPath: dir + "/sd-out/", files: [{ destination: "modes.json", format: "pinup/modes" }] },
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
  plugins: [css({ filename: "tokens.css", modeSelectors: [{ mode: "dark", selectors: ['[data-theme="dark"]'] }] })],
});
"""

# `tz build` for many directories in one node process (node's start-up dominates each `tz build`):
# the same parse + build + write the CLI does, with the same config and a logger per directory.
TZ_SCRIPT = """
import { defineConfig, parse, build, Logger } from %(parser)s;
import css from %(css)s;
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { pathToFileURL } from "node:url";
for (const dir of %(dirs)s) {
  const out = [];
  const saved = [console.log, console.warn, console.error];
  console.log = console.warn = console.error = (...args) => out.push(args.join(" "));
  const logger = new Logger({ level: "warn" });
  let ok = true;
  try {
    const cwd = pathToFileURL(dir + "/");
    const config = defineConfig({
      tokens: ["./tokens.json"],
      outDir: "./tz-out/",
      plugins: [css({ filename: "tokens.css", modeSelectors: [{ mode: "dark", selectors: ['[data-theme="dark"]'] }] })],
    }, { cwd });
    const filename = new URL("tokens.json", cwd);
    const { tokens, resolver, sources } = await parse([{ filename, src: readFileSync(filename, "utf8") }], { config, logger });
    const result = await build(tokens, { resolver, sources, config, logger });
    for (const { filename: name, contents } of result.outputFiles) {
      const target = new URL(name, config.outDir);
      mkdirSync(new URL(".", target), { recursive: true });
      writeFileSync(target, contents);
    }
  } catch (err) {
    ok = false;
    out.push(String(err && err.stack || err));
  }
  [console.log, console.warn, console.error] = saved;
  const stats = logger.stats();
  writeFileSync(dir + "/tz-status.json", JSON.stringify({ ok: ok && stats.errorCount === 0, warnings: stats.warnCount, out: out.join("\\n") }));
}
"""


@dataclass
class TzRun:
    """What Terrazzo made of one directory (the shape of a finished `tz build`)."""

    returncode: int
    stdout: str
    stderr: str = ""


@dataclass
class Built:
    """tokens.json for one source, and what Style Dictionary and Terrazzo made of it."""

    dir: Path
    doc: dict
    warnings: list[str]
    sd_ok: bool = False
    sd_error: str = ""
    tz: TzRun | None = None


TZ_PARSER = (NODE_MODULES / "@terrazzo" / "parser" / "dist" / "index.js").as_uri()
TZ_CSS = (NODE_MODULES / "@terrazzo" / "plugin-css" / "dist" / "index.js").as_uri()


def run_terrazzo(tmp_path: Path, node_bin: Path) -> subprocess.CompletedProcess[str]:
    cli = (NODE_MODULES / "@terrazzo" / "cli" / "dist" / "index.js").as_uri()
    css = (NODE_MODULES / "@terrazzo" / "plugin-css" / "dist" / "index.js").as_uri()
    (tmp_path / "terrazzo.config.mjs").write_text(TZ_CONFIG % {"cli": json.dumps(cli), "css": json.dumps(css)})
    return subprocess.run(
        [str(node_bin / "tz"), "build"], cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False
    )


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory, node_bin: Path) -> dict[Path, Built]:
    """Export every source, then build them all: Style Dictionary and Terrazzo, one process each, in parallel.

    Keys are the sources; a source with dark values also has a `--modes` build under `moded_key(path)`.
    """
    from pinup.designmd.lint import lint_text

    out: dict[Path, Built] = {}
    for i, path in enumerate(SOURCES):
        if not path.exists():
            continue
        text = path.read_bytes().decode("utf-8", errors="replace")  # as `pinup export` reads it
        where = tmp_path_factory.mktemp(f"dtcg{i}")
        result = render_result("dtcg", lint_text(text).design)
        (where / "tokens.json").write_text(result.text, encoding="utf-8")
        out[path] = Built(where, json.loads(result.text), result.warnings)
        moded = lint_text(text, modes=True).design
        if moded.modes:
            where = tmp_path_factory.mktemp(f"dtcg{i}m")
            result = render_result("dtcg", moded, modes=True)
            (where / "tokens.json").write_text(result.text, encoding="utf-8")
            out[moded_key(path)] = Built(where, json.loads(result.text), result.warnings)
    with_tokens = [b for b in out.values() if token_paths(b.doc)]
    script = tmp_path_factory.mktemp("sd") / "build-sd.mjs"
    sd = (NODE_MODULES / "style-dictionary" / "lib" / "StyleDictionary.js").as_uri()
    script.write_text(SD_SCRIPT % {"sd": json.dumps(sd), "dirs": json.dumps([str(b.dir) for b in with_tokens])})
    tz_script = tmp_path_factory.mktemp("tz") / "build-tz.mjs"
    tz_dirs = json.dumps([str(b.dir) for b in with_tokens])
    tz_script.write_text(TZ_SCRIPT % {"parser": json.dumps(TZ_PARSER), "css": json.dumps(TZ_CSS), "dirs": tz_dirs})
    # Both tools at once, one node process each: on two cores the second costs no extra wall time.
    quiet = subprocess.DEVNULL
    with (
        subprocess.Popen(["node", str(script)], stdout=quiet, stderr=quiet) as sd_proc,
        subprocess.Popen(["node", str(tz_script)], stdout=quiet, stderr=quiet) as tz_proc,
    ):
        sd_proc.wait(timeout=900)
        tz_proc.wait(timeout=900)
    for built in with_tokens:
        status_file = built.dir / "sd-status.json"
        status = json.loads(status_file.read_text()) if status_file.exists() else {"ok": False, "error": "not run"}
        built.sd_ok, built.sd_error = status["ok"], status["error"]
    for built in with_tokens:
        status_file = built.dir / "tz-status.json"
        status = json.loads(status_file.read_text()) if status_file.exists() else {"ok": False, "out": "not run"}
        built.tz = TzRun(0 if status["ok"] else 1, status["out"])
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


def moded_key(path: Path) -> Path:
    """Where the `--modes` build of `path` is kept in `builds` (beside the plain one)."""
    return Path("--modes") / path.relative_to(ROOT)


MODE_SOURCES = [CORPUS / "modes-siblings.md", CORPUS / "modes-object.md"]


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


def _mode_tokens(doc: dict) -> dict[str, dict[str, str]]:
    """token path -> mode -> hex or dimension, from the `$extensions.mode` of tokens.json."""
    out: dict[str, dict[str, str]] = {}

    def walk(node: dict, prefix: tuple[str, ...]) -> None:
        if "$value" in node:
            modes = node.get("$extensions", {}).get("mode")
            if modes:
                out[".".join(prefix)] = {
                    m: v["hex"] if "hex" in v else f"{v['value']:g}{v['unit']}" for m, v in modes.items()
                }
            return
        for key, child in node.items():
            if not key.startswith("$") and isinstance(child, dict):
                walk(child, (*prefix, key))

    walk(doc, ())
    return out


@pytest.mark.parametrize("path", MODE_SOURCES, ids=[p.name for p in MODE_SOURCES])
def test_modes_build_in_both_tools(path: Path, builds: dict[Path, Built]) -> None:
    """`--modes` tokens.json: valid, Style Dictionary sees every mode value, Terrazzo writes the dark rule."""
    built = built_for(moded_key(path), builds)
    assert validate(built.doc) == []
    expected = _mode_tokens(built.doc)
    assert expected["color.primary"] == {"light": "#0b5fff", "dark": "#8ab4ff"}
    assert built.sd_ok, built.sd_error
    sd_modes = json.loads((built.dir / "sd-out" / "modes.json").read_text(encoding="utf-8"))
    assert sd_modes == expected
    proc = built.tz
    assert proc is not None and proc.returncode == 0, proc.stdout + proc.stderr
    css = (built.dir / "tz-out" / "tokens.css").read_text(encoding="utf-8")
    dark = css.split('[data-theme="dark"] {', 1)[1].split("}", 1)[0]
    assert "--color-primary: rgb(54.1% 70.6% 100%);" in dark
    # an alias of a token with a dark value follows it in Terrazzo's dark rule
    assert "--color-link: var(--color-primary);" in dark


def test_every_moded_source_builds(builds: dict[Path, Built]) -> None:
    moded = [b for key, b in builds.items() if key.parts[0] == "--modes"]
    assert len(moded) >= 3  # both mode corpus files and site_src (brand_refs too, when they have -dark tokens)
    for built in moded:
        assert validate(built.doc) == []
        assert built.sd_ok, built.sd_error
        assert built.tz is not None and built.tz.returncode == 0, built.tz.stdout + built.tz.stderr


def test_dangling_aliases_are_left_out_with_a_note() -> None:
    """Whatever the input, an alias in tokens.json points at a token of tokens.json."""
    from pinup.designmd.exporters.dtcg import drop_dangling

    tree = {
        "color": {
            "$type": "color",
            "a": {"$value": "{color.gone}"},
            "b": {"$value": "{color.a}"},
            "c": {"$value": "{color.d}"},
            "d": {"$value": "{color.c}"},
            "ok": {"$value": {"colorSpace": "srgb", "components": [0, 0, 0], "alpha": 1, "hex": "#000000"}},
            "e": {"$value": "{color.ok}"},
        },
        "typography": {"t": {"$type": "typography", "$value": {"fontSize": "{spacing.none}"}}},
    }
    notes: list[str] = []
    drop_dangling(tree, notes)
    assert sorted(k for k in tree["color"] if not k.startswith("$")) == ["e", "ok"]
    assert "typography" not in tree
    assert any(n.startswith("color.a: left out, its alias {color.gone}") for n in notes)
    assert len(notes) == 5
