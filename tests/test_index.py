"""The collected index: the table, the JSON export and the drift check."""

from __future__ import annotations

import copy

import jsonschema
import pytest
from sphinx.util.console import strip_colors

from conftest import exported_index, index_validator, parse_html, text_of
from reprodocs.notes.nondeterministic_ops import JSON_VERSION


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


def test_filters_and_the_empty_sentence(build_notes):
    app = build_notes()
    soup = parse_html(app.outdir / "notes" / "randomness.html")
    rocm = tables(soup)[1]
    assert table_rows(rocm) == [["torch.Tensor.index_add_", "ROCm", "forward", "nondeterministic"]]
    xla = soup.find("section", id="on-xla-in-the-forward-pass")
    assert not xla.find("table")
    assert (
        text_of(xla.find("p")) == "No operation in this documentation is noted as nondeterministic."
    )


def test_invalid_filter_is_a_located_warning(build_page):
    app = build_page(".. nondeterministic-ops::\n   :pass: sideways\n")
    warnings = strip_colors(app.warning.getvalue())
    assert (
        f'{app.srcdir / "index.rst"}:8: ERROR: Error in "nondeterministic-ops" directive'
        in warnings
    )
    assert "Traceback" not in warnings


def test_json_export(build_notes):
    app = build_notes()
    exported = exported_index(app.outdir)
    assert exported["version"] == 3
    assert exported["project"] == "Notes test"
    operations = exported["operations"]
    assert [op["name"] for op in operations] == [
        None,  # the page-level note of "Notes test"
        "torch.Tensor.index_add_",
        "torch.Tensor.put_",
        "torch.bincount",
        "torch.nn.functional.ctc_loss",
        "torch.nn.functional.ctc_loss",
        "torch.nn.functional.grid_sample",
    ]
    assert operations[1] == {
        "name": "torch.Tensor.index_add_",
        "directive": "nondeterministic",
        "backend": "ROCm",
        "pass": "forward",
        "docname": "api",
        "uri": "api.html#torch.Tensor.index_add_",
        "deterministic_algorithms": None,
        "when": None,
        "with": None,
        "cases": [],
        "aliases": [],
        "listed_as": None,
        "alerts": [],
        "renders": True,
    }
    # Every uri is a real page of the output, and its anchor a real id.
    for op in operations:
        page, _, anchor = op["uri"].partition("#")
        soup = parse_html(app.outdir / page)
        assert not anchor or soup.find(id=anchor), op


@pytest.mark.parametrize(
    ("builder", "uri"),
    [
        ("dirhtml", "api/#torch.bincount"),
        ("singlehtml", "index.html#torch.bincount"),
        ("singlehtml", "index.html#document-page"),
    ],
)
def test_json_uris_follow_the_builder(build_notes, builder, uri):
    app = build_notes(builder)
    exported = exported_index(app.outdir)
    assert uri in [op["uri"] for op in exported["operations"]]


def test_schema_is_the_exported_version():
    assert index_validator().schema["properties"]["version"]["const"] == JSON_VERSION


@pytest.mark.parametrize(
    "break_it",
    [
        lambda d: d.update(version=1),
        lambda d: d.pop("project"),
        lambda d: d.update(extra=True),
        lambda d: d["operations"][0].update({"pass": "sideways"}),
        lambda d: d["operations"][0].pop("uri"),
        lambda d: d["operations"][0].update(name=""),
        lambda d: d["operations"][0].update(backend=None),
        lambda d: d["operations"][0].pop("when"),
        lambda d: d["operations"][0].update(when=""),
        lambda d: d["operations"][0].update(deterministic_algorithms="sometimes"),
        lambda d: d["operations"][0].pop("deterministic_algorithms"),
    ],
)
def test_schema_rejects_other_documents(build_notes, break_it):
    exported = exported_index(build_notes().outdir)
    broken = copy.deepcopy(exported)
    break_it(broken)
    with pytest.raises(jsonschema.ValidationError):
        index_validator().validate(broken)


def test_json_export_can_be_switched_off(build_notes):
    app = build_notes(reprodocs_export_json=False)
    assert not (app.outdir / "nondeterministic.json").exists()


def test_no_json_outside_html(build_notes):
    app = build_notes("text")
    assert not (app.outdir / "nondeterministic.json").exists()
    text = (app.outdir / "notes" / "randomness.txt").read_text(encoding="utf-8")
    assert "torch.nn.functional.grid_sample" in text


KNOWN = [
    "torch.bincount",
    "torch.nn.functional.ctc_loss",
    "torch.nn.functional.grid_sample",
    "torch.Tensor.index_add_",
    "torch.Tensor.put_",
    "torch.nn.functional.embedding_bag",
]


def test_drift_check_warns_both_ways(build_notes):
    known = [op for op in KNOWN if op != "torch.bincount"]
    app = build_notes(reprodocs_known_ops=known)
    warnings = strip_colors(app.warning.getvalue())
    assert (
        "api.rst:28: WARNING: cuda-deterministic: torch.bincount is not in reprodocs_known_ops"
    ) in warnings
    assert (
        "WARNING: reprodocs_known_ops: torch.nn.functional.embedding_bag has no nondeterminism note"
    ) in warnings
    assert warnings.count("WARNING") == 2


def test_drift_check_reads_a_file(build_notes, notes_project):
    (notes_project / "known.txt").write_text(
        "# raise under torch.use_deterministic_algorithms(True)\n\n"
        + "\n".join(op for op in KNOWN if op != "torch.nn.functional.embedding_bag")
        + "  # trailing comment\n"
    )
    app = build_notes(reprodocs_known_ops="known.txt")
    assert app.warning.getvalue() == ""


def test_drift_check_unreadable_file(build_notes, notes_project):
    app = build_notes(reprodocs_known_ops="nope.txt")
    warnings = strip_colors(app.warning.getvalue())
    assert f"WARNING: reprodocs_known_ops: cannot read {notes_project / 'nope.txt'}" in warnings
    assert warnings.count("WARNING") == 1
