from __future__ import annotations

import functools
import importlib.util
import json
import os
import runpy
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jinja2
import jinja2.bccache
import jsonschema
import pytest
from bs4 import BeautifulSoup
from sphinx import locale
from sphinx.cmd.build import build_main
from sphinx.jinja2glue import BuiltinTemplateLoader
from sphinx.testing.util import SphinxTestApp

from reprodocs.base.vocabulary import JSON_NAME
from reprodocs.notes.nondeterministic_ops import JSON_SCHEMA

pytest_plugins = ["sphinx.testing.fixtures"]

if not hasattr(SphinxTestApp, "warning"):
    # Sphinx 7.2's test application keeps its streams as the private _status
    # and _warning (7.3 made them the public status and warning the tests use).
    SphinxTestApp.status = property(lambda app: app._status)
    SphinxTestApp.warning = property(lambda app: app._warning)

    _cleanup = SphinxTestApp.cleanup

    def _cleanup_once(app: SphinxTestApp, doctrees: bool = False) -> None:
        # Sphinx 7.2's cleanup puts back the very dict of directives it saved,
        # not a copy: an app cleaned up twice (by a test that starts a second
        # app, then by make_app) brings back what later apps registered, and
        # every later test's apps warn "already registered".
        if not getattr(app, "_cleaned_up", False):
            app._cleaned_up = True
            _cleanup(app, doctrees)

    SphinxTestApp.cleanup = _cleanup_once


class SharedTemplateCode(jinja2.BytecodeCache):
    """Jinja's compiled templates, shared by every Sphinx application of the
    test session. Sphinx gives each application a template environment
    without a bytecode cache, so each compiles every template it renders
    anew: a fifth of the time of a test that builds a small site. Jinja keys
    a cache by the template's name and file and checks the source's
    checksum, so an edited template is compiled again; Sphinx's environments
    are configured alike, so one's code is another's."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if (code := self.code.get(bucket.key)) is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


@pytest.fixture(autouse=True, scope="session")
def shared_template_code() -> Iterator[None]:
    """Every Sphinx template environment of the session (made in
    ``BuiltinTemplateLoader.init``) with one :class:`SharedTemplateCode`."""
    cache = SharedTemplateCode()
    init = BuiltinTemplateLoader.init

    def init_with_shared_code(self, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        self.environment.bytecode_cache = cache

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(BuiltinTemplateLoader, "init", init_with_shared_code)
        yield


#: The paragraph of PyTorch 1.4's cuda_deterministic_backward.html, whitespace collapsed.
BACKWARD_TEXT = (
    "When using the CUDA backend, this operation may induce nondeterministic "
    "behaviour in its backward pass that is not easily switched off. "
    "Please see the notes on Reproducibility for background."
)


DEMO = Path(__file__).parents[1] / "demo"
DOCS = Path(__file__).parents[1] / "docs"

#: The settings demo/pytorch2/conf.py makes to set pytorch_sphinx_theme2 up.
PYTORCH2_SETTINGS = (
    "html_theme",
    "html_theme_path",
    "templates_path",
    "html_theme_options",
    "html_context",
)


def examples(number: int) -> int:
    """How many examples a property test generates: *number*; a third of
    it where ``REPRODOCS_FEWER_EXAMPLES`` is set, as the Makefile's
    ``test-sphinx-X`` targets set it for the lines between the oldest and
    the newest Sphinx (each example is a whole site built; the full lines,
    7.2.6, 9.0 and 9.1, generate them all)."""
    return max(1, number // 3) if os.environ.get("REPRODOCS_FEWER_EXAMPLES") else number


def require_nvidia_sphinx_theme() -> None:
    """Megatron-LM's theme is under NVIDIA's own licence, so it is an extra
    of its own (``nvidia``), which the Makefile's venvs install: without it
    the test is skipped, loudly."""
    if importlib.util.find_spec("nvidia_sphinx_theme") is None:
        pytest.skip(
            "NOT CHECKED: nvidia-sphinx-theme is not installed (its licence is NVIDIA's); "
            "the `nvidia` extra installs it, as the Makefile's venvs do"
        )


def require_pytorch_sphinx_theme2() -> None:
    """The theme pins Sphinx <= 7.2.6, so it is installed in the 7.2.6 line's
    venv alone (.venv-sphinx72: ``make test-sphinx72``, ``make
    test-pytorch2``): elsewhere the test is skipped, loudly, and with
    REPRODOCS_REQUIRE_PYTORCH2=1 (as that line sets) it fails."""
    if importlib.util.find_spec("pytorch_sphinx_theme2") is None:
        message = "pytorch_sphinx_theme2 is not installed; `make test-sphinx72` installs it"
        if os.environ.get("REPRODOCS_REQUIRE_PYTORCH2") == "1":
            pytest.fail(f"REPRODOCS_REQUIRE_PYTORCH2=1 but {message}")
        pytest.skip(f"NOT CHECKED: {message}")


def pytorch_sphinx_theme2_settings() -> dict[str, Any]:
    """pytorch_sphinx_theme2 set up as demo/pytorch2/conf.py (and so the
    theme's own guide) sets it up."""
    require_pytorch_sphinx_theme2()
    conf = runpy.run_path(str(DEMO / "pytorch2" / "conf.py"))
    return {name: conf[name] for name in PYTORCH2_SETTINGS}


@pytest.fixture(scope="session")
def rootdir() -> Path:
    return Path(__file__).parent / "roots"


@pytest.fixture(scope="session")
def build_demo(tmp_path_factory):
    """The demo site built as `make demo` builds it (nitpicky, warnings are
    errors, dates from SOURCE_DATE_EPOCH), once per session for each set of
    ``-D name=value`` overrides and configuration directory (``confdir``:
    demo/pytorch2 builds it inside pytorch_sphinx_theme2); ``again=True``
    builds it once more beside the first. Returns its HTML directory."""
    built: dict[tuple[tuple[str, ...], Path, bool], Path] = {}

    def build(*overrides: str, confdir: Path = DEMO, again: bool = False) -> Path:
        key = (overrides, confdir, again)
        if key not in built:
            out = tmp_path_factory.mktemp("demo")
            options = [argument for override in overrides for argument in ("-D", override)]
            arguments = ["-W", "-n", "-q", "-b", "html", "-c", str(confdir), *options]
            arguments += ["-d", str(out / "doctrees"), str(DEMO), str(out / "html")]
            try:
                with pytest.MonkeyPatch.context() as patch:
                    # A date in 2019, the demo's copyright year (which
                    # Sphinx 7.2 would otherwise replace with this one's).
                    patch.setenv("SOURCE_DATE_EPOCH", "1570000000")
                    assert build_main(arguments) == 0
            finally:
                # Sphinx keeps each catalog's translator for the process and
                # only adds fallbacks to it: a build in zh_CN would translate
                # every later build of the session (sphinx.testing clears it
                # after each test app; build_main does not).
                locale.translators.clear()
            built[key] = out / "html"
        return built[key]

    return build


@pytest.fixture(scope="session")
def docs_html(tmp_path_factory) -> Path:
    """reprodocs' own documentation (docs/), built once per session as
    `make docs` builds it (nitpicky, warnings are errors)."""
    out = tmp_path_factory.mktemp("docs")
    arguments = ["-W", "-n", "-q", "-b", "html", "-d", str(out / "doctrees")]
    assert build_main([*arguments, str(DOCS), str(out / "html")]) == 0
    return out / "html"


@pytest.fixture
def make_app(make_app):
    """Sphinx's make_app, with every nondeterministic.json the test's builds
    wrote checked against the schema shipped in the package."""
    outdirs: dict[Path, None] = {}  # in order, once each; not the apps, which hold a lot

    def make(*args, **kwargs):
        app = make_app(*args, **kwargs)
        outdirs[Path(app.outdir)] = None
        return app

    yield make
    for outdir in outdirs:
        if (outdir / JSON_NAME).is_file():
            exported_index(outdir)


@functools.cache
def index_validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(JSON_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def exported_index(outdir: Path) -> dict[str, Any]:
    """The nondeterministic.json of a build, valid against its JSON Schema."""
    document = json.loads((outdir / JSON_NAME).read_text(encoding="utf-8"))
    index_validator().validate(document)
    return document


@pytest.fixture
def notes_project(rootdir, tmp_path) -> Path:
    """A copy of the notes test root, for tests that edit it or need an
    environment of their own."""
    shutil.copytree(rootdir / "test-notes", tmp_path / "src")
    return tmp_path / "src"


@pytest.fixture
def build_notes(make_app, notes_project):
    """Build the copy of the notes test root from scratch with a builder (and
    configuration overrides); return the application."""

    def build(builder: str = "html", **confoverrides):
        app = make_app(builder, srcdir=notes_project, freshenv=True, confoverrides=confoverrides)
        app.build()
        return app

    return build


@pytest.fixture
def registry_project(rootdir, tmp_path) -> Path:
    """A copy of the registry test root (notes saying what deterministic
    mode does, and the lists of them), for tests that edit it."""
    shutil.copytree(rootdir / "test-registry", tmp_path / "src")
    return tmp_path / "src"


@pytest.fixture
def build_registry(make_app, registry_project):
    """Build the copy of the registry test root from scratch, as build_notes."""

    def build(builder: str = "html", **confoverrides):
        app = make_app(builder, srcdir=registry_project, freshenv=True, confoverrides=confoverrides)
        app.build()
        return app

    return build


def parse_html(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "lxml")


def text_of(element) -> str:
    """An element's text with whitespace collapsed, as a reader sees it."""
    return " ".join(element.get_text(" ").split()).replace(" .", ".")


def notes_in(soup: BeautifulSoup) -> list:
    return soup.select("div.admonition.note")


def note_paragraph(note):
    """The note's first paragraph after its title: its wording."""
    return note.select("p")[1]


def note_wording(note) -> str:
    """The note's wording as a reader sees it."""
    return " ".join(note_paragraph(note).get_text().split())


def lists(soup) -> list:
    """The ``nondeterministic-ops`` lists of a page."""
    return soup.select("ul.nondeterministic-ops")


def items(bullet_list) -> list[str]:
    """The list's items as a reader sees them."""
    return [
        " ".join(item.get_text().split()) for item in bullet_list.find_all("li", recursive=False)
    ]


def html_mtimes(outdir: Path) -> dict[str, int]:
    """When each HTML page of *outdir* was written."""
    return {str(p.relative_to(outdir)): p.stat().st_mtime_ns for p in outdir.rglob("*.html")}


RANDOMNESS_RST = "Reproducibility\n===============\n\nSeeds and flags.\n"


@pytest.fixture
def build_page(make_app, tmp_path):
    """Build a one-page project whose index.rst is *body* (after a title and a
    toctree to the Reproducibility page); return the app."""

    def build(body: str, builder: str = "html", **kwargs):
        srcdir = write_page_project(tmp_path / "src", body)
        app = make_app(builder, srcdir=srcdir, freshenv=True, **kwargs)
        app.build()
        return app

    return build


@pytest.fixture
def rebuild_page(make_app, tmp_path):
    """Like build_page, but every call rebuilds one application incrementally
    (for many examples in one test); warnings are those of the last build."""
    app = None

    def rebuild(body: str):
        nonlocal app
        srcdir = write_page_project(tmp_path / "src", body)
        if app is None:
            app = make_app("html", srcdir=srcdir, freshenv=True)
        app.warning.seek(0)
        app.warning.truncate()
        app.build()
        return app

    return rebuild


def write_page_project(srcdir: Path, body: str) -> Path:
    (srcdir / "notes").mkdir(parents=True, exist_ok=True)
    (srcdir / "conf.py").write_text('extensions = ["reprodocs"]\n', encoding="utf-8")
    (srcdir / "notes" / "randomness.rst").write_text(RANDOMNESS_RST, encoding="utf-8")
    (srcdir / "index.rst").write_text(
        "Page\n====\n\n.. toctree::\n\n   notes/randomness\n\n" + body, encoding="utf-8"
    )
    return srcdir


REPO = Path(__file__).parents[1]


def build_package(target: str, out: Path) -> Path:
    """Build the wheel or the sdist into *out* with hatchling from the test
    extra, as pip would but without downloading an isolated build environment."""
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", target, "-d", str(out)],
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    (package,) = out.iterdir()
    return package


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    """The project's wheel, built once per test run."""
    return build_package("wheel", tmp_path_factory.mktemp("wheel"))


@pytest.fixture(scope="session")
def sdist(tmp_path_factory) -> Path:
    """The project's source distribution, built once per test run."""
    return build_package("sdist", tmp_path_factory.mktemp("sdist"))


@pytest.fixture
def installed_wheel(wheel, tmp_path) -> Path:
    """A directory holding the wheel installed (alone): reprodocs as users get
    it, for sphinx_build_with."""
    target = tmp_path / "site"
    install = ["install", "--quiet", "--no-deps", "--target", str(target), str(wheel)]
    subprocess.run([sys.executable, "-m", "pip", *install], check=True)
    return target


def sphinx_build_with(site: Path, *args: str) -> subprocess.CompletedProcess:
    """``sphinx-build -q -b html *args`` in a new process importing reprodocs
    from *site* (PYTHONPATH comes before the editable install)."""
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", "html", *args],
        env={"PYTHONPATH": str(site)},
        check=False,  # callers assert on the status, showing stderr
        capture_output=True,
        text=True,
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tests first (the browser's and the package's take longest): with
    pytest-xdist's workers (``make test`` runs ``-n auto``), the last test
    file handed out is then a short one, and the workers finish together.
    The sort is stable: within each group, the order of collection."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
