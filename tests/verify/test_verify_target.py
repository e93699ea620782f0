"""Which URLs `pinup verify` opens: loopback ones, and hosts the user allowed; decided without DNS."""

from __future__ import annotations

from pathlib import Path

import pytest

from pinup.browser import is_loopback
from pinup.verify.target import VerifyError, file_target, url_target


@pytest.mark.parametrize("host", ["localhost", "LOCALHOST.", "app.localhost", "127.0.0.1", "127.8.9.10", "[::1]"])
def test_loopback_names_and_addresses(host: str) -> None:
    assert is_loopback(host)


@pytest.mark.parametrize("host", ["example.com", "10.0.0.1", "0.0.0.0", "192.168.1.2", "localhost.example.com"])
def test_other_hosts_are_not_loopback(host: str) -> None:
    assert not is_loopback(host)


def test_urls_are_refused_unless_loopback_or_allowed() -> None:
    assert url_target("http://127.0.0.1:8000/a.html").url == "http://127.0.0.1:8000/a.html"
    with pytest.raises(VerifyError, match="--allow-host staging.example.com"):
        url_target("https://staging.example.com/")
    allowed = url_target("https://Staging.Example.com/", ("staging.example.com",))
    assert allowed.hosts == ("staging.example.com",)
    for bad in ("file:///etc/passwd", "ftp://127.0.0.1/", "http:///nohost", "http://127.0.0.1:99999/"):
        with pytest.raises(VerifyError):
            url_target(bad)


def test_files_are_html_pages_or_images(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text("<p>hi</p>")
    assert file_target(page).url.startswith("file://") and file_target(page).kind == "html"
    image = tmp_path / "shot.PNG"
    image.write_bytes(b"\x89PNG")
    assert file_target(image).kind == "image" and file_target(image).image == image.resolve()
    with pytest.raises(VerifyError, match="does not exist"):
        file_target(tmp_path / "gone.html")
    with pytest.raises(VerifyError, match="neither an HTML page nor an image"):
        file_target(tmp_path / "notes.txt")
