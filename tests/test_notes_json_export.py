"""``nondeterministic.json``: the notes the HTML builders show, valid against
its JSON Schema."""

from __future__ import annotations

import copy

import jsonschema
import pytest

from conftest import (
    exported_index,
    index_validator,
    parse_html,
)
from reprodocs.notes.nondeterministic_ops import JSON_VERSION


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
        "registry_file": None,
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
