"""The package as users get it: its catalogs, its types, its wheel and its sdist."""

from __future__ import annotations

import email
import os
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

import reprodocs
from conftest import REPO, sphinx_build_with
from reprodocs.notes import ENV_VERSION

LOCALE = REPO / "src" / "reprodocs" / "locale"


#: The keywords of `make catalog` (Makefile): the code's _ and __, the
#: templates' trans blocks (gettext) and the theme's reprodocs_gettext.
KEYWORDS = {"_": None, "__": None, "gettext": None, "reprodocs_gettext": None}


def source_messages() -> set[str]:
    """Every translatable string of the code and the templates, found as
    `make catalog` finds them (babel.cfg)."""
    with (REPO / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    messages = set()
    for directory in (REPO / "src", REPO / "templates"):
        for *_, message, _, _ in extract_from_dir(directory, method_map, options_map, KEYWORDS):
            messages.add(message)
    return messages


def test_every_message_is_translated_to_zh_cn():
    with (LOCALE / "zh_CN" / "LC_MESSAGES" / "reprodocs.po").open("rb") as po:
        catalog = read_po(po)
    translated = {m.id for m in catalog if m.id and m.string and not m.fuzzy}
    assert source_messages() <= translated
    assert source_messages() == {m.id for m in catalog if m.id}, "stale messages: run make catalog"


def test_compiled_catalog_matches_its_source():
    lc_messages = LOCALE / "zh_CN" / "LC_MESSAGES"
    with (
        (lc_messages / "reprodocs.po").open("rb") as po,
        (lc_messages / "reprodocs.mo").open("rb") as mo,
    ):
        source, compiled = read_po(po), read_mo(mo)
    assert {m.id: m.string for m in source if m.id} == {m.id: m.string for m in compiled if m.id}


def test_setup_metadata(make_app, tmp_path):
    (tmp_path / "conf.py").write_text('extensions = ["reprodocs"]\n')
    (tmp_path / "index.rst").write_text("Index\n=====\n")
    app = make_app("html", srcdir=tmp_path)
    extension = app.extensions["reprodocs"]
    assert extension.version == reprodocs.__version__
    assert extension.parallel_read_safe is True
    assert extension.parallel_write_safe is True
    assert app.registry.get_envversion(app)["reprodocs"] == ENV_VERSION


@pytest.mark.slow
def test_wheel_carries_templates_and_catalogs(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "reprodocs/templates/reprodocs/wording/pytorch-1.4.rst" in names
    assert "reprodocs/templates/reprodocs/wording/pytorch-2.rst" in names
    assert "reprodocs/locale/zh_CN/LC_MESSAGES/reprodocs.mo" in names
    assert "reprodocs/py.typed" in names
    assert "reprodocs/notes/nondeterministic.schema.json" in names


def wheel_metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as archive:
        (name,) = (n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        return email.message_from_bytes(archive.read(name))


def test_wheel_metadata(wheel):
    metadata = wheel_metadata(wheel)
    assert metadata["License-Expression"] == "BSD-3-Clause"
    classifiers = set(metadata.get_all("Classifier"))
    assert {f"Programming Language :: Python :: 3.{minor}" for minor in (11, 12, 13)} <= classifiers
    assert "Typing :: Typed" in classifiers
    urls = dict(url.split(", ", 1) for url in metadata.get_all("Project-URL"))
    assert {"Documentation", "Source", "Issues", "Changelog"} <= urls.keys()


def test_license_in_wheel_and_sdist(wheel, sdist):
    license_text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert license_text.startswith("BSD 3-Clause License")
    assert "Copyright (c) 2026, reprodocs contributors" in license_text
    with zipfile.ZipFile(wheel) as archive:
        (name,) = (n for n in archive.namelist() if n.endswith(".dist-info/licenses/LICENSE"))
        assert archive.read(name).decode() == license_text
    assert {"LICENSE", "CHANGELOG.md", "README.md", "pyproject.toml"} <= sdist_names(sdist)


def test_public_api_type_checks():
    """py.typed promises types: every module of the package passes mypy --strict."""
    check = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.parametrize("command", [["check"], ["format", "--check"]])
def test_code_follows_the_project_style(command):
    """What [tool.ruff] asks: lint rules, and one formatting."""
    check = subprocess.run(
        [sys.executable, "-m", "ruff", *command, "."],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stdout + check.stderr


def sdist_names(sdist: Path) -> set[str]:
    """The files of *sdist*, relative to its top folder."""
    with tarfile.open(sdist) as archive:
        return {
            name.partition("/")[2]
            for name in archive.getnames()
            if archive.getmember(name).isfile()
        }


def test_sdist_holds_every_file_of_what_it_includes(sdist):
    """Each file git tracks under what [tool.hatch.build.targets.sdist]
    includes is in the sdist: a file a test reads cannot be left out by a
    build rule (a .gitignore'd pattern, a default exclusion)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True, check=False
    )
    if listed.returncode:
        pytest.skip("NOT CHECKED: not a git checkout, so its files are not known")
    include = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["hatch"][
        "build"
    ]["targets"]["sdist"]["include"]
    tracked = {
        name
        for name in listed.stdout.split("\0")
        if any(name == each or name.startswith(f"{each}/") for each in include)
    }
    assert tracked
    assert sorted(tracked - sdist_names(sdist)) == []


#: What the sdist's own run checks beyond the files: every test module is
#: collected (each imports what it needs: conftest, the bench scripts), and
#: the tests of the bench scripts it ships run. Not the whole fast suite:
#: its files are checked above, and the suite itself runs on every line.
SDIST_RUN = [
    "tests/test_bench_dates.py",
    "tests/test_bench_pytorch_tree.py",
    "tests/test_bench_torch_api.py",
]


@pytest.mark.slow
def test_sdist_runs_its_own_tests(sdist, tmp_path):
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path, filter="data")
    (unpacked,) = tmp_path.iterdir()
    # The sdist's code comes before the checkout's editable install.
    env = {**os.environ, "PYTHONPATH": str(unpacked / "src")}
    probe = subprocess.run(
        [sys.executable, "-c", "import reprodocs; print(reprodocs.__file__)"],
        env=env,
        cwd=unpacked,
        capture_output=True,
        text=True,
        check=True,
    )
    assert probe.stdout.startswith(str(unpacked))
    pytest_in_sdist = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    collected = subprocess.run(
        [*pytest_in_sdist, "--collect-only", "tests"],
        env=env,
        cwd=unpacked,
        capture_output=True,
        text=True,
        check=False,
    )
    assert collected.returncode == 0, collected.stdout[-5000:] + collected.stderr[-2000:]
    run = subprocess.run(
        [*pytest_in_sdist, *SDIST_RUN],
        env=env,
        cwd=unpacked,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-2000:]
    assert " passed" in run.stdout.splitlines()[-1]


@pytest.mark.slow
def test_installed_wheel_builds_notes(installed_wheel, tmp_path, rootdir):
    # PYTHONPATH comes before the editable install of the checkout.
    probe = subprocess.run(
        [sys.executable, "-c", "import reprodocs; print(reprodocs.__file__)"],
        env={"PYTHONPATH": str(installed_wheel)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert probe.stdout.startswith(str(installed_wheel))
    out = tmp_path / "out"
    build = sphinx_build_with(
        installed_wheel, "-W", "-D", "language=zh_CN", str(rootdir / "test-notes"), str(out)
    )
    assert build.returncode == 0, build.stderr
    html = (out / "index.html").read_text(encoding="utf-8")
    assert "使用 CUDA 后端时" in html
