"""The DTCG 2025.10 structural validator: it accepts valid documents and rejects each kind of mistake."""

from __future__ import annotations

import copy

import pytest

from pinup.designmd.exporters.dtcg_validate import validate

COLOR = {"colorSpace": "srgb", "components": [1, 0, 0], "alpha": 1, "hex": "#ff0000"}
TYPO = {
    "fontFamily": ["Inter", "sans-serif"],
    "fontSize": {"value": 16, "unit": "px"},
    "fontWeight": 400,
    "letterSpacing": {"value": 0, "unit": "px"},
    "lineHeight": 1.5,
}
VALID = {
    "$schema": "https://www.designtokens.org/schemas/2025.10/format.json",
    "color": {"$type": "color", "red": {"$value": COLOR}, "brand": {"500": {"$value": "{color.red}"}}},
    "spacing": {"$type": "dimension", "sm": {"$value": {"value": 0.5, "unit": "rem"}}},
    "typography": {"body": {"$type": "typography", "$value": TYPO}},
}


def mutate(path: list[str], value: object) -> dict:
    doc = copy.deepcopy(VALID)
    node = doc
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return doc


def test_valid_document_passes() -> None:
    assert validate(VALID) == []


@pytest.mark.parametrize(
    "path,value,needle",
    [
        (["color", "$type"], KeyError, "no $type"),
        (["color", "red", "$value", "hex"], "#ff000080", "6-digit"),
        (["color", "red", "$value", "hex"], "#00ff00", "does not match"),
        (["color", "red", "$value", "alpha"], 1.5, "alpha"),
        (["color", "red", "$value", "components"], [255, 0, 0], "[0, 1]"),
        (["color", "red", "$value", "colorSpace"], "rgb", "colorSpace"),
        (["spacing", "sm", "$value", "unit"], "em", "not px or rem"),
        (["spacing", "sm", "$value", "unit"], "%", "not px or rem"),
        (["spacing", "sm", "$value"], "8px", "exactly {value, unit}"),
        (["typography", "body", "$value", "letterSpacing"], KeyError, "missing letterSpacing"),
        (["typography", "body", "$value", "lineHeight"], {"value": 24, "unit": "px"}, "ratio"),
        (["typography", "body", "$value", "fontWeight"], 0, "fontWeight"),
        (["typography", "body", "$value", "fontFamily"], [], "fontFamily"),
        (["color", "brand", "500", "$value"], "{color.blue}", "points at no token"),
        (["color", "brand", "500", "$value"], "{spacing.sm}", "not a color"),
        (["color", "brand.600"], {"$value": COLOR}, "invalid name"),
        (["color", "{x}"], {"$value": COLOR}, "invalid name"),
        (["color", "$foo"], {"$value": COLOR}, "unknown group property"),
        (["color", "red", "child"], {"$value": COLOR}, "child"),
        (["spacing", "$type"], "size", "unknown $type"),
    ],
)
def test_invalid_documents_fail(path: list[str], value: object, needle: str) -> None:
    errors = validate(mutate(path, value))
    assert errors, "expected a problem"
    assert any(needle in e for e in errors), errors


def test_reference_style_output_fails() -> None:
    """The reference's DTCG shape (8-digit hex, no alpha, % units, bare lineHeight, no letterSpacing)."""
    doc = {
        "color": {
            "$type": "color",
            "scrim": {"$value": {"colorSpace": "srgb", "components": [0, 0, 0], "hex": "#00000040"}},
        },
        "rounded": {"$type": "dimension", "pill": {"$value": {"value": 50, "unit": "%"}}},
        "typography": {"body": {"$type": "typography", "$value": {"fontFamily": "Inter", "lineHeight": 24}}},
    }
    assert len(validate(doc)) >= 5
