"""PyTorch 2.x's form, in Python string literals only: the placeholders
``{forward_reproducibility_note}``, ``{backward_reproducibility_note}`` and
``{cudnn_reproducibility_note}``. A note block (``Note:`` or ``.. note::``)
whose whole body is the placeholder becomes the directive, which renders the
note itself; a placeholder forming a paragraph of its own becomes the
directive in place, the placeholder kept as its ``:runtime-text:`` (what
``help()`` shows): ``.format(**reproducibility_notes, ...)`` fills it in at
import, as before, and the build checks it against the note's wording."""

from __future__ import annotations

import re

from reprodocs.base.i18n import __
from reprodocs.base.vocabulary import (
    CUDA_DETERMINISTIC,
    CUDA_DETERMINISTIC_BACKWARD,
    CUDNN_DETERMINISTIC,
)
from reprodocs.migrate.text import Rewriting

#: PyTorch 2.x's placeholders (the keys of ``torch._torch_docs.reproducibility_notes``),
#: and the directive each one becomes.
PLACEHOLDERS = {
    "forward_reproducibility_note": CUDA_DETERMINISTIC,
    "backward_reproducibility_note": CUDA_DETERMINISTIC_BACKWARD,
    "cudnn_reproducibility_note": CUDNN_DETERMINISTIC,
}

#: The wording set whose words the placeholders had.
PLACEHOLDER_WORDING = "pytorch-2"

_PLACEHOLDER_LINE = re.compile(r"\{(" + "|".join(PLACEHOLDERS) + r")\}\s*$")
_ONE_LINE_NOTE = re.compile(r"\.\.\s+note::\s+\{(" + "|".join(PLACEHOLDERS) + r")\}\s*$")
_PLACEHOLDER = re.compile(r"\{+(" + "|".join(PLACEHOLDERS) + r")\}+")
_NOTE_HEADER = re.compile(r"(?:Note:|\.\.\s+note::)\s*$")


def marked(text: str) -> bool:
    """*text* names a placeholder (or is not worth reading for this form)."""
    return any(name in text for name in PLACEHOLDERS)


def _placeholders_in(line: str) -> list[str]:
    """The placeholders a line formats; ``{{...}}`` is a literal brace, not one."""
    return [m[1] for m in _PLACEHOLDER.finditer(line) if m[0].count("{") % 2 == 1]


def placeholder(rewriting: Rewriting, i: int) -> int | None:
    """The placeholders on line *i* of a string literal, or the note block
    it begins, rewritten; the next line to read. None where line *i* holds
    none, or only placeholders left as is (reported)."""
    if rewriting.literal is None:
        return None
    lines = rewriting.lines
    names = _placeholders_in(lines[i])
    if not names:
        return _note_block(rewriting, i) if _NOTE_HEADER.match(lines.stripped(i)) else None
    if lines.starts_block(i):
        if match := _PLACEHOLDER_LINE.match(lines.stripped(i)):
            alone = lines.blank(i + 1) or lines.indents[i + 1] < lines.indents[i]
        elif match := _ONE_LINE_NOTE.match(lines.stripped(i)):  # the note's whole body?
            after = lines.next_non_blank(i + 1)
            alone = after == len(lines) or lines.indents[after] <= lines.indents[i]
        if match and alone:
            return _write(rewriting, i, i, match[1])
    for name in names:
        rewriting.notice(i, __("left as is: {%s} is not a paragraph of its own") % name)
    return None


def _note_block(rewriting: Rewriting, i: int) -> int | None:
    """A note block (``Note:``, ``.. note::``) on line *i* whose body is one
    placeholder, rewritten as the directive; the next line to read, or None."""
    lines = rewriting.lines
    if lines.stripped(i).startswith("..") and not lines.starts_block(i):
        return None  # a paragraph's text, not a directive
    body = lines.next_non_blank(i + 1)
    if body >= len(lines) or lines.indents[body] <= lines.indents[i]:
        return None
    match = _PLACEHOLDER_LINE.match(lines.stripped(body))
    after = lines.next_non_blank(body + 1)
    if not match or (after < len(lines) and lines.indents[after] > lines.indents[i]):
        return None
    return _write(rewriting, i, body, match[1])


def _write(rewriting: Rewriting, first: int, last: int, name: str) -> int:
    """The note on lines *first* to *last*, whose body is the placeholder
    *name*, written as its directive; the placeholder stays as its
    ``:runtime-text:``, which ``.format(**reproducibility_notes)`` fills in at
    import as before: ``help()`` shows the same sentence."""
    return rewriting.write_note(first, last, PLACEHOLDERS[name], PLACEHOLDER_WORDING, f"{{{name}}}")
