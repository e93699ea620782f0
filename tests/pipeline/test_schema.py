"""`pinup schema`: the front-matter JSON Schema accepts every bundled DESIGN.md and the reference's examples.

The files are read as an editor's YAML language server reads them (PyYAML on the front matter),
not through pinup's parser, and validated with jsonschema's draft 2020-12 validator.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from cli_runner import run_forked as run_pinup
from jsonschema import Draft7Validator, Draft202012Validator

from pinup.designmd.sections import COMPONENT_SUB_TOKENS, SCHEMA_KEYS, TYPOGRAPHY_PROPERTIES
from pinup.spec import KEY_NOTES

ROOT = Path(__file__).resolve().parents[2]
DESIGNS = sorted([*ROOT.glob("brand_refs/*/DESIGN.md"), *ROOT.glob("site_src/**/DESIGN.md")])


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    done = run_pinup("schema")
    assert done.returncode == 0, done.stderr
    loaded: dict[str, Any] = json.loads(done.stdout)
    return loaded


@pytest.fixture(scope="module")
def validator(schema: dict[str, Any]) -> Draft202012Validator:
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def front_matter(text: str) -> Any:
    match = re.match(r"---\r?\n(.*?)\r?\n---\r?\n", text, re.S)
    assert match, "no front matter"
    return yaml.safe_load(match.group(1))


def problems(validator: Draft202012Validator, data: Any) -> list[str]:
    return [f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(data)]


def test_schema_is_draft_2020_12_from_the_linter_tables(schema: dict[str, Any]) -> None:
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert tuple(schema["properties"]) == SCHEMA_KEYS
    assert {k: v["description"] for k, v in schema["properties"].items()} == KEY_NOTES
    assert tuple(schema["$defs"]["typography"]["properties"]) == TYPOGRAPHY_PROPERTIES
    assert tuple(schema["$defs"]["component"]["properties"]) == COMPONENT_SUB_TOKENS
    assert schema["$defs"]["omission"]["required"] == ["section"]  # the model's Omission, through pydantic


def test_there_are_bundled_designs_to_check() -> None:
    assert len(DESIGNS) >= 20


@pytest.mark.parametrize("path", DESIGNS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_bundled_design_validates(validator: Draft202012Validator, path: Path) -> None:
    assert problems(validator, front_matter(path.read_text("utf-8"))) == []


@pytest.mark.node
def test_the_reference_specs_examples_validate(validator: Draft202012Validator, node_bin: Path) -> None:
    """The YAML examples of the spec shipped in the reference's npm package (it ships no fixture files)."""
    spec = (node_bin.parent / "@google" / "design.md" / "dist" / "spec.md").read_text("utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", spec, re.S)
    examples = [yaml.safe_load(b.replace("---\n", "")) for b in blocks if "<" not in b]  # not the `<Color>` sketch
    assert len(examples) >= 5
    covered = set()
    for example in examples:
        assert problems(validator, example) == []
        covered |= set(example)
    assert {"colors", "typography", "spacing", "rounded", "components"} <= covered


@pytest.mark.parametrize(
    ("front", "where"),
    [
        ({"colors": {"primary": "not-a-colour"}}, "colors.primary"),
        ({"colors": {"brand": {"primary": "#12345"}}}, "colors.brand"),  # in a group: anyOf reports the group
        ({"rounded": {"md": "8vw"}}, "rounded.md"),
        ({"typography": {"body": {"fontSize": "16"}}}, "typography.body.fontSize"),
        ({"typography": {"body": {"fontWeight": "bold"}}}, "typography.body.fontWeight"),
        ({"components": {"button": "primary"}}, "components.button"),
        ({"omitted": [{"reason": "no section named"}]}, "omitted.0"),
    ],
)
def test_what_the_linter_calls_an_error_the_schema_rejects(
    validator: Draft202012Validator, front: dict[str, Any], where: str
) -> None:
    found = problems(validator, front)
    assert found and all(p.startswith(where) for p in found)


def test_draft_7_is_the_same_schema_for_older_validators(schema: dict[str, Any]) -> None:
    done = run_pinup("schema", "--draft", "7")
    assert done.returncode == 0, done.stderr
    seven = json.loads(done.stdout)
    assert seven["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert {**seven, "$schema": schema["$schema"]} == schema
    Draft7Validator.check_schema(seven)
    validator = Draft7Validator(seven)
    for path in DESIGNS:
        assert list(validator.iter_errors(front_matter(path.read_text("utf-8")))) == [], path
    assert list(validator.iter_errors({"colors": {"primary": "not-a-colour"}}))


def test_what_the_linter_only_warns_about_the_schema_allows(validator: Draft202012Validator) -> None:
    front = {
        "colours": {"primary": "#000"},  # a typo of `colors`: a warning
        "colors": {"primary": "OKLCH(0.5 0.1 200)", "ink": "{colors.primary}", "brand": {"blue": "navy"}},
        "typography": {"body": {"fontFamily": "Inter", "lineHeight": "1.5", "fontWidth": "wide"}},
        "spacing": {"gutter": 24, "grid": "12%"},
        "components": {"button": {"backgroundColor": "{colors.primary}", "shadow": "none"}},
        "omitted": ["Shapes", {"section": "Layout", "reason": "one column"}],
    }
    assert problems(validator, front) == []


def test_the_modeline_changes_nothing_pinup_lint_reports() -> None:
    """docs/pipeline.md puts `# yaml-language-server: $schema=…` on the first front-matter line."""
    source = (ROOT / "site_src" / "DESIGN.md").read_bytes()
    with_modeline = source.replace(b"---\n", b"---\n# yaml-language-server: $schema=./design-md.schema.json\n", 1)
    assert with_modeline != source
    plain, marked = run_pinup("lint", "-", input=source), run_pinup("lint", "-", input=with_modeline)
    assert (marked.returncode, marked.stdout) == (plain.returncode, plain.stdout)
