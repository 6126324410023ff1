from __future__ import annotations

import functools
import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from bs4 import BeautifulSoup

from reprodocs.index import JSON_NAME, JSON_SCHEMA

pytest_plugins = ["sphinx.testing.fixtures"]

#: The paragraph of PyTorch 1.4's cuda_deterministic_backward.html, whitespace collapsed.
BACKWARD_TEXT = (
    "When using the CUDA backend, this operation may induce nondeterministic "
    "behaviour in its backward pass that is not easily switched off. "
    "Please see the notes on Reproducibility for background."
)


@pytest.fixture(scope="session")
def rootdir() -> Path:
    return Path(__file__).parent / "roots"


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


def parse_html(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "lxml")


def text_of(element) -> str:
    """An element's text with whitespace collapsed, as a reader sees it."""
    return " ".join(element.get_text(" ").split()).replace(" .", ".")


def notes_in(soup: BeautifulSoup) -> list:
    return soup.select("div.admonition.note")


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
