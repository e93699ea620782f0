"""`pinup.designmd.light` is the public pydantic model without pydantic, for builders that only read it.

Each light class has the fields of the pydantic class of the same name, in order and with the
same defaults; a light report holds, field for field, the values of the pydantic one; every page
built from it is byte for byte the page built from the pydantic report; and a gallery build
(which reads light reports) never imports pydantic.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers_designmd import CORPUS, ROOT
from pydantic import BaseModel

from pinup.designmd import light
from pinup.designmd import model as public
from pinup.designmd.lint import lint_text
from pinup.docsite.pages import build_site_model
from pinup.docsite.render import Links, render_page
from pinup.output import utf8

DOCUMENTS = sorted(CORPUS.glob("*.md")) + sorted((ROOT / "brand_refs").glob("*/DESIGN.md"))
CLASSES = ["Color", "Dimension", "Typography", "Component", "Section", "Omission", "DesignSystem"]
CLASSES += ["Finding", "Summary", "LintReport"]


@pytest.mark.parametrize("name", CLASSES)
def test_each_class_has_the_public_fields_in_order_with_their_defaults(name: str) -> None:
    public_cls: type[BaseModel] = getattr(public, name)
    light_cls = getattr(light, name)
    assert [field for field, _ in light_cls.FIELDS] == list(public_cls.model_fields)
    assert list(light_cls.__slots__) == list(public_cls.model_fields)
    for field, default in light_cls.FIELDS:
        info = public_cls.model_fields[field]
        if info.is_required():
            assert default is None, field
        elif info.default_factory is not None:
            assert default is info.default_factory, field
        else:
            assert default == info.default, field


def _same(made: Any, reference: Any, where: str) -> None:
    """`made` (light) holds what `reference` (pydantic) holds, class for class by name."""
    if isinstance(reference, BaseModel):
        assert type(made) is getattr(light, type(reference).__name__), where
        for field in type(reference).model_fields:
            _same(getattr(made, field), getattr(reference, field), f"{where}.{field}")
    elif isinstance(reference, dict):
        assert type(made) is type(reference) and list(made) == list(reference), where
        for key, value in reference.items():
            _same(made[key], value, f"{where}[{key!r}]")
    elif isinstance(reference, (list, tuple)):
        assert type(made) is type(reference) and len(made) == len(reference), where
        for index, (one, other) in enumerate(zip(made, reference, strict=True)):
            _same(one, other, f"{where}[{index}]")
    else:
        assert type(made) is type(reference), where
        assert made == reference or (made != made and reference != reference), where  # NaN is NaN here


def _pages(report: Any) -> dict[str, bytes]:
    site = build_site_model(report)
    links = Links()
    return {page.filename: utf8(render_page(site, page, links)) for page in site.pages}


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.parent.name if p.name == "DESIGN.md" else p.stem)
def test_a_light_report_holds_what_the_public_one_does_and_builds_the_same_pages(path: Path) -> None:
    text = path.read_bytes().decode("utf-8", errors="replace")  # as `pinup build` reads it
    reference = lint_text(text, extended=True)
    made = lint_text(text, extended=True, light=True)
    _same(made, reference, "report")
    assert _pages(made) == _pages(reference)
    for symbol in reference.design.symbols:
        for mode in [None, *reference.design.themes]:
            found = reference.design.mode_value(symbol, mode)
            _same(made.design.mode_value(symbol, mode), found, f"mode_value({symbol!r}, {mode!r})")


def test_light_models_compare_pickle_and_print_like_pydantic_ones() -> None:
    red = light.Color(hex="#ff0000", r=255, g=0, b=0, luminance=0.2126, raw="red")
    assert red == light.Color(hex="#ff0000", r=255, g=0, b=0, luminance=0.2126, raw="red")
    assert red != light.Color(hex="#ff0000", r=255, g=0, b=0, luminance=0.2126, raw="#f00")
    assert red != light.Dimension(value=1.0, unit="px")
    assert pickle.loads(pickle.dumps(red)) == red
    assert repr(red).startswith("Color(type='color', hex='#ff0000'")
    with pytest.raises(TypeError):
        hash(red)
    a, b = light.DesignSystem(), light.DesignSystem()
    a.colors["x"] = red
    assert b.colors == {}  # each instance its own containers
    assert light.Dimension(value=0.5, unit="rem").css() == "0.5rem"
    finding = light.Finding(severity="warning", message="m", rule="r", line=3)
    assert finding.reference_dict() == {"severity": "warning", "message": "m", "rule": "r"}


GALLERY = """
import json, sys
from pathlib import Path
from pinup.gallery import build_gallery
result = build_gallery(Path(sys.argv[1]))
print(json.dumps({"written": result.written, "pydantic": "pydantic" in sys.modules}))
"""


def _run(code: str, *args: Path, env: dict[str, str]) -> dict[str, Any]:
    """What `code` prints last (JSON), run in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", code, *map(str, args)], capture_output=True, text=True, env=env, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def test_a_gallery_build_never_imports_pydantic(tmp_path: Path) -> None:
    """With its caches warm (the brand list validated before), as after a one-token edit."""
    env = {**os.environ, "PINUP_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("PINUP_NO_CACHE", None)
    # the first run validates the brand list (pydantic) and caches it
    runs = [_run(GALLERY, tmp_path / "out", env=env) for _ in range(2)]
    assert runs[0]["written"] > 0 and runs[1]["written"] == 0
    assert runs[1]["pydantic"] is False
    # and after an edit of one brand (linted, modelled, rendered again): still none
    brands = tmp_path / "brands"
    shutil.copytree(ROOT / "brand_refs", brands)
    env["PINUP_BRAND_REFS"] = str(brands)
    _run(GALLERY, tmp_path / "out2", env=env)
    design = next(iter(sorted(brands.glob("*/DESIGN.md"))))
    design.write_text(design.read_text("utf-8") + "\n## Notes\n\nOne more line.\n", "utf-8")
    found = _run(GALLERY, tmp_path / "out2", env=env)
    assert found["written"] > 0 and found["pydantic"] is False


BUILD = """
import json, sys
from pathlib import Path
from pinup.build import BuildOptions, build_all
result = build_all(BuildOptions(src=Path(sys.argv[1]), out=Path(sys.argv[2])))
print(json.dumps({"pages": len(result.pages), "warnings": result.warnings, "pydantic": "pydantic" in sys.modules}))
"""


def test_a_build_without_boards_never_imports_pydantic(tmp_path: Path) -> None:
    """`pinup build` lints into the light model; only boards (their specs) need pydantic."""
    workspace = tmp_path / "ws"
    shutil.copytree(ROOT / "site_src", workspace, ignore=shutil.ignore_patterns("boards", ".pinup"))
    found = _run(BUILD, workspace, tmp_path / "out", env={**os.environ, "PINUP_NO_CACHE": "1"})
    assert found["pages"] >= 10 and found["pydantic"] is False
    text = (workspace / "DESIGN.md").read_bytes().decode("utf-8", errors="replace")
    assert found["warnings"] == lint_text(text, extended=True).summary.warnings


BUILD_MODULES = """
import json, sys
from pathlib import Path
from pinup.build import BuildOptions, build_all
result = build_all(BuildOptions(src=Path(sys.argv[1]), out=Path(sys.argv[2])))
loaded = [name for name in ("pydantic", "ruamel.yaml", "pinup_feedback.schema") if name in sys.modules]
print(json.dumps({"pages": len(result.pages), "boards": len(result.boards), "loaded": loaded}))
"""


def test_a_build_with_boards_validated_before_never_imports_pydantic(tmp_path: Path) -> None:
    """The example workspace (boards, tweaks, the page contract): the first build validates its
    board.yaml files (pydantic, ruamel); after a one-token edit of DESIGN.md the next process loads
    the validated specs and the board pages' contract from the build cache and imports neither."""
    workspace = tmp_path / "ws"
    shutil.copytree(ROOT / "site_src", workspace, ignore=shutil.ignore_patterns(".pinup"))
    env = {**os.environ, "PINUP_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("PINUP_NO_CACHE", None)
    first = _run(BUILD_MODULES, workspace, tmp_path / "out", env=env)
    assert first["boards"] >= 2 and "pydantic" in first["loaded"]
    design = workspace / "DESIGN.md"
    text = design.read_text("utf-8")
    token = next(line for line in text.splitlines() if line.strip().startswith("primary:") and "#" in line)
    design.write_text(text.replace(token, token[:-2] + ("0" if token[-2] != "0" else "1") + token[-1]), "utf-8")
    again = _run(BUILD_MODULES, workspace, tmp_path / "out", env=env)
    assert again["boards"] == first["boards"] and again["pages"] == first["pages"]
    assert again["loaded"] == []
