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


def at_rules_not_at_the_top(css: str) -> list[str]:
    """The ``@media``/``@font-face``/… rules of a stylesheet that are not at its top level
    (a brace left open before one puts every later rule inside it), and an unbalanced end."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    found: list[str] = []
    depth = 0
    for match in re.finditer(r"[{}]|@[a-z-]+[^{;]*", css):
        token = match.group(0)
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
            if depth < 0:
                found.append("a '}' closes nothing")
                depth = 0
        elif depth:
            found.append(token.strip())
    if depth:
        found.append(f"{depth} brace(s) left open at the end")
    return found


def test_the_stylesheet_closes_every_block() -> None:
    css = resources.files("hukum.server").joinpath("static", "style.css").read_text("utf-8")
    assert at_rules_not_at_the_top(css) == []
    broken = "@media (max-width: 480px) {\n  a { b: c; }\n\n@media (min-width: 9px) { d {} }\n"
    assert at_rules_not_at_the_top(broken) == [
        "@media (min-width: 9px)",
        "1 brace(s) left open at the end",
    ]
