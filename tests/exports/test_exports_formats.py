"""Unit tests per export format, on DesignSystem models built by hand."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pinup.designmd.exporters import FORMATS, ExportError, render, render_result
from pinup.designmd.exporters.jsjson import compact, stringify
from pinup.designmd.model import Color, Component, DesignSystem, Dimension, Typography


def color(hexv: str, a: float | None = None) -> Color:
    r, g, b = (int(hexv[i : i + 2], 16) for i in (1, 3, 5))
    suffix = f"{int(a * 255 + 0.5):02x}" if a is not None and a < 1 else ""
    return Color(hex=hexv + suffix, r=r, g=g, b=b, a=a, luminance=0.0)


def dim(value: float, unit: str) -> Dimension:
    return Dimension(value=value, unit=unit)


@pytest.fixture()
def design() -> DesignSystem:
    return DesignSystem(
        name="Demo",
        colors={"primary": color("#1a73e8"), "5": color("#000000", 0.25), "brand.500": color("#ff0000")},
        typography={
            "body": Typography(
                fontFamily='"Helvetica Neue", Arial', fontSize=dim(16, "px"), fontWeight=400, lineHeight=dim(24, "px")
            ),
            "h1": Typography(fontFamily='A "B"\n', fontSize=dim(2, "rem"), letterSpacing=dim(-0.02, "em")),
            "bare": Typography(),
        },
        rounded={"sm": dim(4, "px"), "pill": dim(50, "%")},
        spacing={"tiny": dim(1e-7, "px"), "huge": dim(1e21, "px"), "neg": dim(-0.0, "px"), "em": dim(0.5, "em")},
    )


def test_formats_tuple() -> None:
    assert FORMATS == ("css-tailwind", "json-tailwind", "tailwind", "dtcg", "css-vars")


def test_invalid_format() -> None:
    with pytest.raises(ExportError) as info:
        render("scss", DesignSystem())
    assert info.value.code == "INVALID_FORMAT"
    assert info.value.message == (
        'Invalid format "scss". Valid formats: css-tailwind, json-tailwind, tailwind, dtcg, css-vars'
    )
    assert json.loads(info.value.to_json()) == {"error": "INVALID_FORMAT", "message": info.value.message}


def test_empty_model_outputs() -> None:
    empty = DesignSystem()
    assert render("css-tailwind", empty) == "@theme {\n}\n"
    assert render("css-vars", empty) == ":root {\n}\n\n"
    assert json.loads(render("json-tailwind", empty)) == {
        "theme": {"extend": {"colors": {}, "fontFamily": {}, "fontSize": {}, "borderRadius": {}, "spacing": {}}}
    }
    assert render("dtcg", empty) == '{\n  "$schema": "https://www.designtokens.org/schemas/2025.10/format.json"\n}\n'


def test_json_tailwind_text(design: DesignSystem) -> None:
    text = render("json-tailwind", design)
    assert text == render("tailwind", design)
    assert text.endswith("}\n") and not text.endswith("\n\n")
    data = json.loads(text)["theme"]["extend"]
    # JS objects print integer-like keys first.
    assert list(data["colors"]) == ["5", "primary", "brand.500"]
    assert data["colors"]["5"] == "#00000040"
    assert data["fontFamily"] == {"body": ['"Helvetica Neue", Arial'], "h1": ['A "B"\n']}
    assert data["fontSize"] == {
        "body": ["16px", {"lineHeight": "24px", "fontWeight": "400"}],
        "h1": ["2rem", {"letterSpacing": "-0.02em"}],
    }
    assert data["borderRadius"] == {"sm": "4px", "pill": "50%"}
    assert data["spacing"] == {"tiny": "1e-7px", "huge": "1e+21px", "neg": "0px", "em": "0.5em"}
    assert '"body": [\n          "16px",\n          {\n            "lineHeight": "24px"' in text


def test_css_tailwind_name_check(design: DesignSystem) -> None:
    with pytest.raises(ExportError) as info:
        render("css-tailwind", design)
    assert info.value.code == "INVALID_TOKEN_NAME"
    assert info.value.message == (
        'Token name "brand.500" is not a valid CSS identifier for Tailwind v4 export '
        "(must match /^[a-zA-Z0-9][a-zA-Z0-9-]*$/)."
    )


@pytest.mark.parametrize("name", ["-a", "_a", "a_b", "größe", "a\n", ""])
def test_css_tailwind_rejects(name: str) -> None:
    with pytest.raises(ExportError):
        render("css-tailwind", DesignSystem(spacing={name: dim(1, "px")}))


def test_css_tailwind_text(design: DesignSystem) -> None:
    design.colors.pop("brand.500")
    design.components = {"not.checked": Component()}
    assert render("css-tailwind", design) == (
        "@theme {\n"
        "  --color-primary: #1a73e8;\n"
        "  --color-5: #00000040;\n"
        '  --font-body: "\\"Helvetica Neue\\", Arial";\n'
        '  --font-h1: "A \\"B\\"\\a ";\n'
        "  --text-body: 16px;\n"
        "  --text-h1: 2rem;\n"
        "  --leading-body: 24px;\n"
        "  --tracking-h1: -0.02em;\n"
        "  --font-weight-body: 400;\n"
        "  --radius-sm: 4px;\n"
        "  --radius-pill: 50%;\n"
        "  --spacing-tiny: 1e-7px;\n"
        "  --spacing-huge: 1e+21px;\n"
        "  --spacing-neg: 0px;\n"
        "  --spacing-em: 0.5em;\n"
        "}\n"
    )


def test_css_vars_text(design: DesignSystem) -> None:
    expected_body = (
        "  --{p}color-primary: #1a73e8;\n"
        "  --{p}color-5: #00000040;\n"
        "  --{p}color-brand-500: #ff0000;\n"
        "  --{p}spacing-tiny: 1e-7px;\n"
        "  --{p}spacing-huge: 1e+21px;\n"
        "  --{p}spacing-neg: 0px;\n"
        "  --{p}spacing-em: 0.5em;\n"
        "  --{p}rounded-sm: 4px;\n"
        "  --{p}rounded-pill: 50%;\n"
    )
    assert render("css-vars", design) == ":root {\n" + expected_body.format(p="") + "}\n\n"
    assert render("css-vars", design, prefix="ds") == ":root {\n" + expected_body.format(p="ds-") + "}\n\n"
    assert render("css-vars", design, prefix="") == render("css-vars", design)


def test_stringify_matches_javascript() -> None:
    assert stringify({"a": 16.0, "b": [], "c": {}, "d": float("nan"), "e": "\x01\u2028"}) == (
        '{\n  "a": 16,\n  "b": [],\n  "c": {},\n  "d": null,\n  "e": "\\u0001\u2028"\n}'
    )
    assert stringify({"b": 1, "10": 2, "2": 3, "01": 4}) == '{\n  "2": 3,\n  "10": 2,\n  "b": 1,\n  "01": 4\n}'
    assert stringify("\ud800") == '"\\ud800"'


def test_stringify_remembering_members_writes_what_stringify_writes() -> None:
    """`remember=True` keeps each top-level member's text by its repr within a process (exports
    after a token edit rewrite only the groups that changed); every value must still be written
    as itself: 1, 1.0, True and "1" are different values, and so are two key orders."""
    from pinup.designmd.exporters import jsjson

    jsjson._MEMBERS.clear()
    versions = [
        {"color": {"a": {"$value": "#112233"}}, "spacing": {"s": {"value": 4, "unit": "px"}}},
        {"color": {"a": {"$value": "#445566"}}, "spacing": {"s": {"value": 4, "unit": "px"}}},  # one change
        {"color": {"a": {"$value": "#445566"}}, "spacing": {"s": {"value": 4.5, "unit": "px"}}},
        {"color": {"a": {"$value": "#445566"}}, "spacing": {"s": {"value": True, "unit": "px"}}},
        {"color": {"a": {"$value": "#445566"}}, "spacing": {"s": {"value": "4", "unit": "px"}}},
        {"color": {"a": {"$value": "#445566"}}, "spacing": {"s": {"unit": "px", "value": "4"}}},
        {"color": [1, 1.0, None, {"10": 1, "2": 2}], "spacing": "plain", "n": 1e21},
        {"color": [1, 1, None, {"10": 1, "2": 2}], "spacing": "plain", "n": 1e21},
        {"10": {"x": 1}, "2": {"x": 1}, "color": {}},
    ]
    for _ in range(2):  # the second round answers from the memo
        for value in versions:
            assert stringify(value, remember=True) == stringify(value)
    assert len(jsjson._MEMBERS) <= jsjson._MEMBERS_KEPT
    assert stringify({}, remember=True) == "{}" and stringify([1], remember=True) == stringify([1])


_JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**60), 2**60),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)
_JSON_VALUES = st.recursive(
    _JSON_SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.one_of(st.text(max_size=6), st.sampled_from(["1", "10", "01", "$value"])), inner, max_size=5
        ),
    ),
    max_leaves=30,
)


@pytest.mark.parametrize("split", [0, 2, None])
@settings(max_examples=150, deadline=None)
@given(versions=st.lists(st.dictionaries(st.text(max_size=6), _JSON_VALUES, min_size=1, max_size=4), max_size=4))
def test_stringify_remembering_nested_members_writes_what_stringify_writes(
    split: int | None, versions: list[dict[str, object]]
) -> None:
    """Objects put together from remembered members (at every depth, whatever the split size) are
    written exactly as the plain writer writes them, also when the memo answers for them."""
    from pinup.designmd.exporters import jsjson

    with pytest.MonkeyPatch.context() as patch:
        if split is not None:
            patch.setattr(jsjson, "_SPLIT_MEMBERS", split)
        for value in [*versions, *versions]:  # the second pass answers from the memo
            assert stringify(value, remember=True) == stringify(value)
    assert len(jsjson._MEMBERS) <= jsjson._MEMBERS_KEPT


def test_stringify_remembers_each_token_of_a_large_group() -> None:
    """After one token of a large group changes, only that token is written again."""
    from pinup.designmd.exporters import jsjson

    jsjson._MEMBERS.clear()
    group = {f"c{i}": {"$type": "color", "$value": {"hex": f"#0000{i:02x}", "alpha": 1}} for i in range(40)}
    stringify({"color": group}, remember=True)
    calls: list[object] = []
    plain = jsjson._write

    def counting(value: object, *args: object) -> None:
        calls.append(value)
        plain(value, *args)  # type: ignore[arg-type]

    jsjson._write = counting  # type: ignore[assignment]
    try:
        changed = {**group, "c7": {"$type": "color", "$value": {"hex": "#abcdef", "alpha": 1}}}
        text = stringify({"color": changed}, remember=True)
    finally:
        jsjson._write = plain  # type: ignore[assignment]
    assert text == stringify({"color": changed})
    # the changed token and what is inside it (5 values), none of the 39 others
    assert calls[0] == changed["c7"] and len(calls) == 5


def test_compact_is_json_stringify_without_spacing() -> None:
    """The form `diff` compares tokens by: JavaScript key order, numbers and no whitespace."""
    assert compact({"b": [1.0, None, ("x", 1e-7)], "10": {}, "2": True}) == '{"2":true,"10":{},"b":[1,null,["x",1e-7]]}'
    assert compact([]) == "[]" and compact({"a": {"b": []}}) == '{"a":{"b":[]}}'
    with pytest.raises(TypeError):
        compact({"a": object()})
    assert compact({"a": frozenset({3})}, default=sorted) == '{"a":[3]}'


# -- dtcg ------------------------------------------------------------------------------------


def test_dtcg_colors(design: DesignSystem) -> None:
    doc = json.loads(render("dtcg", design))
    assert doc["$schema"] == "https://www.designtokens.org/schemas/2025.10/format.json"
    assert doc["$description"] == "Demo"
    group = doc["color"]
    assert group["$type"] == "color"
    assert group["primary"]["$value"] == {
        "colorSpace": "srgb",
        "components": [0.102, 0.451, 0.91],
        "alpha": 1,
        "hex": "#1a73e8",
    }
    assert group["5"]["$value"]["alpha"] == 0.25
    assert group["5"]["$value"]["hex"] == "#000000"
    # Dotted model names become nested groups.
    assert group["brand"]["500"]["$value"]["hex"] == "#ff0000"
    assert "brand.500" not in group


def test_dtcg_dimensions_and_warnings(design: DesignSystem) -> None:
    result = render_result("dtcg", design)
    doc = json.loads(result.text)
    assert doc["rounded"] == {"$type": "dimension", "sm": {"$value": {"value": 4, "unit": "px"}}}
    assert doc["spacing"]["em"]["$value"] == {"value": 0.5, "unit": "rem"}
    assert doc["spacing"]["neg"]["$value"] == {"value": 0, "unit": "px"}
    assert any(w.startswith("rounded.pill:") and "left out" in w for w in result.warnings)
    assert any(w.startswith("spacing.em:") for w in result.warnings)


def test_dtcg_absolute_units_convert() -> None:
    design = DesignSystem(spacing={"pt": dim(12, "pt"), "in": dim(1, "in"), "vh": dim(10, "vh")})
    result = render_result("dtcg", design)
    doc = json.loads(result.text)
    assert doc["spacing"]["pt"]["$value"] == {"value": 16, "unit": "px"}
    assert doc["spacing"]["in"]["$value"] == {"value": 96, "unit": "px"}
    assert "vh" not in doc["spacing"]
    assert result.warnings == ["spacing.vh: 10vh has no px or rem equivalent; left out"]


def test_dtcg_typography_complete(design: DesignSystem) -> None:
    result = render_result("dtcg", design)
    typo = json.loads(result.text)["typography"]
    assert typo["body"] == {
        "$type": "typography",
        "$value": {
            "fontFamily": ["Helvetica Neue", "Arial"],
            "fontSize": {"value": 16, "unit": "px"},
            "fontWeight": 400,
            "letterSpacing": {"value": 0, "unit": "px"},
            "lineHeight": 1.5,
        },
    }
    h1 = typo["h1"]["$value"]
    assert h1["fontFamily"] == "A B"  # quotes around a family name are CSS syntax, not part of the name
    assert h1["letterSpacing"] == {"value": -0.04, "unit": "rem"}  # -0.02em of a 2rem font
    assert h1["lineHeight"] == 1.2
    assert h1["fontWeight"] == 400
    bare = typo["bare"]["$value"]
    assert bare["fontSize"] == {"value": 1, "unit": "rem"}
    assert bare["fontFamily"] == ["Helvetica Neue", "Arial"]  # the most used family (first on ties)
    assert "typography.bare.fontSize: missing; filled with 1rem (16px, the CSS default)" in result.warnings
    assert any(w.startswith("typography.bare.fontFamily: missing") for w in result.warnings)


@pytest.mark.parametrize(
    "line_height,font_size,ratio",
    [
        (dim(24, "px"), dim(16, "px"), 1.5),
        (dim(90, "px"), dim(72, "px"), 1.25),
        (dim(1.5, "rem"), dim(16, "px"), 1.5),
        (dim(150, "%"), dim(16, "px"), 1.5),
        (dim(1.4, "em"), dim(20, "px"), 1.4),
        (dim(1.3, ""), dim(2, "rem"), 1.3),
        (dim(20, "px"), dim(14, "px"), 1.4286),
    ],
)
def test_dtcg_line_height_is_a_ratio(line_height: Dimension, font_size: Dimension, ratio: float) -> None:
    design = DesignSystem(typography={"t": Typography(fontFamily="X", fontSize=font_size, lineHeight=line_height)})
    assert json.loads(render("dtcg", design))["typography"]["t"]["$value"]["lineHeight"] == ratio


def test_dtcg_references_stay_aliases() -> None:
    design = DesignSystem(
        colors={"blue": color("#0000ff"), "primary": color("#0000ff"), "link": color("#0000ff")},
        spacing={"sm": dim(8, "px"), "gutter": dim(8, "px"), "pct": dim(5, "%"), "pct-ref": dim(5, "%")},
        rounded={"md": dim(8, "px")},
        typography={"body": Typography(fontFamily="X", fontSize=dim(16, "px"))},
        components={
            "button": Component(
                properties={
                    "backgroundColor": color("#0000ff"),
                    "padding": dim(8, "px"),
                    "typography": Typography(fontFamily="X", fontSize=dim(16, "px")),
                    "shadow": "none",
                },
                raw={
                    "backgroundColor": "{colors.primary}",
                    "padding": "{rounded.md}",
                    "typography": "{typography.body}",
                },
            )
        },
        raw_tokens={
            "colors.primary": "{colors.blue}",
            "colors.link": "{colors.primary}",
            "spacing.gutter": "{rounded.md}",
            "spacing.pct-ref": "{spacing.pct}",
        },
    )
    result = render_result("dtcg", design)
    doc = json.loads(result.text)
    assert doc["color"]["primary"]["$value"] == "{color.blue}"
    assert doc["color"]["link"]["$value"] == "{color.primary}"
    assert doc["spacing"]["gutter"]["$value"] == "{rounded.md}"
    assert "pct" not in doc["spacing"] and "pct-ref" not in doc["spacing"]
    button = doc["components"]["button"]
    assert button["background-color"] == {"$type": "color", "$value": "{color.primary}"}
    assert button["padding"] == {"$type": "dimension", "$value": "{rounded.md}"}
    assert button["typography"] == {"$type": "typography", "$value": "{typography.body}"}
    assert "shadow" not in button
    assert "components.button: shadow left out (no DTCG token type for the value)" in result.warnings


def test_dtcg_names_are_made_legal() -> None:
    design = DesignSystem(
        colors={"$primary": color("#000000"), "{x}": color("#000000"), "a": color("#000000"), "a.b": color("#ffffff")}
    )
    result = render_result("dtcg", design)
    group = json.loads(result.text)["color"]
    assert set(group) == {"$type", "_primary", "_x_", "a"}
    assert any(w.startswith("colors.a.b: left out") for w in result.warnings)
    assert sum("renamed" in w for w in result.warnings) == 2


@pytest.mark.parametrize("weight,written", [(400, 400), (1, 1), (999.5, 999.5), (1000, 999), (5000, 400), (0, 400)])
def test_dtcg_font_weight_range(weight: float, written: float) -> None:
    design = DesignSystem(typography={"t": Typography(fontFamily="X", fontSize=dim(16, "px"), fontWeight=weight)})
    result = render_result("dtcg", design)
    assert json.loads(result.text)["typography"]["t"]["$value"]["fontWeight"] == written
    assert bool([w for w in result.warnings if "fontWeight" in w]) == (weight != written)


def test_dtcg_alpha_is_clamped() -> None:
    design = DesignSystem(colors={"bad": Color(hex="#ff0000-7f", r=255, g=0, b=0, a=-0.5, luminance=0.2)})
    result = render_result("dtcg", design)
    value = json.loads(result.text)["color"]["bad"]["$value"]
    assert value["alpha"] == 0 and value["hex"] == "#ff0000"
    assert result.warnings == ["colors.bad: alpha -0.5 clamped to 0"]


def test_lint_does_not_import_exporters(tmp_path) -> None:
    doc = tmp_path / "DESIGN.md"
    doc.write_text("---\ncolors:\n  primary: '#000'\n---\n")
    code = (
        "import sys\nfrom click.testing import CliRunner\nfrom pinup.cli.designmd import lint\n"
        f"result = CliRunner().invoke(lint, [{str(doc)!r}])\n"
        "assert result.exception is None and '\"findings\"' in result.output, result.output\n"
        "print(sorted(m for m in sys.modules if m.startswith('pinup.designmd.exporters')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_cli_dtcg_reports_warnings_on_stderr(tmp_path) -> None:
    doc = tmp_path / "DESIGN.md"
    doc.write_text("---\nrounded:\n  pill: 50%\n  md: 8px\n---\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "pinup", "export", str(doc), "--format", "dtcg"], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["rounded"] == {"$type": "dimension", "md": {"$value": {"value": 8, "unit": "px"}}}
    assert "rounded.pill: 50% has no px or rem equivalent; left out" in proc.stderr
