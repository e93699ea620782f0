"""Regenerate the screenshots on docs/site.md: `python docs/img/screens/shoot.py` (needs Chromium).

The example and three brands, at 375, 768 and 1440 px, light and dark: the first
screen of the overview page, as small JPEGs; and the colors and components pages
of the example and Spotify at 1440 px, in their default theme.
"""

from __future__ import annotations

import io
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SITES = {
    "example": ROOT / "site_src",
    "spotify": ROOT / "brand_refs" / "spotify",
    "stripe": ROOT / "brand_refs" / "stripe",
    "ferrari": ROOT / "brand_refs" / "ferrari",
}
WIDTHS = {375: 760, 768: 900, 1440: 900}
PAGES = ("colors", "components")


def main() -> None:
    from PIL import Image
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT / "generator"))
    from pinup.build import BuildOptions, build_all

    out_dir = Path(__file__).resolve().parent
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        for slug, src in SITES.items():
            site = Path(tmp) / slug
            build_all(BuildOptions(src=src, out=site))
            for theme in ("light", "dark"):
                for width, height in WIDTHS.items():
                    context = browser.new_context(viewport={"width": width, "height": height})
                    context.add_init_script(f"localStorage.setItem('pinup-theme', '{theme}')")
                    page = context.new_page()
                    page.goto((site / "index.html").as_uri())
                    png = page.screenshot()
                    context.close()
                    image = Image.open(io.BytesIO(png)).convert("RGB")
                    if width == 1440:
                        image = image.resize((1080, round(height * 1080 / 1440)), Image.LANCZOS)
                    image.save(out_dir / f"{slug}-{theme}-{width}.jpg", quality=72, optimize=True)
            if slug in ("example", "spotify"):
                page = browser.new_page(viewport={"width": 1440, "height": 1200})
                for name in PAGES:
                    page.goto((site / f"{name}.html").as_uri())
                    image = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
                    image = image.resize((1080, 900), Image.LANCZOS)
                    image.save(out_dir / f"{slug}-{name}-1440.jpg", quality=72, optimize=True)
                page.close()
        browser.close()


if __name__ == "__main__":
    main()
