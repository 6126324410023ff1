"""reprodocs.migrate.owners: a note is known by the operation it is on."""

from __future__ import annotations

from pathlib import Path

import migrate_support
from migrate_support import LISTS
from reprodocs import migrate

# The fixtures these tests take, by their names.
tree = migrate_support.tree


def found_notes(root: Path) -> dict[tuple[str, int], tuple[str, tuple[str, ...]]]:
    notes = {}
    for source in migrate.source_files([str(root)]):
        for note in migrate.migrate_file(source.path)[1].notes:
            notes[str(note.path.relative_to(root)), note.line] = (note.directive, note.operations)
    return notes


def test_a_note_is_known_by_the_operation_it_is_on(tree):
    root = tree(LISTS)
    assert found_notes(root) == {
        # autodoc's object directives around a note, in the current module
        ("docs/source/nn.rst", 12): ("cuda-deterministic-backward", ("torch.nn.AvgPool3d",)),
        # :op: names it
        ("docs/source/nn.rst", 20): ("nondeterministic", ("torch.nn.MaxUnpool1d",)),
        ("docs/source/torch.rst", 14): ("cuda-deterministic", ("torch.cumsum",)),
        # add_docstr_all("put_", ...), which documents torch._C.TensorBase.put_
        ("torch/_tensor_docs.py", 20): ("cuda-deterministic", ("torch.Tensor.index_add_",)),
        ("torch/_tensor_docs.py", 33): ("cuda-deterministic", ("torch.Tensor.put_",)),
        ("torch/_tensor_docs.py", 51): ("cuda-deterministic", ("torch.Tensor.scatter_add_",)),
        ("torch/_torch_docs.py", 26): ("cuda-deterministic-backward", ("torch.bincount",)),
        # conv1d = _add_docstr(torch.conv1d, ...): both names
        ("torch/nn/functional.py", 15): (
            "cudnn-deterministic",
            ("torch.nn.functional.conv1d", "torch.conv1d"),
        ),
        ("torch/nn/functional.py", 26): ("cudnn-deterministic", ("torch.nn.functional.ctc_loss",)),
        ("torch/nn/functional.py", 29): (
            "cuda-deterministic-backward",
            ("torch.nn.functional.ctc_loss",),
        ),
        ("torch/nn/functional.py", 45): (
            "cuda-deterministic-backward",
            ("torch.nn.functional.interpolate",),
        ),
        # a class's __doc__ = (...), where the class is defined
        ("torch/nn/modules/conv.py", 15): (
            "cudnn-deterministic",
            ("torch.nn.modules.conv.Conv1d",),
        ),
    }
