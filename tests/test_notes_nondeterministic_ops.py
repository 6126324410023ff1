"""The ``nondeterministic-ops`` directive: the table of every note, and the
lists that read as PyTorch's registry of nondeterministic operations
(``:format: list``, issue 17), in reStructuredText, autodoc and MyST."""

from __future__ import annotations

import shutil

import pytest
from sphinx.util.console import strip_colors

from conftest import (
    exported_index,
    html_mtimes,
    items,
    lists,
    notes_in,
    parse_html,
    text_of,
)


def tables(soup):
    return soup.select("table.nondeterministic-ops")


def table_rows(table):
    return [[text_of(cell) for cell in row.find_all("td")] for row in table.select("tbody tr")]


EVERY_NOTE = [
    # A page-level note shows its page's title.
    ["Notes test", "CUDA", "backward", "cuda-deterministic-backward"],
    ["torch.Tensor.index_add_", "ROCm", "forward", "nondeterministic"],
    # A page-level note naming its operation with :op:.
    ["torch.Tensor.put_", "MPS", "both", "nondeterministic"],
    ["torch.bincount", "CUDA", "forward", "cuda-deterministic"],
    ["torch.nn.functional.ctc_loss", "CUDA", "backward", "cuda-deterministic-backward"],
    ["torch.nn.functional.ctc_loss", "cuDNN", "both", "cudnn-deterministic"],
    ["torch.nn.functional.grid_sample", "CUDA", "backward", "nondeterministic"],
]


def test_table_lists_every_note_sorted_with_links(build_notes):
    app = build_notes()
    assert app.warning.getvalue() == ""
    soup = parse_html(app.outdir / "notes" / "randomness.html")
    every, _rocm = tables(soup)
    assert [text_of(th) for th in every.select("thead th")] == [
        "Operation",
        "Backend",
        "Pass",
        "Note",
    ]
    assert table_rows(every) == EVERY_NOTE
    links = [row.find("a")["href"] for row in every.select("tbody tr")]
    assert links == [
        "../index.html",
        "../api.html#torch.Tensor.index_add_",
        "../page.html",
        "../api.html#torch.bincount",
        "../api.html#torch.nn.functional.ctc_loss",
        "../api.html#torch.nn.functional.ctc_loss",
        "../api.html#torch.nn.functional.grid_sample",
    ]
    # "Note" names the directive; the operation is code.
    assert every.select_one("tbody tr td:nth-of-type(4) code")
    assert every.select("tbody tr")[3].find("code").get_text() == "torch.bincount"
    assert not every.select("tbody tr")[0].find("td").find("code")


def test_table_filters_and_the_empty_sentence(build_notes):
    app = build_notes()
    soup = parse_html(app.outdir / "notes" / "randomness.html")
    rocm = tables(soup)[1]
    assert table_rows(rocm) == [["torch.Tensor.index_add_", "ROCm", "forward", "nondeterministic"]]
    xla = soup.find("section", id="on-xla-in-the-forward-pass")
    assert not xla.find("table")
    # Other operations are noted: the sentence does not say there are none.
    assert text_of(xla.find("p")) == (
        "None of the operations noted as nondeterministic in this documentation "
        "matches this selection."
    )


def test_a_table_of_an_empty_registry_says_nothing_is_noted(build_page):
    app = build_page(".. nondeterministic-ops::\n\n.. nondeterministic-ops::\n   :format: list\n")
    soup = parse_html(app.outdir / "index.html")
    assert not soup.find("table") and not soup.select("ul.simple")
    said = [text_of(p) for p in soup.select("[role=main] p, main p")]
    assert said.count("No operation in this documentation is noted as nondeterministic.") == 2


def test_invalid_filter_is_a_located_warning(build_page):
    app = build_page(".. nondeterministic-ops::\n   :pass: sideways\n")
    warnings = strip_colors(app.warning.getvalue())
    assert (
        f'{app.srcdir / "index.rst"}:8: ERROR: Error in "nondeterministic-ops" directive'
        in warnings
    )
    assert "Traceback" not in warnings


# The lists


#: The site's lists as the registry test root gives them (notes/randomness.rst).
DETERMINISTIC = [
    "torch.Tensor.index_put_ when accumulate=False",
    "torch.Tensor.scatter_add_() when called on a CUDA tensor",
    "torch.nn.Conv1d when called on CUDA tensor",
]


RAISES = [
    "torch.Tensor.put_() when accumulate=False",
    "torch.Tensor.put_() when accumulate=True and called on a CUDA tensor",
    "torch.bincount() when called on a CUDA tensor and weights tensor is given",
    "torch.cumsum() when called on a CUDA tensor when dtype is floating point or complex",
    "torch.histc() when called on a CUDA tensor",
    (
        "torch.nn.functional.interpolate() when attempting to differentiate a CUDA tensor and "
        "mode is linear or bilinear (see torch.histc())"
    ),
]


EVERY = [
    "A page-level note",
    DETERMINISTIC[0],
    *RAISES[:2],
    DETERMINISTIC[1],
    *RAISES[2:5],
    DETERMINISTIC[2],
    "torch.nn.functional.grid_sample()",
    RAISES[5],
]


def test_lists_read_as_pytorchs_docstring(build_registry):
    app = build_registry()
    assert app.warning.getvalue() == ""  # nitpicky: every reference resolves
    soup = parse_html(app.outdir / "notes" / "randomness.html")
    deterministic, raises, every, cudnn = lists(soup)
    # Sorted as the table sorts: by operation, then by the rest of the note.
    assert items(deterministic) == DETERMINISTIC
    assert items(raises) == RAISES
    assert items(every) == EVERY
    assert items(cudnn) == ["torch.nn.Conv1d when called on CUDA tensor"]
    # Each introduced by PyTorch's sentence, as in its docstring.
    for bullet_list, effect in (
        (deterministic, "will act deterministically"),
        (raises, "will throw a RuntimeError"),
    ):
        introduction = bullet_list.find_previous_sibling("p").get_text()
        assert " ".join(introduction.split()).endswith(f"{effect} when mode=True:")


def test_list_items_are_those_written_by_hand(build_registry):
    # notes/handwritten.rst lists the raising operations as PyTorch's
    # use_deterministic_algorithms docstring does: the generated items are
    # the same HTML, cross-references and inline markup included.
    app = build_registry()
    generated = lists(parse_html(app.outdir / "notes" / "randomness.html"))[1]
    by_hand = parse_html(app.outdir / "notes" / "handwritten.html").select("section ul")[0]
    assert [str(li) for li in generated.find_all("li")] == [str(li) for li in by_hand("li")]
    assert len(by_hand("li")) == len(RAISES)


def test_operations_are_cross_references_of_their_kind(build_registry):
    app = build_registry()
    every = lists(parse_html(app.outdir / "notes" / "randomness.html"))[2]
    links = {}
    for item in every.find_all("li", recursive=False):
        link = item.find("a")
        code = link.find("code")
        links[text_of(item).partition(" when ")[0]] = (
            link["href"],
            code["class"] if code else None,
        )
    literal = ["docutils", "literal", "notranslate"]
    assert links == {
        # As PyTorch's lists write them: py:function and py:method -> :func:,
        # py:class -> :class:
        "torch.histc()": ("../api.html#torch.histc", ["xref", "py", "py-func", *literal]),
        "torch.Tensor.put_()": (
            "../api.html#torch.Tensor.put_",
            ["xref", "py", "py-func", *literal],
        ),
        "torch.nn.Conv1d": ("../api.html#torch.nn.Conv1d", ["xref", "py", "py-class", *literal]),
        "torch.cumsum()": ("../markdown.html#torch.cumsum", ["xref", "py", "py-func", *literal]),
        "torch.Tensor.scatter_add_()": (
            "../api.html#torch.Tensor.scatter_add_",
            ["xref", "py", "py-func", *literal],
        ),
        "torch.bincount()": ("../api.html#torch.bincount", ["xref", "py", "py-func", *literal]),
        "torch.nn.functional.interpolate()": (
            "../api.html#torch.nn.functional.interpolate",
            ["xref", "py", "py-func", *literal],
        ),
        "torch.nn.functional.grid_sample()": (
            "../api.html#torch.nn.functional.grid_sample",
            ["xref", "py", "py-func", *literal],
        ),
        # Not documented as a Python object: a literal linked to its note's page.
        "torch.Tensor.index_put_": ("../page.html", literal),
        # A page-level note without :op:: its page's title, as in the table.
        "A page-level note": ("../page.html", None),
    }


def test_conditions_keep_their_inline_markup(build_registry):
    app = build_registry()
    raises = lists(parse_html(app.outdir / "notes" / "randomness.html"))[1]
    put_, put_cuda, _, _, _, interpolate = raises.find_all("li", recursive=False)
    assert [code.get_text() for code in put_.select("code")] == [
        "torch.Tensor.put_()",
        "accumulate=False",
    ]
    assert put_cuda.select("code")[1].get_text() == "accumulate=True"
    assert interpolate.find("em").get_text() == "mode"
    # A role in the condition is a cross-reference Sphinx resolved, from this page.
    histc = interpolate.find_all("a")[1]
    assert histc["href"] == "../api.html#torch.histc"
    assert histc.find("code")["class"][:3] == ["xref", "py", "py-func"]


def test_list_filters_and_the_empty_sentence(build_registry):
    app = build_registry()
    soup = parse_html(app.outdir / "notes" / "randomness.html")
    xla = soup.find("section", id="on-xla")
    assert not xla.find("ul")
    assert text_of(xla.find("p")) == (
        "None of the operations noted as nondeterministic in this documentation "
        "matches this selection."
    )
    # :deterministic-algorithms: filters a table too.
    table = soup.find("section", id="raising-as-a-table").find("table")
    rows = [text_of(row.find("td")) for row in table.select("tbody tr")]
    assert rows == [
        "torch.Tensor.put_",
        "torch.Tensor.put_",
        "torch.bincount",
        "torch.cumsum",
        "torch.histc",
        "torch.nn.functional.interpolate",
    ]
    # Its notes say what deterministic mode does: a column says it, and
    # when, telling Tensor.put_'s two notes apart.
    assert text_of(table.select("thead th")[-1]) == "With deterministic algorithms"
    put_false, put_true, *_rest, interpolate = (
        row.find_all("td")[-1] for row in table.select("tbody tr")
    )
    assert text_of(put_false) == "throws a RuntimeError when accumulate=False"
    assert text_of(put_true) == (
        "throws a RuntimeError when accumulate=True and called on a CUDA tensor"
    )
    assert put_false.find("code").get_text() == "accumulate=False"
    # The condition's cross-references are the page's own, resolved.
    assert interpolate.find("a")["href"] == "../api.html#torch.histc"


def test_the_list_in_an_autodoc_docstring(build_registry):
    # torch.use_deterministic_algorithms' docstring holds two directives
    # instead of its hand-kept lines.
    app = build_registry()
    soup = parse_html(app.outdir / "determinism.html")
    description = soup.find(id="fakedeterminism.use_deterministic_algorithms").find_parent("dl")
    deterministic, raises = lists(description)
    assert items(deterministic) == DETERMINISTIC
    assert items(raises) == RAISES
    assert raises.find("a")["href"] == "api.html#torch.Tensor.put_"


def test_the_list_in_a_myst_page(build_registry):
    app = build_registry()
    (raises,) = lists(parse_html(app.outdir / "markdown.html"))
    assert items(raises) == RAISES
    # The note in Markdown has its options too.
    (note,) = notes_in(parse_html(app.outdir / "markdown.html"))
    assert "When called on a CUDA tensor when dtype is floating point or complex, this" in (
        text_of(note)
    )


def test_the_list_in_text_and_in_zh_cn(build_registry):
    app = build_registry("text")
    text = (app.outdir / "notes" / "randomness.txt").read_text(encoding="utf-8")
    assert '* "torch.histc()" when called on a CUDA tensor\n' in text
    # The table's column, its cells as wide as their text.
    assert "| throws a RuntimeError when called on a CUDA tensor " in text
    app.cleanup()  # the next app registers Sphinx's nodes again, without warnings
    app = build_registry(language="zh_CN")
    assert app.warning.getvalue() == ""
    soup = parse_html(app.outdir / "notes" / "randomness.html")
    raises = lists(soup)[1]
    assert items(raises)[4] == "torch.histc()（当 called on a CUDA tensor 时）"
    table = soup.find("table", class_="nondeterministic-ops")
    assert text_of(table.select("thead th")[-1]) == "启用确定性算法时"
    assert text_of(table.select("tbody tr")[4].find_all("td")[-1]) == (
        "抛出 RuntimeError（当 called on a CUDA tensor 时）"
    )


#: (``:when:``, the list's item): inline markup that only the page it is
#: written in completes (or, for a typo, reports).
UNSERVED_WHEN = {
    "external hyperlink": ("see `docs <https://example.org>`_", "torch.put() when see docs"),
    "inline target": ("_`inline target` is given", "torch.put() when inline target is given"),
    "auto-numbered footnote": ("[#]_", "torch.put() when [#]_"),
    "unclosed emphasis": ("*mode is max", "torch.put() when *mode is max"),
    "index entry": (":index:`index` is given", "torch.put() when index is given"),
}


@pytest.mark.parametrize(("when", "item"), UNSERVED_WHEN.values(), ids=UNSERVED_WHEN.keys())
def test_a_list_shows_any_condition_the_note_takes(build_page, when, item):
    # The list on the note's own page: an id of the condition is the note's alone.
    app = build_page(
        ".. py:function:: torch.put(index)\n\n"
        "   .. nondeterministic::\n"
        "      :deterministic-algorithms: raises\n"
        f"      :when: {when}\n\n"
        ".. nondeterministic-ops::\n   :format: list\n\n"
        ".. nondeterministic-ops::\n"
    )
    soup = parse_html(app.outdir / "index.html")
    (raises,) = lists(soup)
    assert items(raises) == [item]
    # The table says it in its own words.
    cell = soup.select_one("table.nondeterministic-ops tbody td:last-child")
    assert text_of(cell) == item.replace("torch.put()", "throws a RuntimeError")
    ids = [element["id"] for element in soup.find_all(id=True)]
    assert len(ids) == len(set(ids))
    if "https://example.org" in when:
        link = raises.find("a", href="https://example.org")
        assert (link.get_text(), link["class"]) == ("docs", ["reference", "external"])
    # What docutils says of the condition, it says once: of the note.
    warnings = strip_colors(app.warning.getvalue())
    assert warnings.count("index.rst:") == warnings.count("index.rst:10:")


def test_a_conditions_broken_reference_is_reported_once(build_page):
    # The note, the list and the table each show the condition; the note's
    # reports it.
    app = build_page(
        ".. py:function:: torch.put(index)\n\n"
        "   .. nondeterministic::\n"
        "      :deterministic-algorithms: raises\n"
        "      :when: using :func:`torch.nowhere`\n\n"
        ".. nondeterministic-ops::\n   :format: list\n\n"
        ".. nondeterministic-ops::\n",
        confoverrides={"nitpicky": True},
    )
    warnings = strip_colors(app.warning.getvalue()).splitlines()
    (warning,) = [line for line in warnings if "torch.nowhere" in line]
    assert warning.startswith(
        f"{app.srcdir / 'index.rst'}:10: WARNING: py:func reference target not found: torch.nowhere"
    )
    soup = parse_html(app.outdir / "index.html")
    (raises,) = lists(soup)
    assert items(raises) == ["torch.put() when using torch.nowhere()"]


def test_two_notes_giving_the_same_item_give_one(build_page):
    # A CUDA and a cuDNN note on torch.conv under one condition; the table
    # shows each note, with its condition.
    app = build_page(
        ".. py:function:: torch.conv(input)\n\n"
        "   .. cuda-deterministic::\n"
        "      :deterministic-algorithms: deterministic\n"
        "      :when: called on a CUDA tensor\n\n"
        "   .. cudnn-deterministic::\n"
        "      :deterministic-algorithms: deterministic\n"
        "      :when: called on a CUDA tensor\n\n"
        "   .. cudnn-deterministic::\n"
        "      :deterministic-algorithms: deterministic\n"
        "      :when: ``benchmark=False``\n\n"
        ".. nondeterministic-ops::\n   :format: list\n\n"
        ".. nondeterministic-ops::\n"
    )
    assert app.warning.getvalue() == ""
    soup = parse_html(app.outdir / "index.html")
    (deterministic,) = lists(soup)
    assert items(deterministic) == [
        "torch.conv() when called on a CUDA tensor",
        "torch.conv() when benchmark=False",
    ]
    rows = soup.select("table.nondeterministic-ops tbody tr")
    assert [[text_of(cell) for cell in row.find_all("td")[3:]] for row in rows] == [
        ["cuda-deterministic", "acts deterministically when called on a CUDA tensor"],
        ["cudnn-deterministic", "acts deterministically when benchmark=False"],
        ["cudnn-deterministic", "acts deterministically when called on a CUDA tensor"],
    ]


# Incremental and parallel builds


def test_changing_a_condition_updates_every_list(make_app, registry_project, tmp_path):
    app = make_app("html", srcdir=registry_project, freshenv=True)
    app.build()
    before = html_mtimes(app.outdir)
    app.cleanup()  # the next app registers Sphinx's nodes again, without warnings
    api = registry_project / "api.rst"
    api.write_text(
        api.read_text().replace(
            ":when: called on a CUDA tensor\n", ":when: called on a CUDA or *XPU* tensor\n", 1
        )
    )
    # Incremental, as a new sphinx-build run is.
    app = make_app("html", srcdir=registry_project)
    app.build()
    assert app.warning.getvalue() == ""
    after = html_mtimes(app.outdir)
    rewritten = {name for name in after if after[name] != before[name]}
    # The edited page, and the pages showing a list or a table; not the others.
    assert {"api.html", "notes/randomness.html", "determinism.html", "markdown.html"} <= rewritten
    assert "notes/handwritten.html" not in rewritten
    assert "page.html" not in rewritten
    histc = "torch.histc() when called on a CUDA or XPU tensor"
    for page in ("notes/randomness.html", "determinism.html", "markdown.html"):
        raising = [items(bullet_list) for bullet_list in lists(parse_html(app.outdir / page))]
        assert any(histc in found for found in raising), page
    raises = lists(parse_html(app.outdir / "notes" / "randomness.html"))[1]
    assert raises.find_all("li")[4].find("em").get_text() == "XPU"
    exported = exported_index(app.outdir)
    assert "called on a CUDA or *XPU* tensor" in [op["when"] for op in exported["operations"]]
    # What a fresh build of the same sources gives.
    fresh_src = tmp_path / "fresh"
    shutil.copytree(registry_project, fresh_src, ignore=shutil.ignore_patterns("_build"))
    fresh = make_app("html", srcdir=fresh_src, freshenv=True)
    fresh.build()
    for page in ("notes/randomness.html", "determinism.html", "markdown.html"):
        assert [str(ul) for ul in lists(parse_html(app.outdir / page))] == [
            str(ul) for ul in lists(parse_html(fresh.outdir / page))
        ]
    table = parse_html(app.outdir / "notes" / "randomness.html").find("table")
    assert "when called on a CUDA or XPU tensor" in text_of(table)
    assert str(table) == str(parse_html(fresh.outdir / "notes" / "randomness.html").find("table"))
    assert exported == exported_index(fresh.outdir)


def test_lists_and_tables_written_by_two_processes_are_the_same(
    make_app, registry_project, tmp_path
):
    serial = make_app("html", srcdir=registry_project, builddir=tmp_path / "serial", freshenv=True)
    serial.build()
    serial.cleanup()  # the next app registers Sphinx's nodes again, without warnings
    parallel = make_app(
        "html", srcdir=registry_project, builddir=tmp_path / "parallel", freshenv=True, parallel=2
    )
    parallel.build()
    assert parallel.warning.getvalue() == ""
    for page in ("notes/randomness.html", "determinism.html", "markdown.html", "api.html"):
        assert (parallel.outdir / page).read_bytes() == (serial.outdir / page).read_bytes(), page
    assert exported_index(parallel.outdir) == exported_index(serial.outdir)
