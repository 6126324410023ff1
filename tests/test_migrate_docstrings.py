"""reprodocs.migrate.docstrings: where an operation's docstring is, whether
an entry can be written at its end, and its note in prose, on excerpts of
torch 2.13.0's sources (their shapes kept, their prose shortened)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reprodocs.migrate.docstrings import docstrings, may_document, prose_note
from reprodocs.migrate.model import ParseError

POOLING = '''\
class MaxUnpool1d(_MaxUnpoolNd):
    r"""Computes a partial inverse of :class:`MaxPool1d`.

    Note:
        This operation may behave nondeterministically when the input indices has repeat values.
        See https://github.com/pytorch/pytorch/issues/80827 and :doc:`/notes/randomness` for more information.

    Examples::

        >>> unpool = nn.MaxUnpool1d(2, stride=2)
    """
'''

CONV = '''\
class ConvTranspose1d(_ConvTransposeNd):
    __doc__ = (
        r"""Applies a 1D transposed convolution operator over an input image.

    {groups_note}

    Note:
        In some circumstances when using the CUDA backend with CuDNN, this operator
        may select a nondeterministic algorithm to increase performance.
    """.format(**reproducibility_notes, **convolution_notes)
        + r"""

    Attributes:
        weight (Tensor): the learnable weights of the module
    """
    )
'''

TENSOR_DOCS = '''\
import torch._C
from torch._C import _add_docstr as add_docstr


def add_docstr_all(method, docstr):
    add_docstr(getattr(torch._C.TensorBase, method), docstr)


add_docstr_all(
    "resize_",
    r"""
resize_(*sizes, memory_format=torch.contiguous_format) -> Tensor

.. note::

    If :func:`torch.use_deterministic_algorithms()` and
    :attr:`torch.utils.deterministic.fill_uninitialized_memory` are both set to
    ``True``, new elements are initialized to prevent nondeterministic behavior
    from using the result as an input to an operation.
""",
)

add_docstr_all("scatter_reduce", "Out-of-place version of scatter_reduce_")

add_docstr_all(
    "index_put",
    r"""
index_put(indices, values, accumulate=False) -> Tensor

Out-place version of :meth:`~Tensor.index_put_`. Example::
""",
)

add_docstr_all(
    "put_",
    r"""
put_(index, source, accumulate=False) -> Tensor

{forward_reproducibility_note}
""".format(**reproducibility_notes),
)
'''


def found(source: str, module: str, operations: list[str], tmp_path: Path) -> dict:
    path = tmp_path / "module.py"
    return {found.operation: found for found in docstrings(source, path, module, False, operations)}


def test_a_class_docstring_and_its_note_in_prose(tmp_path):
    (unpool,) = found(
        POOLING, "torch.nn.modules.pooling", ["torch.nn.MaxUnpool1d"], tmp_path
    ).values()

    # Found under the name the module gives it (torch.nn re-exports it).
    assert unpool.operation == "torch.nn.modules.pooling.MaxUnpool1d"
    assert (unpool.line, unpool.takes_entries, unpool.formatted) == (2, True, False)
    assert unpool.prose_note is not None
    assert (unpool.prose_note.line, unpool.prose_note.backend) == (5, "")
    assert unpool.prose_note.backward is None


def test_a_docstring_of_several_strings_ends_with_its_last(tmp_path):
    (conv,) = found(CONV, "torch.nn.modules.conv", ["torch.nn.ConvTranspose1d"], tmp_path).values()

    # The sum's last string, not formatted, takes the entries.
    assert (conv.line, conv.takes_entries, conv.formatted) == (11, True, False)
    assert conv.prose_note is not None
    assert (conv.prose_note.line, conv.prose_note.backend) == (9, "cuDNN")


def test_strings_that_cannot_take_an_entry(tmp_path):
    names = ["torch.Tensor.resize_", "torch.Tensor.scatter_reduce", "torch.Tensor.index_put"]
    names.append("torch.Tensor.put_")
    by_name = found(TENSOR_DOCS, "torch._tensor_docs", names, tmp_path)

    # Words about nondeterminism that say no operation may be nondeterministic.
    assert by_name["torch.Tensor.resize_"].prose_note is None
    assert by_name["torch.Tensor.resize_"].takes_entries
    # A string of one line; one whose last paragraph introduces a literal block.
    assert not by_name["torch.Tensor.scatter_reduce"].takes_entries
    assert not by_name["torch.Tensor.index_put"].takes_entries
    # Formatted: it takes an entry without braces (entries.writable decides).
    assert by_name["torch.Tensor.put_"].takes_entries
    assert by_name["torch.Tensor.put_"].formatted


def test_a_sum_of_strings_formatted_whole_is_formatted(tmp_path):
    # The last string of a sum that is formatted is formatted too.
    source = (
        "def histc():\n"
        '    pass\n\n\nhistc.__doc__ = (r"""Histogram.\n\n"""\n'
        '    + r"""\n{note}\n""") % notes\n'
    )
    (histc,) = found(source, "torch", ["torch.histc"], tmp_path).values()
    assert (histc.line, histc.takes_entries, histc.formatted) == (8, True, True)


def test_files_that_cannot_hold_the_docstring_are_not_parsed(tmp_path):
    assert may_document(POOLING, {"MaxUnpool1d"})
    assert not may_document(POOLING, {"bmm", "histc"})


@pytest.mark.parametrize(("source", "line"), [("x = 1\n\ndef (:\n", 3), ("x = 1\n\0\n", 2)])
def test_a_file_this_python_cannot_parse_is_an_error_at_its_line(tmp_path, source, line):
    # It may hold the docstrings: none is said to be missing.
    with pytest.raises(ParseError) as error:
        docstrings(source, tmp_path / "x.py", "x", False, ["x.f"])
    assert error.value.line == line


def test_prose_naming_a_backend_and_a_pass():
    # torch.nn.functional.grid_sample's, torch 2.13.0.
    value = (
        "Compute grid sample.\n\n"
        "Note:\n"
        "    When using the CUDA backend, this operation may induce nondeterministic\n"
        "    behaviour in its backward pass that is not easily switched off.\n"
    )
    note = prose_note(value, Path("functional.py"), 10)
    assert note is not None
    assert (note.line, note.backend, note.backward) == (13, "CUDA", True)
    # A directive's name is no prose.
    assert prose_note("Sum.\n\n.. nondeterministic::\n   :op: torch.sum\n", Path(), 1) is None
