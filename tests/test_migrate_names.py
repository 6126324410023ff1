"""reprodocs.migrate.names: which names name one operation, and the other
forms PyTorch gives it (names from torch 2.13.0's lists and notes)."""

from __future__ import annotations

import pytest

from reprodocs import migrate
from reprodocs.migrate.names import operation_word, operation_words


def test_names_match_exactly_or_where_a_package_re_exports_them():
    assert migrate.names_match("torch.histc", "torch.histc") == 2
    assert migrate.names_match("torch.nn.Conv1d", "torch.nn.modules.conv.Conv1d") == 1
    assert migrate.names_match("torch.nn.Conv1d.forward", "torch.nn.modules.conv.Conv1d.forward")
    assert not migrate.names_match("torch.index_add", "torch.Tensor.index_add_")
    assert not migrate.names_match("torch.nn.CTCLoss", "torch.nn.functional.ctc_loss")
    assert not migrate.names_match("torch.nn.Conv1d", "torch.nn.Conv1d.forward")
    assert not migrate.names_match("torch.nn.Conv1d", "torchvision.nn.Conv1d")


@pytest.mark.parametrize(
    ("listed", "noted"),
    [
        # torch 2.13.0's lists name these notes' operations otherwise.
        ("torch.index_add", "torch.Tensor.index_add_"),
        ("torch.Tensor.scatter_reduce", "torch.Tensor.scatter_reduce_"),
        ("torch.nn.CTCLoss", "torch.nn.functional.ctc_loss"),
        ("torch.nn.EmbeddingBag", "torch.nn.functional.embedding_bag"),
        ("torch.nn.modules.loss.CTCLoss", "torch.nn.functional.ctc_loss"),
        ("torch.nn.AdaptiveAvgPool2d", "torch.nn.functional.adaptive_avg_pool2d"),
    ],
)
def test_kin_are_the_forms_pytorch_gives_one_operation(listed, noted):
    assert migrate.kin(listed, noted)
    assert migrate.kin(noted, listed)


@pytest.mark.parametrize(
    ("listed", "noted"),
    [
        ("torch.histc", "torch.histc"),  # one name, not another form
        ("torch.nn.Conv1d", "torch.nn.modules.conv.Conv1d"),  # re-exported: names_match
        ("torch.Tensor.scatter", "torch.Tensor.scatter_add_"),
        ("torch.Tensor.__getitem__", "torch.__getitem__"),  # special names have no forms
        ("torch.nn.CTCLoss", "torch.ctc_loss"),  # a module's function is torch.nn.functional's
        ("numpy.add", "numpy.ndarray.add"),  # only torch's conventions
    ],
)
def test_kin_are_not_one_name_nor_other_operations(listed, noted):
    assert not migrate.kin(listed, noted)


def test_the_words_of_a_text_name_every_form_of_an_operation():
    words = operation_words("class CTCLoss(_Loss):\n    def forward(self): torch.index_add_(\n")
    for name in ("torch.nn.CTCLoss", "torch.nn.functional.ctc_loss", "torch.index_add"):
        assert operation_word(name) in words
    assert operation_word("torch.Tensor.index_add_") in words
    assert operation_word("torch.nn.functional.interpolate") not in words
