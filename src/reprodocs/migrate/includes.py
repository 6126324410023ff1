"""PyTorch 1.4's form: ``.. include:: cuda_deterministic_backward.rst`` (and
``cuda_deterministic.rst``, ``cudnn_deterministic.rst``, under any relative
path), in reStructuredText files and in Python string literals, becomes the
note directive."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from reprodocs.base.i18n import __
from reprodocs.base.vocabulary import (
    CUDA_DETERMINISTIC,
    CUDA_DETERMINISTIC_BACKWARD,
    CUDNN_DETERMINISTIC,
)
from reprodocs.migrate.text import Rewriting

#: The note files PyTorch 1.4 included, and the directive each one becomes.
INCLUDED_NOTES = {
    "cuda_deterministic_backward.rst": CUDA_DETERMINISTIC_BACKWARD,
    "cuda_deterministic.rst": CUDA_DETERMINISTIC,
    "cudnn_deterministic.rst": CUDNN_DETERMINISTIC,
}

#: The wording set whose words the included notes had.
INCLUDE_WORDING = "pytorch-1.4"

_INCLUDE = re.compile(r"\.\.\s+include::\s+(\S+)\s*$")


def marked(text: str) -> bool:
    """*text* names a note file (or is not worth reading for this form)."""
    return any(name in text for name in INCLUDED_NOTES)


def include(rewriting: Rewriting, i: int) -> int | None:
    """An include of a note file on line *i*, rewritten; the next line to
    read. None where line *i* is no such include, or one left as is (reported)."""
    lines = rewriting.lines
    match = _INCLUDE.match(lines.stripped(i))
    if not match or PurePosixPath(match[1]).name not in INCLUDED_NOTES:
        return None
    if not lines.starts_block(i):
        rewriting.notice(i, str(__("left as is: this include is part of a paragraph")))
        return None
    if not lines.blank(i + 1) and lines.indents[i + 1] > lines.indents[i]:
        rewriting.notice(i, str(__("left as is: this include has options or content")))
        return None
    directive = INCLUDED_NOTES[PurePosixPath(match[1]).name]
    return rewriting.write_note(i, i, directive, INCLUDE_WORDING)
