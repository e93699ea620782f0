"""pinup.brands: where the data is found (installed wheel vs source checkout) and how bad data fails."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from package_helpers import read_brand, read_example

from pinup import brands

ROOT = Path(__file__).resolve().parents[2]


def test_source_checkout_uses_repo_folders(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(brands.BRAND_REFS_ENV, raising=False)
    monkeypatch.setattr(brands, "DATA_DIR", tmp_path / "missing")
    assert brands.brand_refs_dir() == ROOT / "brand_refs"
    assert brands.example_dir() == ROOT / "site_src"
    assert read_example() == (ROOT / "site_src" / "DESIGN.md").read_text(encoding="utf-8")


def test_installed_layout_wins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A wheel puts the data in pinup/_data/ (pyproject force-include); that copy is preferred."""
    monkeypatch.delenv(brands.BRAND_REFS_ENV, raising=False)
    data = tmp_path / "_data"
    (data / "brand_refs" / "acme").mkdir(parents=True)
    (data / "site_src").mkdir(parents=True)
    (data / "site_src" / "DESIGN.md").write_text("# example\n", encoding="utf-8")
    (data / "brand_refs" / "manifest.json").write_text(
        json.dumps([{"slug": "acme", "name": "Acme", "category": "testing", "description": "x"}]), encoding="utf-8"
    )
    (data / "brand_refs" / "acme" / "DESIGN.md").write_text("---\nname: Acme\n---\n", encoding="utf-8")
    monkeypatch.setattr(brands, "DATA_DIR", data)
    assert brands.brand_refs_dir() == data / "brand_refs"
    assert [b.slug for b in brands.load_manifest()] == ["acme"]
    assert read_brand("acme").startswith("---")
    assert read_example() == "# example\n"


def test_pyproject_ships_the_data() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"brand_refs" = "pinup/_data/brand_refs"' in text
    assert '"site_src" = "pinup/_data/site_src"' in text


def test_manifest_model_and_lookup() -> None:
    items = brands.load_manifest()
    assert len(items) == 25
    assert brands.get_brand("IBM").slug == "ibm"
    assert brands.brand_design_path("runwayml").is_file()
    with pytest.raises(brands.UnknownBrandError) as info:
        brands.get_brand("stripee")
    assert info.value.suggestions[0] == "stripe"


def test_bad_manifest_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(brands.BRAND_REFS_ENV, str(tmp_path))
    (tmp_path / "manifest.json").write_text('[{"slug": "Bad Slug!", "name": "x", "category": "y"}]', encoding="utf-8")
    with pytest.raises(brands.BrandError, match="invalid manifest"):
        brands.load_manifest()
    (tmp_path / "manifest.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(brands.BrandError, match="invalid JSON"):
        brands.load_manifest()


def test_listed_brand_with_missing_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(brands.BRAND_REFS_ENV, str(tmp_path))
    (tmp_path / "manifest.json").write_text(
        json.dumps([{"slug": "ghost", "name": "Ghost", "category": "c"}]), encoding="utf-8"
    )
    with pytest.raises(brands.BrandError, match="missing"):
        read_brand("ghost")
