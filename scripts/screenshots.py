"""Screenshots of the demo's note page in the reprodocs theme, for the docs (docs/images).

    .venv/bin/python scripts/screenshots.py [BUILD_DIR]

BUILD_DIR is a built demo (default: build/html, as ``make demo`` leaves it).
Uses the system's Chromium (``apt-get install chromium``); Playwright never
downloads a browser here. Writes docs/images/note-{desktop,mobile,dark}.png.
"""

from __future__ import annotations

import functools
import http.server
import sys
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parents[1]
IMAGES = REPO / "docs" / "images"
PAGE = "cuda_deterministic_backward.html"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: name: (viewport width, height, colour scheme, whole page)
SHOTS = {
    "note-desktop": (1280, 900, "light", True),
    "note-dark": (1280, 900, "dark", False),
    "note-mobile": (375, 812, "light", True),
}


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


def main(site: Path) -> None:
    handler = functools.partial(QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    IMAGES.mkdir(parents=True, exist_ok=True)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for name, (width, height, scheme, full_page) in SHOTS.items():
                page = browser.new_page(
                    viewport={"width": width, "height": height}, color_scheme=scheme
                )
                page.goto(f"http://127.0.0.1:{server.server_port}/{PAGE}", wait_until="networkidle")
                page.screenshot(path=IMAGES / f"{name}.png", full_page=full_page)
                page.close()
                print(IMAGES / f"{name}.png")
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else REPO / "build" / "html"))
