"""Renders the site's app icons (static/img/icons/*.png) from their SVG sources with the same Chromium the
browser tests drive, so the PNGs are exact renders of the committed drawings:

    .venv/bin/python -m tests.browser.render_icons

Not a test: run it after changing icon.svg or icon-maskable.svg, and commit the PNGs with them."""

from __future__ import annotations

from pathlib import Path

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, ROOT

ICONS = ROOT / "static" / "img" / "icons"

#: (source, size in px, output). The maskable drawing fills the square: phones cut their own shape
#: out of it (and iOS rounds the corners of the apple-touch icon itself).
RENDERS = [
    ("icon.svg", 192, "icon-192.png"),
    ("icon.svg", 512, "icon-512.png"),
    ("icon-maskable.svg", 512, "icon-maskable-512.png"),
    ("icon-maskable.svg", 180, "apple-touch-icon.png"),
]


def render() -> list[Path]:
    from playwright.sync_api import sync_playwright

    written = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        for source, size, output in RENDERS:
            page = browser.new_page(viewport={"width": size, "height": size})
            svg = (ICONS / source).read_text()
            page.set_content(
                f'<html><body style="margin:0;background:transparent">'
                f'<img src="data:image/svg+xml;base64,{_base64(svg)}" width="{size}" height="{size}"></body></html>'
            )
            page.locator("img").evaluate("img => img.decode()")
            path = ICONS / output
            page.screenshot(path=str(path), omit_background=True, clip={"x": 0, "y": 0, "width": size, "height": size})
            written.append(path)
            page.close()
        browser.close()
    return written


def _base64(text: str) -> str:
    import base64

    return base64.b64encode(text.encode()).decode()


if __name__ == "__main__":
    for path in render():
        print(path.relative_to(ROOT))
