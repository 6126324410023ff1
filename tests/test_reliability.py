"""Builds a hostile user runs: the drift check on every build, builds killed
while they write, builders interleaved on one doctree folder, a reader polling
nondeterministic.json, and configuration values of the wrong type."""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sphinx.cmd.build import build_main
from sphinx.util.console import strip_colors

from conftest import exported_index, notes_in, parse_html, text_of, write_page_project
from reprodocs.base.files import BUILD_MARK, replace_file
from reprodocs.base.written import record_path

if sys.platform != "win32":
    import fcntl

KNOWN = [
    "torch.bincount",
    "torch.nn.functional.ctc_loss",
    "torch.nn.functional.grid_sample",
    "torch.Tensor.index_add_",
    "torch.Tensor.put_",
]


def sphinx_build(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """``sphinx-build``, as a user runs it, its output and status; in this
    process (a process of its own costs a second of imports: the killed
    builds below are the ones that need one)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = build_main(list(args))
    result = subprocess.CompletedProcess(args, status, out.getvalue(), err.getvalue())
    if check:
        assert result.returncode == 0, result.stderr
    return result


# -- 1. The drift check runs on every build -----------------------------------------------


def test_drift_check_runs_when_nothing_is_read(notes_project, tmp_path):
    conf = notes_project / "conf.py"
    conf.write_text(conf.read_text() + 'reprodocs_known_ops = "known.txt"\n')
    known = notes_project / "known.txt"
    known.write_text("\n".join(KNOWN) + "\n")
    arguments = ["-b", "html", "-d", str(tmp_path / "doctrees"), str(notes_project)]
    arguments.append(str(tmp_path / "html"))
    assert "has no nondeterminism note" not in sphinx_build(*arguments).stderr

    # Nothing changed but the file the setting names: nothing is read.
    known.write_text("\n".join([*KNOWN, "torch.histc"]) + "\n")
    result = sphinx_build(*arguments)
    assert "reprodocs_known_ops: torch.histc has no nondeterminism note" in result.stderr
    assert "0 source files that are out of date" in result.stdout or "no targets" in result.stdout
    # Nothing changed at all: still warned, and -W fails.
    assert "torch.histc has no nondeterminism note" in sphinx_build(*arguments).stderr
    assert sphinx_build("-W", *arguments, check=False).returncode != 0


def test_drift_check_runs_when_only_the_setting_changed(notes_project, tmp_path):
    # reprodocs_known_ops changes no page: Sphinx reads nothing again.
    conf = notes_project / "conf.py"
    settings = conf.read_text()
    conf.write_text(settings + f"reprodocs_known_ops = {KNOWN!r}\n")
    arguments = ["-b", "html", "-d", str(tmp_path / "doctrees"), str(notes_project)]
    arguments.append(str(tmp_path / "html"))
    assert "reprodocs_known_ops" not in sphinx_build(*arguments).stderr

    conf.write_text(settings + f"reprodocs_known_ops = {[*KNOWN, 'torch.histc']!r}\n")
    result = sphinx_build(*arguments)
    assert "reprodocs_known_ops: torch.histc has no nondeterminism note" in result.stderr
    assert "0 source files that are out of date" in result.stdout or "no targets" in result.stdout


def warnings_of(result: subprocess.CompletedProcess) -> list[str]:
    return sorted(line for line in strip_colors(result.stderr).splitlines() if "WARNING" in line)


@pytest.mark.slow
def test_an_incremental_build_warns_as_a_fresh_one_does(tmp_path):
    """The notes' disagreements across pages are checked on every build, as
    the drift check is: after each change to ``reprodocs_known_ops`` (the
    list, list to file, the file) and with nothing changed, a build that
    reads no page gives a fresh build's warnings, and -W fails it."""
    srcdir = tmp_path / "src"
    srcdir.mkdir()
    # (b's description :no-index:, or Sphinx warns of a duplicate object as it
    # reads the page, on a fresh build only.)
    note = ".. py:function:: torch.shared()\n{}\n   .. cuda-deterministic::\n"
    for page, options in (("a", ""), ("b", "   :no-index:\n")):
        text = f"{page.upper()}\n=\n\n{note.format(options)}"
        (srcdir / f"{page}.rst").write_text(text, encoding="utf-8")
    (srcdir / "index.rst").write_text("Index\n=====\n\n.. toctree::\n\n   a\n   b\n")
    known = srcdir / "known.txt"
    known.write_text("torch.shared\ntorch.other\n", encoding="utf-8")
    incremental = ["-b", "html", "-d", str(tmp_path / "doctrees"), str(srcdir)]
    incremental.append(str(tmp_path / "html"))

    def configure(known_ops: str) -> None:
        conf = 'extensions = ["reprodocs"]\nreprodocs_reproducibility_doc = "index"\n'
        (srcdir / "conf.py").write_text(conf + known_ops, encoding="utf-8")

    changes = [
        lambda: configure(""),
        lambda: configure("reprodocs_known_ops = ['torch.shared', 'torch.listed']\n"),
        lambda: configure("reprodocs_known_ops = 'known.txt'\n"),
        lambda: known.write_text("torch.shared\ntorch.third\n", encoding="utf-8"),
        lambda: None,
    ]
    for change in changes:
        change()
        fresh = sphinx_build("-E", "-b", "html", str(srcdir), str(tmp_path / "fresh"))
        expected = warnings_of(fresh)
        assert any("torch.shared is already noted in a (line" in w for w in expected)
        assert warnings_of(sphinx_build(*incremental)) == expected
    assert sphinx_build("-W", *incremental, check=False).returncode != 0


def test_known_ops_file_with_a_byte_order_mark(build_notes, notes_project):
    (notes_project / "known.txt").write_text("\ufeff" + "\n".join(KNOWN) + "\n", "utf-8")
    app = build_notes(reprodocs_known_ops="known.txt")
    assert strip_colors(app.warning.getvalue()) == ""


# -- 5. Configuration values of the wrong type ---------------------------------------------

BAD_SETTINGS = {
    "known ops a number": ("reprodocs_known_ops", 42),
    "known ops mixed": ("reprodocs_known_ops", [1, "a"]),
    "known ops nested": ("reprodocs_known_ops", [["a"]]),
    "reproducibility doc a number": ("reprodocs_reproducibility_doc", 5),
    "reproducibility doc None": ("reprodocs_reproducibility_doc", None),
    "wording a number": ("reprodocs_wording", 2),
    "export a string": ("reprodocs_export_json", "no"),
}


@pytest.mark.parametrize(("name", "value"), BAD_SETTINGS.values(), ids=BAD_SETTINGS.keys())
def test_a_wrong_setting_is_a_located_warning(notes_project, tmp_path, name, value):
    conf = notes_project / "conf.py"
    conf.write_text(conf.read_text() + f"{name} = {value!r}\n")
    line = len(conf.read_text().splitlines())
    arguments = ["-b", "html", str(notes_project), str(tmp_path / "html")]
    result = sphinx_build(*arguments)
    warnings = strip_colors(result.stderr)
    assert "Traceback" not in warnings and "error" not in warnings.lower(), warnings
    assert f"conf.py:{line}: WARNING: {name}" in warnings, warnings
    # The build went on, with the default.
    soup = parse_html(tmp_path / "html" / "api.html")
    assert "Reproducibility" in text_of(notes_in(soup)[0])
    assert sphinx_build("-W", "-E", *arguments, check=False).returncode != 0


def test_a_setting_assigned_twice_is_located_at_its_last_assignment(make_app, notes_project):
    # Sphinx uses the value assigned last: the warning is about that one.
    conf = notes_project / "conf.py"
    assignments = 'reprodocs_wording = "pytorch-2"\nproject = "Twice"\nreprodocs_wording = 2\n'
    conf.write_text(conf.read_text() + assignments)
    line = len(conf.read_text().splitlines())
    app = make_app("html", srcdir=notes_project, freshenv=True)
    app.build()
    warnings = strip_colors(app.warning.getvalue())
    assert f"{conf}:{line}: WARNING: reprodocs_wording: " in warnings, warnings


def test_a_known_ops_file_that_is_not_text(build_notes, notes_project):
    (notes_project / "known.txt").write_bytes(bytes(range(256)))
    app = build_notes(reprodocs_known_ops="known.txt")
    warnings = strip_colors(app.warning.getvalue())
    assert f"reprodocs_known_ops: cannot read {notes_project / 'known.txt'}" in warnings
    assert "not UTF-8" in warnings


@pytest.mark.parametrize("doc", [None, "guide/randomness"], ids=["default", "another page"])
def test_a_missing_reproducibility_page_names_the_setting(make_app, tmp_path, doc):
    body = ".. py:function:: torch.pad(input)\n\n   .. cuda-deterministic::\n"
    srcdir = write_page_project(tmp_path / "src", body)
    overrides = {"reprodocs_reproducibility_doc": doc} if doc else {}
    if doc is None:  # the default names the page, which is not there
        doc = "notes/randomness"
        (srcdir / f"{doc}.rst").unlink()
    app = make_app("html", srcdir=srcdir, freshenv=True, confoverrides=overrides)
    app.build()
    assert (
        f"WARNING: reprodocs_reproducibility_doc: the notes link to {doc!r}, "
        "which is not a document of this project"
    ) in strip_colors(app.warning.getvalue())


# -- 2. A killed build recovers ------------------------------------------------------------


def site(srcdir: Path, pages: int) -> Path:
    """A site of *pages* API pages, each with a note, under a menu on every page."""
    (srcdir / "api").mkdir(parents=True, exist_ok=True)
    (srcdir / "notes").mkdir(exist_ok=True)
    (srcdir / "conf.py").write_text(
        'extensions = ["reprodocs", "reprodocs.navigation"]\nhtml_theme = "sphinx_rtd_theme"\n'
    )
    (srcdir / "index.rst").write_text(
        "Site\n====\n\n.. toctree::\n   :glob:\n\n   notes/randomness\n   api/*\n"
    )
    (srcdir / "notes" / "randomness.rst").write_text(
        "Reproducibility\n===============\n\n.. nondeterministic-ops::\n"
    )
    for n in range(pages):
        add_page(srcdir, n)
    return srcdir


def add_page(srcdir: Path, n: int) -> None:
    (srcdir / "api" / f"op{n:03}.rst").write_text(
        f"op{n:03}\n=====\n\n.. py:function:: torch.op{n:03}(input)\n\n   .. cuda-deterministic::\n"
    )


def kill_while_writing(arguments: list[str], outdir: Path, written_before_kill: int) -> None:
    """Start ``sphinx-build``, and kill it (SIGKILL) once it has written
    *written_before_kill* pages in *outdir* since it started."""
    started = time.time()
    process = subprocess.Popen(
        [sys.executable, "-m", "sphinx", *arguments],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while process.poll() is None:
            fresh = [page for page in outdir.rglob("*.html") if page.stat().st_mtime >= started]
            if len(fresh) >= written_before_kill:
                process.send_signal(signal.SIGKILL)
                break
            time.sleep(0.005)
    finally:
        process.wait()
    assert process.returncode == -signal.SIGKILL, "the build ended before it was killed"


def menu_entries(page: Path) -> set[str]:
    soup = parse_html(page)
    return {link.get_text() for link in soup.select(".wy-menu-vertical a")}


@pytest.mark.slow
def test_a_build_killed_while_writing_leaves_nothing_stale(tmp_path):
    srcdir = site(tmp_path / "src", 60)
    outdir = tmp_path / "html"
    arguments = ["-b", "html", "-d", str(tmp_path / "doctrees"), str(srcdir), str(outdir)]
    sphinx_build(*arguments)

    add_page(srcdir, 60)  # a new page: every page's menu, and the table, change
    kill_while_writing(arguments, outdir, written_before_kill=5)
    sphinx_build(*arguments)  # again, without -E

    for page in outdir.rglob("*.html"):
        if page.name not in {"genindex.html", "search.html", "py-modindex.html"}:
            assert "op060" in menu_entries(page), page
    table = parse_html(outdir / "notes" / "randomness.html").select("table.nondeterministic-ops")
    assert "torch.op060" in text_of(table[0])
    operations = [op["name"] for op in exported_index(outdir)["operations"]]
    assert "torch.op060" in operations


#: Added to conf.py: with KILLED_AT_RENAME_OF set, the build kills itself
#: (SIGKILL) as it renames a temporary file to the file of that name.
KILLED_AT_RENAME = """
import os, signal

_replace = os.replace

def _killed_at_rename(source, target, *args, **kwargs):
    if os.path.basename(target) == os.environ.get("KILLED_AT_RENAME_OF"):
        os.kill(os.getpid(), signal.SIGKILL)
    return _replace(source, target, *args, **kwargs)

os.replace = _killed_at_rename
"""


def temporaries(directory: Path) -> list[str]:
    """The hidden files in *directory* that are not Sphinx's own."""
    return sorted(
        path.name
        for path in directory.rglob(".*")
        if path.is_file() and path.name not in {".buildinfo"}
    )


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
@pytest.mark.parametrize("written", ["nondeterministic.json", "the record"])
def test_a_build_killed_at_a_rename_leaves_no_temporary_file(tmp_path, written):
    srcdir = site(tmp_path / "src", 3)
    with (srcdir / "conf.py").open("a") as conf:
        conf.write(KILLED_AT_RENAME)
    outdir, doctrees = tmp_path / "html", tmp_path / "doctrees"
    arguments = ["-b", "html", "-d", str(doctrees), str(srcdir), str(outdir)]
    sphinx_build(*arguments)
    record = record_path(doctrees, outdir)
    path = outdir / written if written != "the record" else record
    name = path.name

    add_page(srcdir, 3)  # the table, and every page's menu, change
    killed = subprocess.run(
        [sys.executable, "-m", "sphinx", *arguments],
        capture_output=True,
        env={**os.environ, "KILLED_AT_RENAME_OF": name},
        check=False,
    )
    assert killed.returncode == -signal.SIGKILL
    (left,) = temporaries(path.parent)
    assert left.startswith(f".{name}.reprodocs-build.")

    sphinx_build(*arguments)

    assert temporaries(outdir) == temporaries(record.parent) == []
    operations = [op["name"] for op in exported_index(outdir)["operations"]]
    assert "torch.op003" in operations
    assert json.loads(record.read_text())


def test_the_output_directory_holds_no_bookkeeping(tmp_path):
    """What the pages were written with is recorded in the doctree folder,
    one record per output directory; the output directory is deployed as it
    is. A record an earlier version left there is removed."""
    srcdir = site(tmp_path / "src", 3)
    doctrees = tmp_path / "doctrees"
    (tmp_path / "html").mkdir()
    legacy = tmp_path / "html" / ".reprodocs-written.json"
    legacy.write_text("{}\n")
    for builder in ("html", "dirhtml"):
        sphinx_build("-b", builder, "-d", str(doctrees), str(srcdir), str(tmp_path / builder))
    assert not legacy.exists()
    for builder in ("html", "dirhtml"):
        assert temporaries(tmp_path / builder) == []
        assert json.loads(record_path(doctrees, tmp_path / builder).read_text())
    assert record_path(doctrees, tmp_path / "html") != record_path(doctrees, tmp_path / "dirhtml")


@pytest.mark.skipif(sys.platform == "win32", reason="flock")
def test_a_temporary_file_another_build_writes_is_left(tmp_path):
    # A running writer holds a lock on its temporary file until it renames it.
    path = tmp_path / "nondeterministic.json"
    killed = tmp_path / f".nondeterministic.json{BUILD_MARK}k3x9q_2a"
    running = tmp_path / f".nondeterministic.json{BUILD_MARK}running"
    another_file = tmp_path / f".other.json{BUILD_MARK}0a1b2c3d"
    for temporary in (killed, running, another_file):
        temporary.write_text('{"operations": [')

    with running.open() as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        replace_file(path, "{}\n")

    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [path.name, running.name, another_file.name]
    )
    assert path.read_text() == "{}\n"


# -- 3. Builders sharing one doctree folder ------------------------------------------------


def test_interleaved_builders_each_write_what_is_true(tmp_path):
    srcdir = site(tmp_path / "src", 3)
    doctrees = str(tmp_path / "doctrees")

    def build(builder: str, *extra: str) -> None:
        out = str(tmp_path / builder)
        sphinx_build("-b", builder, "-d", doctrees, *extra, str(srcdir), out)

    build("html")
    page = srcdir / "api" / "op001.rst"
    page.write_text(page.read_text().replace("torch.op001", "torch.renamed"))
    build("text")
    build("html")
    table = parse_html(tmp_path / "html" / "notes" / "randomness.html")
    assert "torch.renamed" in text_of(table.select_one("table.nondeterministic-ops"))
    assert "torch.op001" not in text_of(table.select_one("table.nondeterministic-ops"))

    # The wording changed while another builder read the pages.
    build("text", "-D", "reprodocs_wording=pytorch-2")
    build("html", "-D", "reprodocs_wording=pytorch-2")
    note = text_of(notes_in(parse_html(tmp_path / "html" / "api" / "op000.html"))[0])
    assert "may behave nondeterministically" in note  # PyTorch 2.x's words
    text = (tmp_path / "text" / "api" / "op000.txt").read_text()
    assert "may behave nondeterministically" in text


# -- 4. nondeterministic.json is replaced whole --------------------------------------------


@pytest.mark.slow
def test_a_reader_never_sees_a_partial_json(tmp_path):
    srcdir = site(tmp_path / "src", 20)
    outdir = tmp_path / "html"
    arguments = ["-b", "html", "-d", str(tmp_path / "doctrees"), str(srcdir), str(outdir)]
    sphinx_build(*arguments)
    seen = []
    for n in range(20, 24):
        add_page(srcdir, n)
        process = subprocess.Popen([sys.executable, "-m", "sphinx", "-q", *arguments])
        while process.poll() is None:
            try:
                seen.append((outdir / "nondeterministic.json").read_bytes())
            except FileNotFoundError:
                seen.append(b"")
        assert process.returncode == 0
    assert seen and all(json.loads(content) for content in seen)
    leftovers = [p.name for p in outdir.iterdir() if p.name.startswith(".nondeterministic")]
    assert leftovers == []


# -- 10. The table a builder writes lists what that builder shows ----------------------------

CONDITIONAL = """\
.. py:function:: torch.everywhere(input)

   .. cuda-deterministic::

.. only:: text

   .. py:function:: torch.text_only(input)

      .. cuda-deterministic::

.. ifconfig:: show_extra

   .. py:function:: torch.if_configured(input)

      .. cuda-deterministic::

.. nondeterministic-ops::
"""


@pytest.mark.parametrize("show_extra", [False, True])
def test_each_builder_lists_the_notes_it_shows(make_app, tmp_path, show_extra):
    srcdir = write_page_project(tmp_path / "src", CONDITIONAL)
    (srcdir / "conf.py").write_text(
        'extensions = ["reprodocs", "sphinx.ext.ifconfig"]\n'
        "def setup(app):\n"
        f'    app.add_config_value("show_extra", {show_extra}, "env")\n'
    )
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    listed = text_of(parse_html(app.outdir / "index.html").select_one("table"))
    operations = [op["name"] for op in exported_index(app.outdir)["operations"]]
    assert "torch.everywhere" in listed and "torch.text_only" not in listed
    assert ("torch.if_configured" in listed) is show_extra
    assert ("torch.if_configured" in operations) is show_extra
    assert "torch.text_only" not in operations

    app = make_app("text", srcdir=srcdir, freshenv=True)
    app.build()
    text = (app.outdir / "index.txt").read_text()
    table = text[text.rindex("Operation") :]
    assert "torch.everywhere" in table and "torch.text_only" in table
    assert ("torch.if_configured" in table) is show_extra
