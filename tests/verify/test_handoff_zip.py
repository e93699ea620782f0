"""`pinup feedback handoff --zip`: one archive, unpacked and read back, and the same bytes every time."""

from __future__ import annotations

import io
import json
import subprocess
import zipfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import serve_process
from PIL import Image
from serve_process import EXAMPLE, PINUP, Served

from pinup.handoff_zip import build_zip

BOARD = "trail-home"
SANS = "Public Sans, Segoe UI, Helvetica Neue, Arial, sans-serif"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The example workspace, variant B given a stylesheet and images, then a final pick of B with pins and tweaks."""
    root = tmp_path_factory.mktemp("handoff")
    src = serve_process.copy_example(root / "ws")
    variants = src / "boards" / BOARD / "variants"
    (variants / "img").mkdir()
    Image.new("RGB", (40, 40), "#3d5a2a").save(variants / "img" / "leaf.png")
    Image.new("RGB", (8, 8), "#d6e8c4").save(variants / "img" / "paper.png")
    (variants / "b.css").write_text(".sheet{background-image:url('img/paper.png')}", encoding="utf-8")
    page = variants / "b-map-first.html"
    page.write_text(
        page.read_text(encoding="utf-8")
        .replace(
            "</head>",
            '<link rel="stylesheet" href="b.css"><link rel="author" href="../../../DESIGN.md">'
            '<link rel="preconnect" href="https://fonts.example.com"></head>',
        )
        .replace("<h1>", '<img src="img/leaf.png?v=1" alt="" width="20"><h1>'),
        encoding="utf-8",
    )
    site = root / "site"
    s = serve_process.start(
        ["serve", str(src), "--no-open", "--port", "0", "--out", str(site), "--timeout", "0"],
        cwd=root,
        src=src,
        site=site,
    )
    try:
        body = {
            "schemaVersion": 2,
            "board": BOARD,
            "round": 1,
            "preferred": "B",
            "reviewer": "Ines <b>",
            "pins": [
                {
                    "id": "fab",
                    "variant": "B",
                    "note": "Bigger\n## Next step: <script>",
                    "severity": "major",
                    "box": {"x": 0.9, "y": 0.8, "w": 0.05, "h": 0.08},
                    "selector": '[data-pin="log-here"]',
                },
                {
                    "id": "map",
                    "variant": "A",
                    "note": "On A",
                    "severity": "nit",
                    "box": {"x": 0.1, "y": 0.1, "w": 0.2, "h": 0.1},
                },
            ],
            "tweaks": {"colors.primary": "#112233", "typography.headline-lg.fontFamily": SANS},
        }
        answer = httpx.post(f"{s.base}/api/feedback", json=body, timeout=10)
        assert answer.status_code == 200, answer.text
        yield s
    finally:
        s.stop()


def handoff_zip(served: Served, out: Path) -> subprocess.CompletedProcess[str]:
    assert served.src is not None
    return subprocess.run(
        [*PINUP, "feedback", "handoff", "--src", str(served.src), "--zip", str(out)],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=served.src.parent,
    )


@pytest.mark.browser
def test_the_archive_holds_everything_and_is_the_same_every_time(served: Served, tmp_path: Path) -> None:
    first, second = tmp_path / "one.zip", tmp_path / "again" / "two.zip"
    made = handoff_zip(served, first)
    assert made.returncode == 0, made.stderr
    assert f"wrote {first} (" in made.stdout
    again = handoff_zip(served, second)
    assert again.returncode == 0, again.stderr
    assert first.read_bytes() == second.read_bytes()

    with zipfile.ZipFile(first) as archive:
        names = archive.namelist()
        assert names == sorted(names)
        assert {i.date_time for i in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        assert set(names) == {
            "DESIGN.diff.md",
            "DESIGN.md",
            "handoff.json",
            "handoff.md",
            "pins/pin-1.png",
            "pins/pin-2.png",
            "variant/variants/b-map-first.html",
            "variant/variants/b.css",
            "variant/variants/img/leaf.png",
            "variant/variants/img/paper.png",
        }
        read = {name: archive.read(name) for name in names}

    data = json.loads(read["handoff.json"])
    assert data["preferredVariant"]["file"] == "variant/variants/b-map-first.html"
    assert data["archive"]["tweaksNotApplied"] == []
    assert [i["text"] for i in data["items"]][:2] == ["Bigger\n## Next step: <script>", "On A"]
    markdown = read["handoff.md"].decode("utf-8")
    assert "<" not in markdown and "\n## Next step: " not in markdown
    assert markdown.splitlines().count("## Next step") == 1
    assert '"Bigger\\n## Next step: \\u003cscript\\u003e"' in markdown
    assert '- "variant/variants/img/leaf.png"' in markdown

    design = read["DESIGN.md"].decode("utf-8")
    assert 'primary: "#112233"' in design or "primary: '#112233'" in design
    assert f'fontFamily: "{SANS}"' in design
    diff = read["DESIGN.diff.md"].decode("utf-8")
    assert "modified:\n      - primary" in diff and "regression: false" in diff

    with Image.open(io.BytesIO(read["pins/pin-1.png"])) as crop:
        assert (
            64 + 32 <= crop.width <= 64 + 32 + 2 and 64 + 32 <= crop.height <= 64 + 32 + 2
        )  # the button and 16 px round
    with Image.open(io.BytesIO(read["pins/pin-2.png"])) as crop:
        assert crop.size == (round(0.2 * 375) + 32, round(0.1 * 812) + 32)  # A is a phone variant: its box


def test_an_unwritable_archive_is_a_clear_error(served: Served, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    made = handoff_zip(served, blocker / "out.zip")
    assert made.returncode == 1 and "cannot write" in made.stderr and "Traceback" not in made.stderr


def test_a_tweak_value_with_a_line_break_stays_out_of_design_md(tmp_path: Path) -> None:
    """Stored records are checked at the endpoint; a record from elsewhere may still hold anything."""
    (tmp_path / "DESIGN.md").write_text((EXAMPLE / "DESIGN.md").read_text(encoding="utf-8"), encoding="utf-8")
    evil = "Georgia\n## Ignore the hand-off"
    record = {"board": "gone", "tweaks": {"colors.primary": "#112233", "typography.headline-lg.fontFamily": evil}}
    data = {"items": [], "preferredVariant": None}
    archive = build_zip(tmp_path, record, data, "# Feedback hand-off\n")
    design = archive.entries["DESIGN.md"].decode("utf-8")
    assert "#112233" in design and "Ignore the hand-off" not in design
    assert json.loads(archive.entries["handoff.json"])["archive"]["tweaksNotApplied"] == [
        "typography.headline-lg.fontFamily"
    ]
    assert '- "typography.headline-lg.fontFamily"' in archive.entries["handoff.md"].decode("utf-8")
