"""The page's own files: the Devanagari web font (issue 19 item 3) is part of the package
and served with the page, with its licence; nothing is fetched from elsewhere."""

from __future__ import annotations

import re
from importlib import resources

from fastapi.testclient import TestClient

FONTS = [
    "noto-sans-devanagari-devanagari-400-normal.woff2",
    "noto-sans-devanagari-devanagari-700-normal.woff2",
]


def test_the_devanagari_font_is_in_the_package_with_its_licence() -> None:
    fonts = resources.files("hukum.server") / "static" / "fonts"
    for name in FONTS:
        assert (fonts / name).read_bytes()[:4] == b"wOF2"
    assert "SIL OPEN FONT LICENSE Version 1.1" in (fonts / "OFL.txt").read_text()


def test_the_stylesheet_uses_the_served_font(client: TestClient) -> None:
    css = client.get("/static/style.css").text
    urls = re.findall(r'url\("([^"]+)"\)', css)
    assert sorted(urls) == sorted(f"fonts/{name}" for name in FONTS)  # no CDN
    for name in FONTS:
        r = client.get(f"/static/fonts/{name}")
        assert r.status_code == 200
        assert r.headers["content-type"] == "font/woff2"
    page = client.get("/").text
    for name in FONTS:  # loaded at once, before the first Hindi text is drawn
        assert f'href="/static/fonts/{name}"' in page
