"""The page's own files: the Devanagari web font (issue 19 item 3) and the Gurmukhi one
(issue 41, Punjabi) are part of the package and served with the page, with their licence;
nothing is fetched from elsewhere."""

from __future__ import annotations

import re
from importlib import resources

from fastapi.testclient import TestClient

FONTS = [
    "noto-sans-devanagari-devanagari-400-normal.woff2",
    "noto-sans-devanagari-devanagari-700-normal.woff2",
    "noto-sans-gurmukhi-gurmukhi-400-normal.woff2",
    "noto-sans-gurmukhi-gurmukhi-700-normal.woff2",
]


def test_the_fonts_are_in_the_package_with_their_licence() -> None:
    fonts = resources.files("hukum.server") / "static" / "fonts"
    for name in FONTS:
        assert (fonts / name).read_bytes()[:4] == b"wOF2"
    licence = (fonts / "OFL.txt").read_text()
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    for script in ("devanagari", "gurmukhi"):
        assert f"The Noto Project Authors (https://github.com/notofonts/{script})" in licence


def test_the_stylesheet_uses_the_served_font(client: TestClient) -> None:
    css = client.get("/static/style.css").text
    urls = re.findall(r'url\("([^"]+)"\)', css)
    assert sorted(urls) == sorted(f"fonts/{name}" for name in FONTS)  # no CDN
    for name in FONTS:
        r = client.get(f"/static/fonts/{name}")
        assert r.status_code == 200
        assert r.headers["content-type"] == "font/woff2"
    page = client.get("/").text
    for name in FONTS:  # loaded at once, before the first Hindi or Punjabi text is drawn
        assert f'href="/static/fonts/{name}"' in page
