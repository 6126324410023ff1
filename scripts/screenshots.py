"""Screenshots of the demo's note page in the reprodocs theme, for the docs (docs/images).

    .venv/bin/python scripts/screenshots.py [BUILD_DIR [ZH_CN_BUILD_DIR]]

BUILD_DIR is a built demo (default: build/html, as ``make demo`` leaves it);
ZH_CN_BUILD_DIR the demo built with ``language = "zh_CN"`` (default:
build/html-zh_CN, as ``make screenshots`` leaves it). Uses the system's
Chromium (``apt-get install chromium``; the zh_CN picture needs a Chinese
font too: ``fonts-noto-cjk``); Playwright never downloads a browser here.
Writes docs/images/note-{desktop,mobile,dark,zh_CN}.png.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))  # the browser and server the tests use

from served import CHROMIUM, CHROMIUM_ARGS, serve

IMAGES = REPO / "docs" / "images"
PAGE = "cuda_deterministic_backward.html"
#: name: (viewport width, height, colour scheme, whole page)
SHOTS = {
    "note-desktop": (1280, 900, "light", True),
    "note-dark": (1280, 900, "dark", False),
    "note-mobile": (375, 812, "light", True),
}
#: The same, of the demo built in Simplified Chinese: the theme's own words.
SHOTS_ZH_CN = {"note-zh_CN": (1280, 900, "light", False)}


def main(sites: dict[Path, dict[str, tuple[int, int, str, bool]]]) -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for site, shots in sites.items():
            with serve(site) as address:
                for name, (width, height, scheme, full_page) in shots.items():
                    page = browser.new_page(
                        viewport={"width": width, "height": height}, color_scheme=scheme
                    )
                    page.goto(f"{address}{PAGE}", wait_until="networkidle")
                    page.screenshot(path=IMAGES / f"{name}.png", full_page=full_page)
                    page.close()
                    print(IMAGES / f"{name}.png")
        browser.close()


if __name__ == "__main__":
    arguments = [*sys.argv[1:], None, None]
    main(
        {
            Path(arguments[0] or REPO / "build" / "html"): SHOTS,
            Path(arguments[1] or REPO / "build" / "html-zh_CN"): SHOTS_ZH_CN,
        }
    )
