"""Render the web app's PNG icons (static/icons/, named in static/manifest.webmanifest)
from static/favicon.svg with Debian's chromium, the browser the tests drive, so that the
icons are the favicon and nothing else draws them:

    .venv/bin/python scripts/icons.py

- ``icon-192.png``, ``icon-512.png``: the card on a transparent ground (``"any"``);
- ``icon-maskable-512.png``: the card inside the middle 60 % on the header's colour, so
  that a phone's mask (a circle, a squircle) never cuts it (``"maskable"``);
- ``apple-touch-icon.png`` (180 px): the card on the page's paper colour (iOS fills a
  transparent ground with black).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parents[1] / "src" / "hukum" / "server" / "static"
ACCENT = "#7a1f2b"  # style.css --accent: the header, the manifest's theme_color
PAPER = "#fbf8f1"  # style.css --paper: the page, the manifest's background_color

#: Each icon: its file, its size in pixels, its ground and how much of it the card fills.
ICONS = [
    ("icon-192.png", 192, None, 1.0),
    ("icon-512.png", 512, None, 1.0),
    ("icon-maskable-512.png", 512, ACCENT, 0.6),
    ("apple-touch-icon.png", 180, PAPER, 0.8),
]


def page_html(svg: str, size: int, ground: str | None, share: float) -> str:
    """A page of exactly ``size`` pixels with the favicon centred on ``ground``."""
    card = round(size * share)
    background = ground or "transparent"
    return f"""<!doctype html><style>
html, body {{ margin: 0; width: {size}px; height: {size}px; background: {background}; }}
body {{ display: flex; align-items: center; justify-content: center; }}
svg {{ width: {card}px; height: {card}px; display: block; }}
</style>{svg}"""


def main() -> None:
    svg = (STATIC / "favicon.svg").read_text()
    out = STATIC / "icons"
    out.mkdir(exist_ok=True)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for name, size, ground, share in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(page_html(svg, size, ground, share))
            page.screenshot(path=str(out / name), omit_background=ground is None)
            page.close()
            print(out / name)
        browser.close()


if __name__ == "__main__":
    main()
