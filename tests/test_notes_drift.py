"""The drift check: the notes against ``reprodocs_known_ops``, both ways."""

from __future__ import annotations

from sphinx.util.console import strip_colors

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
