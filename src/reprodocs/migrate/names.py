"""Which names name one operation: a list's item and a note's operation
(:func:`names_match`), and the other forms PyTorch gives an operation
(:func:`kin`): a list may name a note's operation by one of them."""

from __future__ import annotations

import re

#: Where PyTorch's modules are, whose functions ``torch.nn.functional`` has
#: (``torch.nn.CTCLoss``, ``torch.nn.functional.ctc_loss``).
_MODULES = "torch.nn."
#: Where PyTorch's functions are, whose methods ``torch.Tensor`` has
#: (``torch.index_add``, ``torch.Tensor.index_add_``).
_FUNCTIONS = "torch."
_WORD_START = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def names_match(item: str, note: str) -> int:
    """2 when the list's *item* names the operation *note* (one of a note's
    names) exactly, 1 when it names it where a package re-exports it
    (``torch.nn.Conv1d`` for ``torch.nn.modules.conv.Conv1d``), else 0."""
    if item == note:
        return 2
    wanted, named = item.split("."), note.split(".")
    extra = len(named) - len(wanted)
    if extra <= 0:
        return 0
    return int(
        any(
            named[:k] == wanted[:k] and named[k + extra :] == wanted[k:]
            for k in range(1, len(wanted))
        )
    )


def kin(item: str, note: str) -> bool:
    """The two names are forms PyTorch gives one operation, and not one
    name: a function, its ``torch.Tensor`` method and that method's in-place
    form (``torch.index_add``, ``torch.Tensor.index_add_``;
    ``torch.Tensor.scatter_reduce``, ``torch.Tensor.scatter_reduce_``), or a
    module of ``torch.nn`` and its function in ``torch.nn.functional``
    (``torch.nn.CTCLoss``, ``torch.nn.functional.ctc_loss``)."""
    if names_match(item, note):
        return False
    key = _operation_key(item)
    return key is not None and key == _operation_key(note)


def _operation_key(name: str) -> tuple[str, str] | None:
    """What the forms of one operation share: its family (``torch.nn``'s or
    torch's) and its name in snake case, without an in-place underscore."""
    if not name.startswith(_FUNCTIONS):
        return None
    last = name.rpartition(".")[2].rstrip("_")
    if not last or last.startswith("_"):
        return None  # a private or special name (``__getitem__``)
    family = "nn" if name.startswith(_MODULES) else "torch"
    return family, _WORD_START.sub("_", last).lower()


_WORD = re.compile(r"[A-Za-z_]\w*")


def operation_words(text: str) -> frozenset[str]:
    """The names *text* holds, each as every form of it is
    (:func:`operation_word`): what a file that could not be parsed may document."""
    return frozenset(map(operation_word, _WORD.findall(text)))


def operation_word(name: str) -> str:
    """What the forms of an operation's last name share, whatever names the
    rest: snake case, without an in-place underscore (``index_add`` for
    ``torch.Tensor.index_add_``, ``ctc_loss`` for ``torch.nn.CTCLoss``)."""
    last = name.rpartition(".")[2].rstrip("_")
    return _WORD_START.sub("_", last).lower()
