"""The runtime text (issue 39): what ``help()`` shows of a note
(``:runtime-text:``) and of a list (the list directive's content), compared
with the registry on every build (``reprodocs.notes.runtime_text``), by its
words, markup aside (``reprodocs.base.runtime_text``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from sphinx.cmd.build import build_main
from sphinx.util.console import strip_colors

from conftest import parse_html
from reprodocs.base.runtime_text import item_words, list_items, words


def test_words_set_markup_aside():
    assert words(":func:`torch.histc` when  called on\n a ``CUDA`` tensor") == (
        "torch.histc when called on a CUDA tensor"
    )
    assert words(":py:meth:`~torch.Tensor.put_` and :doc:`the notes </notes/randomness>`") == (
        "torch.Tensor.put_ and the notes"
    )
    assert words("**strong** and *emphasis*, a * b, `default`") == (
        "strong and emphasis, a * b, default"
    )
    assert words(r"a\_b") == "a_b"
    # MyST's roles too (a MyST page or docstring): they read as "{doc}/notes/randomness".
    assert words("See {doc}`/notes/randomness` and {py:func}`~torch.histc`.") == (
        "See /notes/randomness and torch.histc."
    )
    assert words("{doc}`the notes </notes/randomness>`") == "the notes"


def test_list_items_are_each_item_with_its_nested_list():
    content = [
        " * :func:`torch.histc` when called on",
        "   a CUDA tensor",
        " * :func:`torch.nn.functional.interpolate` when used:",
        "",
        "   - ``linear``",
        "   - ``bilinear``",
        "",
        " * :class:`torch.nn.MaxUnpool1d`",
    ]
    assert list_items(content) == [
        "torch.histc when called on a CUDA tensor",
        "torch.nn.functional.interpolate when used: linear bilinear",
        "torch.nn.MaxUnpool1d",
    ]
    # A paragraph at the items' indent ends the list: it is no item's (it
    # was read as the last item's words, which then said otherwise).
    assert list_items([*content, "", " Each raises only in deterministic mode."]) == (
        list_items(content)
    )
    assert item_words("torch.nn.functional.interpolate", "", "used:", ["``linear``"]) == (
        "torch.nn.functional.interpolate when used: linear"
    )
    assert item_words("torch.Tensor.put_", "``accumulate=True``", "on CUDA", []) == (
        "torch.Tensor.put_ with accumulate=True when on CUDA"
    )


@pytest.fixture
def project(rootdir, tmp_path) -> Path:
    return Path(shutil.copytree(rootdir / "test-runtime-text", tmp_path / "src"))


def build(project: Path, *options: str) -> tuple[int, list[str]]:
    """Build *project* (incrementally, into one output folder): the exit
    status and the runtime-text warnings."""
    warnings = project.parent / "warnings.txt"
    status = build_main(
        [str(project), str(project.parent / "html"), "-q", "-w", str(warnings), *options]
    )
    said = strip_colors(warnings.read_text(encoding="utf-8")).splitlines()
    return status, [line for line in said if "runtime-text" in line or "help()" in line]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_runtime_text_in_step_with_the_registry_says_nothing(project):
    assert build(project, "-W") == (0, [])
    # Not rendered: the note and the list are the registry's, once each.
    page = parse_html(project.parent / "html" / "api.html")
    assert page.get_text().count("may produce nondeterministic gradients") == 1
    generated = page.select("ul.nondeterministic-ops")
    assert len(generated) == 1
    assert [" ".join(li.p.get_text().split()) for li in generated[0].find_all("li")][:2] == [
        "torch.histc() when called on a CUDA tensor",
        (
            "torch.nn.functional.interpolate() when attempting to differentiate a CUDA tensor "
            "and one of the following modes is used:"
        ),
    ]


def test_a_stale_note_text_is_warned_on_every_build(project):
    api = project / "api.rst"
    edit(api, "may produce nondeterministic gradients", "may produce other gradients")
    status, warned = build(project)
    assert status == 0
    assert len(warned) == 1
    assert f"{api}:8: WARNING: cuda-deterministic-backward: its :runtime-text:" in warned[0]
    assert "This operation may produce nondeterministic gradients" in warned[0]
    # Of type reprodocs.runtime-text (which Sphinx 7.3 and later also print).
    assert build(project, "-E", "-D", "suppress_warnings=reprodocs.runtime-text") == (0, [])
    # Again on a build that reads nothing; and -W fails it.
    assert build(project) == (0, warned)
    assert build(project, "-W")[0] != 0  # 2 on Sphinx 7.2, 1 later


def test_an_entry_edited_elsewhere_makes_the_list_stale(project):
    assert build(project) == (0, [])
    # Only ops.rst is read again: the list's page is not, and is still checked.
    edit(project / "ops.rst", ":when: called on a CUDA tensor", ":when: called on an XPU tensor")
    status, warned = build(project)
    assert status == 0
    assert len(warned) == 1
    assert f"{project / 'api.rst'}:17: WARNING: nondeterministic-ops: its content" in warned[0]
    assert "1 to add (torch.histc when called on an XPU tensor)" in warned[0]
    assert "1 not in the registry (torch.histc when called on a CUDA tensor)" in warned[0]
    # The item written back in step: nothing to say.
    edit(
        project / "api.rst",
        "torch.histc` when called on a CUDA",
        "torch.histc` when called on an XPU",
    )
    assert build(project, "-W") == (0, [])


def test_a_list_without_content_is_not_checked(project):
    api = project / "api.rst"
    text = api.read_text(encoding="utf-8")
    api.write_text(text[: text.index("       * :func:`torch.histc`")], encoding="utf-8")
    assert build(project, "-W") == (0, [])


def test_a_list_s_content_is_checked_against_the_rows_its_having_keeps(project):
    """A list filtered by ``:having:`` shows only the entries with that
    value: its content was checked against every entry of its other
    filters, so a content in line was warned about as stale (issue 39)."""
    (project / "conf.py").write_text(
        (project / "conf.py").read_text(encoding="utf-8")
        + 'reprodocs_entry_fields = [{"option": "status", "title": "Status"}]\n',
        encoding="utf-8",
    )
    edit(
        project / "ops.rst",
        ":when: called on a CUDA tensor\n",
        ":when: called on a CUDA tensor\n      :status: open\n",
    )
    api = project / "api.rst"
    api.write_text(
        api.read_text(encoding="utf-8")
        + "\n.. nondeterministic-ops::\n   :format: list\n   :having: status=open\n\n"
        "   * :func:`torch.histc` when called on a CUDA tensor\n",
        encoding="utf-8",
    )
    assert build(project, "-W") == (0, [])
    page = parse_html(project.parent / "html" / "api.html")
    assert len(page.select("ul.nondeterministic-ops")[-1].find_all("li")) == 1
    # An item its :having: leaves out is one the registry's list does not have.
    item = "\n   * :func:`torch.histc` when called on a CUDA tensor\n"
    edit(api, item, f"{item}   * :func:`torch.bincount`\n")
    status, warned = build(project)
    assert status == 0
    assert len(warned) == 1
    assert f"{api}:28: WARNING: nondeterministic-ops: its content" in warned[0]
    assert "0 to add (-), 1 not in the registry (torch.bincount)" in warned[0]


def test_an_item_written_twice_is_warned_about(project):
    """The content said an item twice, which help() shows twice: the items
    were compared as sets, so nothing was said (migrate --write drops the
    repeat)."""
    api = project / "api.rst"
    item = "       * :func:`torch.histc` when called on a CUDA tensor\n"
    edit(api, item, item + item.replace(":func:`torch.histc`", "``torch.histc``"))
    status, warned = build(project)
    assert status == 0
    assert len(warned) == 1
    assert warned[0].startswith(
        f"{api}:17: WARNING: nondeterministic-ops: its content (what help() shows) repeats "
        "what the registry's list says once: torch.histc when called on a CUDA tensor"
    )
    # Of type reprodocs.runtime-text (which Sphinx 7.3 and later also print).
    assert build(project, "-E", "-D", "suppress_warnings=reprodocs.runtime-text") == (0, [])
    assert build(project, "-W")[0] != 0
