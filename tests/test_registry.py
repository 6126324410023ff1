"""The notes as PyTorch's registry of nondeterministic operations (issue 17):
what ``torch.use_deterministic_algorithms(True)`` does to each operation and
when (``:deterministic-algorithms:``, ``:when:``), said by the note and listed
by ``.. nondeterministic-ops:: :format: list`` as PyTorch's docstring lists it;
both in ``nondeterministic.json``; a wording per note (``:wording:``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from sphinx.util.console import strip_colors

from conftest import exported_index, notes_in, parse_html, text_of, write_page_project
from reprodocs.notes.domain import Note

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


def lists(soup) -> list:
    return soup.select("ul.nondeterministic-ops")


def items(bullet_list) -> list[str]:
    """The list's items as a reader sees them."""
    return [
        " ".join(item.get_text().split()) for item in bullet_list.find_all("li", recursive=False)
    ]


@pytest.fixture
def registry_project(rootdir, tmp_path) -> Path:
    """A copy of the registry test root, for tests that edit it."""
    shutil.copytree(rootdir / "test-registry", tmp_path / "src")
    return tmp_path / "src"


@pytest.fixture
def build_registry(make_app, registry_project):
    def build(builder: str = "html", **confoverrides):
        app = make_app(builder, srcdir=registry_project, freshenv=True, confoverrides=confoverrides)
        app.build()
        return app

    return build


# The lists


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
        # py:function -> :func:, py:method -> :meth:, py:class -> :class:
        "torch.histc()": ("../api.html#torch.histc", ["xref", "py", "py-func", *literal]),
        "torch.Tensor.put_()": (
            "../api.html#torch.Tensor.put_",
            ["xref", "py", "py-meth", *literal],
        ),
        "torch.nn.Conv1d": ("../api.html#torch.nn.Conv1d", ["xref", "py", "py-class", *literal]),
        "torch.cumsum()": ("../markdown.html#torch.cumsum", ["xref", "py", "py-func", *literal]),
        "torch.Tensor.scatter_add_()": (
            "../api.html#torch.Tensor.scatter_add_",
            ["xref", "py", "py-meth", *literal],
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


def test_filters_and_the_empty_sentence(build_registry):
    app = build_registry()
    soup = parse_html(app.outdir / "notes" / "randomness.html")
    xla = soup.find("section", id="on-xla")
    assert not xla.find("ul")
    assert text_of(xla.find("p")) == (
        "No operation in this documentation is noted as nondeterministic."
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


# The notes


#: (options, the sentence pytorch-1.4 and pytorch-2 add, its zh_CN)
SENTENCES = {
    "raises, when": (
        ":deterministic-algorithms: raises\n   :when: ``accumulate=True`` and called on a CUDA tensor",
        (
            "When accumulate=True and called on a CUDA tensor, this operation will throw a "
            "RuntimeError if torch.use_deterministic_algorithms(True) is set."
        ),
        (
            "当 accumulate=True and called on a CUDA tensor 时，如果设置了 "
            "torch.use_deterministic_algorithms(True)，该操作将抛出 RuntimeError。"
        ),
    ),
    "raises": (
        ":deterministic-algorithms: raises",
        (
            "If torch.use_deterministic_algorithms(True) is set, this operation will throw a "
            "RuntimeError when called."
        ),
        "如果设置了 torch.use_deterministic_algorithms(True)，调用该操作时将抛出 RuntimeError。",
    ),
    "deterministic, when": (
        ":deterministic-algorithms: Deterministic\n   :when: called on a CUDA tensor",
        (
            "When called on a CUDA tensor, this operation will act deterministically if "
            "torch.use_deterministic_algorithms(True) is set."
        ),
        (
            "当 called on a CUDA tensor 时，如果设置了 torch.use_deterministic_algorithms(True)，"
            "该操作将以确定性方式运行。"
        ),
    ),
    "deterministic": (
        ":deterministic-algorithms: deterministic",
        (
            "If torch.use_deterministic_algorithms(True) is set, this operation will act "
            "deterministically."
        ),
        "如果设置了 torch.use_deterministic_algorithms(True)，该操作将以确定性方式运行。",
    ),
    "when": (
        ":when: ``mode='max'``",
        "This is the case when mode='max'.",
        "这种情况发生在 mode='max' 时。",
    ),
}

#: The sentences of a CUDA forward note before and after the added one.
AROUND = {
    "pytorch-1.4": (
        (
            "When using the CUDA backend, this operation may induce nondeterministic behaviour "
            "that is not easily switched off."
        ),
        "Please see the notes on Reproducibility for background.",
    ),
    "pytorch-2": (
        "This operation may behave nondeterministically when given tensors on a CUDA device.",
        "See Reproducibility for more information.",
    ),
    "pytorch-1.4 zh_CN": (
        "使用 CUDA 后端时，该操作可能产生不易关闭的非确定性行为。",
        "背景信息请参阅 Reproducibility 说明。",
    ),
    "pytorch-2 zh_CN": (
        "当输入张量位于 CUDA 设备上时，该操作的行为可能是非确定性的。",
        "更多信息请参阅 Reproducibility。",
    ),
}


def wording(note) -> str:
    return " ".join(note.select("p")[1].get_text().split())


@pytest.mark.parametrize("wording_set", ["pytorch-1.4", "pytorch-2"])
@pytest.mark.parametrize(("options", "sentence", "zh_cn"), SENTENCES.values(), ids=SENTENCES.keys())
@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_note_says_it_in_both_sets(build_page, wording_set, options, sentence, zh_cn, language):
    app = build_page(
        f".. cuda-deterministic::\n   {options}\n",
        confoverrides={"reprodocs_wording": wording_set, "language": language, "nitpicky": True},
    )
    assert app.warning.getvalue() == ""
    (note,) = notes_in(parse_html(app.outdir / "index.html"))
    key = wording_set if language == "en" else f"{wording_set} zh_CN"
    before, after = AROUND[key]
    if language == "en":
        assert wording(note) == f"{before} {sentence} {after}"
    else:  # Chinese sentences take no space between them
        assert wording(note) == before + zh_cn + after
    # PyTorch's words: a RuntimeError is Python's class (resolved quietly, as
    # a built-in), the switch a literal.
    if "RuntimeError" in sentence:
        assert note.find("code", string="RuntimeError")["class"][:3] == ["xref", "py", "py-class"]
    if "use_deterministic_algorithms" in sentence:
        literal = note.find("code", string=lambda s: s and "use_deterministic" in s)
        assert "literal" in literal["class"]


def test_the_condition_is_inline_restructuredtext(build_page):
    app = build_page(
        ".. py:function:: torch.put(index)\n\n"
        "   .. nondeterministic::\n"
        "      :deterministic-algorithms: raises\n"
        "      :when: *index* has repeats and :func:`torch.put` is called\n"
    )
    assert app.warning.getvalue() == ""
    (note,) = notes_in(parse_html(app.outdir / "index.html"))
    assert note.find("em").get_text() == "index"
    assert note.find("a", href="#torch.put").get_text() == "torch.put()"
    assert "When index has repeats and torch.put() is called, this operation" in wording(note)


def test_template_variables_stay_escaped(build_page):
    # Only :when: and :alternative: are reStructuredText; the rest is text.
    app = build_page(
        ".. nondeterministic::\n"
        "   :backend: *CUDA*\n"
        "   :op: torch.`x`\n"
        "   :deterministic-algorithms: raises\n"
        "   :when: ``<script>``\n"
    )
    assert app.warning.getvalue() == ""
    (note,) = notes_in(parse_html(app.outdir / "index.html"))
    assert "When using the *CUDA* backend" in wording(note)
    assert note.find("code", string="<script>")
    assert not note.find("script")


# Validation


#: (body, the directive and line the located error or warning names, text in it)
INVALID = {
    "deterministic-algorithms": (
        ".. nondeterministic::\n   :deterministic-algorithms: sometimes\n",
        "nondeterministic",
        8,
        'invalid option value: (option: "deterministic-algorithms"',
    ),
    "empty when": (".. cuda-deterministic::\n   :when:\n", "cuda-deterministic", 8, "when"),
    "empty wording": (
        ".. cudnn-deterministic::\n   :wording:\n",
        "cudnn-deterministic",
        8,
        "wording",
    ),
    "list format": (
        ".. nondeterministic-ops::\n   :format: grid\n",
        "nondeterministic-ops",
        8,
        'invalid option value: (option: "format"',
    ),
    "list filter": (
        ".. nondeterministic-ops::\n   :deterministic-algorithms: maybe\n",
        "nondeterministic-ops",
        8,
        'invalid option value: (option: "deterministic-algorithms"',
    ),
}


@pytest.mark.parametrize(
    ("body", "directive", "line", "text"), INVALID.values(), ids=INVALID.keys()
)
def test_invalid_values_are_located_errors(build_page, body, directive, line, text):
    app = build_page(body)
    warnings = strip_colors(app.warning.getvalue())
    assert "Traceback" not in warnings
    located = f'{app.srcdir / "index.rst"}:{line}: ERROR: Error in "{directive}" directive'
    assert located in warnings, warnings
    assert text in warnings
    assert (app.outdir / "index.html").is_file()


def test_a_wording_naming_no_set_is_a_located_warning(build_page):
    app = build_page(
        ".. cuda-deterministic::\n   :wording: pytorch-3\n   :when: called on a CUDA tensor\n",
        confoverrides={"reprodocs_wording": "pytorch-2"},
    )
    warnings = strip_colors(app.warning.getvalue())
    assert (
        f"{app.srcdir / 'index.rst'}:8: WARNING: cuda-deterministic: :wording: pytorch-3 names "
        "no wording set (the sets are pytorch-1.4, pytorch-2); using the site's"
    ) in warnings
    assert warnings.count("WARNING") == 1
    # The site's wording is used, and the note is kept with its other options.
    (note,) = notes_in(parse_html(app.outdir / "index.html"))
    assert wording(note).startswith("This operation may behave nondeterministically")
    (kept,) = app.env.get_domain("reprodocs").notes()
    assert (kept.wording, kept.when) == ("", "called on a CUDA tensor")
    app.cleanup()  # the next app registers Sphinx's nodes again, without warnings
    silenced = {"suppress_warnings": ["reprodocs.wording"]}
    app = build_page(".. cuda-deterministic::\n   :wording: pytorch-3\n", confoverrides=silenced)
    assert app.warning.getvalue() == ""


@pytest.mark.parametrize("word", ["when", "When"])
def test_a_condition_starting_with_when_is_a_located_warning(build_page, word):
    app = build_page(
        ".. py:function:: torch.histc(input)\n\n"
        "   .. cuda-deterministic::\n"
        "      :deterministic-algorithms: raises\n"
        f"      :when: {word} called on a CUDA tensor\n\n"
        ".. nondeterministic-ops::\n   :format: list\n"
    )
    warnings = strip_colors(app.warning.getvalue())
    assert (
        f"{app.srcdir / 'index.rst'}:10: WARNING: cuda-deterministic: :when: {word} called on a "
        'CUDA tensor starts with "when", which the note adds; it is dropped'
    ) in warnings
    assert warnings.count("WARNING") == 1
    # The word is dropped: the note, the list and the index read as without it.
    (note,) = notes_in(parse_html(app.outdir / "index.html"))
    assert "When called on a CUDA tensor, this operation will throw" in wording(note)
    (raises,) = lists(parse_html(app.outdir / "index.html"))
    assert items(raises) == ["torch.histc() when called on a CUDA tensor"]
    (kept,) = app.env.get_domain("reprodocs").notes()
    assert kept.when == "called on a CUDA tensor"
    app.cleanup()  # the next app registers Sphinx's nodes again, without warnings
    silenced = {"suppress_warnings": ["reprodocs.when"]}
    app = build_page(".. cuda-deterministic::\n   :when: when called\n", confoverrides=silenced)
    assert app.warning.getvalue() == ""


def test_a_condition_only_starting_like_when_is_kept(build_page):
    app = build_page(
        ".. cuda-deterministic::\n   :op: torch.histc\n   :when: whenever it is called\n\n"
        ".. cuda-deterministic::\n   :op: torch.bincount\n   :when: when\n"
    )
    assert app.warning.getvalue() == ""
    assert [note.when for note in app.env.get_domain("reprodocs").notes()] == [
        "whenever it is called",
        "when",
    ]


def test_a_wording_naming_no_set_in_a_docstring_points_there(make_app, tmp_path):
    srcdir = write_page_project(tmp_path / "src", ".. autofunction:: regmod.histc\n")
    (srcdir / "regmod.py").write_text(
        'def histc(input):\n    """Histogram.\n\n    .. cuda-deterministic::\n'
        '       :wording: pytorch-3\n    """\n'
    )
    (srcdir / "conf.py").write_text(
        'import sys\nsys.path.insert(0, \'.\')\nextensions = ["sphinx.ext.autodoc", "reprodocs"]\n'
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(srcdir))
        app = make_app("html", srcdir=srcdir, freshenv=True)
        app.build()
    warnings = strip_colors(app.warning.getvalue())
    assert f"{srcdir / 'regmod.py'}:docstring of regmod.histc:3: WARNING: cuda-deterministic: " in (
        warnings
    )


# Several notes on one operation


def test_notes_on_put_under_two_conditions_are_no_duplicates(build_registry):
    app = build_registry()
    assert app.warning.getvalue() == ""
    put_ = [
        n for n in app.env.get_domain("reprodocs").notes() if n.operation == "torch.Tensor.put_"
    ]
    assert [(n.when, n.deterministic_algorithms) for n in put_] == [
        ("``accumulate=False``", "raises"),
        ("``accumulate=True`` and called on a CUDA tensor", "raises"),
    ]
    assert put_[0] == Note(
        "torch.Tensor.put_",
        "nondeterministic",
        "CUDA",
        "forward",
        "api",
        30,
        deterministic_algorithms="raises",
        when="``accumulate=False``",
    )


@pytest.mark.parametrize(
    ("second", "warning"),
    [
        # The same condition twice is the same note twice.
        (
            ":pass: forward\n      :when: ``accumulate=False``",
            "already carries this note (line 10)",
        ),
        # Under another condition, another pass is no contradiction...
        (":pass: backward\n      :when: ``accumulate=True``", None),
        # ... under the same one it is.
        (
            ":pass: backward\n      :when: ``accumulate=False``",
            "is noted with :pass: backward here",
        ),
        # The same condition, and a note that says what deterministic mode
        # does beside one that does not: two claims, no contradiction.
        (
            (
                ":pass: forward\n      :when: ``accumulate=False``\n"
                "      :deterministic-algorithms: raises"
            ),
            None,
        ),
    ],
)
def test_duplicates_and_conflicts_count_the_condition(build_page, second, warning):
    app = build_page(
        ".. py:function:: torch.put(index)\n\n"
        "   .. nondeterministic::\n      :pass: forward\n      :when: ``accumulate=False``\n\n"
        f"   .. nondeterministic::\n      {second}\n"
    )
    warnings = strip_colors(app.warning.getvalue())
    if warning is None:
        assert warnings == ""
    else:
        assert warning in warnings
        assert warnings.count("WARNING") == 1


@pytest.mark.parametrize(
    ("second", "warning"),
    [
        # The same condition, the other effect of deterministic mode...
        (
            (
                "nondeterministic::\n      :when: ``accumulate=False``\n"
                "      :deterministic-algorithms: deterministic"
            ),
            (
                "nondeterministic: torch.put is noted with :deterministic-algorithms: "
                "deterministic here but raises in index (line 10)"
            ),
        ),
        # ... on another backend too: deterministic mode does one thing to a call...
        (
            (
                "cudnn-deterministic::\n      :when: ``accumulate=False``\n"
                "      :deterministic-algorithms: deterministic"
            ),
            (
                "cudnn-deterministic: torch.put is noted with :deterministic-algorithms: "
                "deterministic here but raises in index (line 10)"
            ),
        ),
        # ... under one condition; under another it may do the other.
        (
            (
                "nondeterministic::\n      :when: ``accumulate=True``\n"
                "      :deterministic-algorithms: deterministic"
            ),
            None,
        ),
    ],
)
def test_raises_and_deterministic_under_one_condition_conflict(build_page, second, warning):
    body = (
        ".. py:function:: torch.put(index)\n\n"
        "   .. nondeterministic::\n      :when: ``accumulate=False``\n"
        "      :deterministic-algorithms: raises\n\n"
        f"   .. {second}\n"
    )
    app = build_page(body)
    warnings = strip_colors(app.warning.getvalue())
    if warning is None:
        assert warnings == ""
    else:
        # Located at the second note, as a conflict of passes is.
        assert f"{app.srcdir / 'index.rst'}:14: WARNING: {warning}" in warnings
        assert warnings.count("WARNING") == 1
        app.cleanup()  # the next app registers Sphinx's nodes again, without warnings
        silenced = {"suppress_warnings": ["reprodocs.conflict"]}
        app = build_page(body, confoverrides=silenced)
        assert app.warning.getvalue() == ""


# nondeterministic.json


def test_json_carries_what_deterministic_mode_does_and_when(build_registry):
    app = build_registry()
    exported = exported_index(app.outdir)  # valid against the schema
    assert exported["version"] == 3
    by_name = {}
    for operation in exported["operations"]:
        by_name.setdefault(operation["name"], []).append(operation)
    assert [
        (op["deterministic_algorithms"], op["when"]) for op in by_name["torch.Tensor.put_"]
    ] == [
        ("raises", "``accumulate=False``"),
        ("raises", "``accumulate=True`` and called on a CUDA tensor"),
    ]
    assert by_name["torch.nn.Conv1d"][0]["deterministic_algorithms"] == "deterministic"
    (grid_sample,) = by_name["torch.nn.functional.grid_sample"]
    assert (grid_sample["deterministic_algorithms"], grid_sample["when"]) == (None, None)
    assert by_name["torch.nn.functional.interpolate"][0]["when"] == (
        "attempting to differentiate a CUDA tensor and *mode* is ``linear`` or ``bilinear`` "
        "(see :func:`torch.histc`)"
    )


def test_the_drift_check_treats_these_notes_like_any_other(build_registry):
    known = [
        "torch.histc",
        "torch.bincount",
        "torch.cumsum",
        "torch.Tensor.scatter_add_",
        "torch.Tensor.index_put_",
        "torch.nn.Conv1d",
        "torch.nn.functional.interpolate",
        "torch.nn.functional.grid_sample",
        "torch.median",
    ]
    app = build_registry(reprodocs_known_ops=known)
    warnings = strip_colors(app.warning.getvalue())
    api = app.srcdir / "api.rst"
    assert (
        f"{api}:30: WARNING: nondeterministic: torch.Tensor.put_ is not in reprodocs_known_ops"
        in (warnings)
    )
    assert (
        f"{api}:35: WARNING: nondeterministic: torch.Tensor.put_ is not in reprodocs_known_ops"
        in (warnings)
    )
    assert "WARNING: reprodocs_known_ops: torch.median has no nondeterminism note" in warnings
    assert warnings.count("WARNING") == 3


# Incremental builds


def html_mtimes(outdir: Path) -> dict[str, int]:
    return {str(p.relative_to(outdir)): p.stat().st_mtime_ns for p in outdir.rglob("*.html")}


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


# A wording per note


MIXED = (
    ".. py:function:: torch.bincount(input)\n\n"
    "   .. cuda-deterministic::\n\n"
    ".. py:function:: torch.histc(input)\n\n"
    "   .. cuda-deterministic::\n"
    "      :wording: pytorch-1.4\n\n"
    ".. py:function:: torch.cumsum(input)\n\n"
    "   .. cuda-deterministic::\n"
    "      :wording: pytorch-2\n"
)


@pytest.mark.parametrize("site", ["pytorch-1.4", "pytorch-2"])
def test_each_note_keeps_its_wording_on_a_mixed_site(build_page, site):
    app = build_page(MIXED, confoverrides={"reprodocs_wording": site})
    assert app.warning.getvalue() == ""
    bincount, histc, cumsum = (
        wording(note) for note in notes_in(parse_html(app.outdir / "index.html"))
    )
    assert histc == " ".join(AROUND["pytorch-1.4"][:1] + AROUND["pytorch-1.4"][1:])
    assert cumsum == " ".join(AROUND["pytorch-2"])
    assert bincount == " ".join(AROUND[site])
    assert {note.operation: note.wording for note in app.env.get_domain("reprodocs").notes()} == {
        "torch.bincount": "",
        "torch.histc": "pytorch-1.4",
        "torch.cumsum": "pytorch-2",
    }


def test_a_notes_wording_wins_over_the_projects_note_template(make_app, tmp_path):
    srcdir = write_page_project(tmp_path / "src", MIXED)
    (srcdir / "_templates" / "reprodocs").mkdir(parents=True)
    (srcdir / "_templates" / "reprodocs" / "note.rst").write_text("Ours on {{ backend }}.\n")
    with (srcdir / "conf.py").open("a") as conf:
        conf.write('templates_path = ["_templates"]\n')
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    assert app.warning.getvalue() == ""
    bincount, histc, cumsum = (
        wording(note) for note in notes_in(parse_html(app.outdir / "index.html"))
    )
    assert bincount == "Ours on CUDA."
    assert histc == " ".join(AROUND["pytorch-1.4"])
    assert cumsum == " ".join(AROUND["pytorch-2"])


def test_editing_a_set_a_note_names_rewords_it(make_app, tmp_path):
    # The site's set is pytorch-1.4; one note names pytorch-2, which the
    # project replaces: editing that template re-reads the noted page.
    srcdir = write_page_project(tmp_path / "src", MIXED)
    sets = srcdir / "_templates" / "reprodocs" / "wording"
    sets.mkdir(parents=True)
    (sets / "pytorch-2.rst").write_text("Version one on {{ backend }}.\n")
    with (srcdir / "conf.py").open("a") as conf:
        conf.write('templates_path = ["_templates"]\n')
    first = make_app("html", srcdir=srcdir)
    first.build()
    assert wording(notes_in(parse_html(first.outdir / "index.html"))[2]) == "Version one on CUDA."
    first.cleanup()
    (sets / "pytorch-2.rst").write_text("Version two on {{ backend }}.\n")
    again = make_app("html", srcdir=srcdir)
    again.build()
    assert again.warning.getvalue() == ""
    bincount, _, cumsum = notes_in(parse_html(again.outdir / "index.html"))
    assert wording(cumsum) == "Version two on CUDA."
    assert wording(bincount).startswith("When using the CUDA backend")
