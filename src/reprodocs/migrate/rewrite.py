"""The pass over a text of reStructuredText (a file's, or a Python string
literal's), line by line: each line is offered to the forms in turn; the
first that takes it rewrites it (or keeps it, as the directives already
there are kept) and says where to read on. A line no form takes is kept,
with the literal block, comment or code it opens, where nothing is
rewritten.

A fifth legacy form goes in a module of its own, as the four there are: a
function taking the :class:`~reprodocs.migrate.text.Rewriting` and a line,
returning the next line to read (None: not its form), and a function saying
whether a text may hold it; both are added to :data:`FORMS` here."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from reprodocs.migrate import existing_directives, includes, lists, placeholders
from reprodocs.migrate.entries import append_entries
from reprodocs.migrate.model import Migration
from reprodocs.migrate.settings import DEFAULT_SETTINGS, Settings
from reprodocs.migrate.text import EXPLICIT_MARKUP, Lines, Rewriting, StringLiteral

_DIRECTIVE = re.compile(r"\.\.\s+(?:[\w-]+:)?([\w-]+)::")
_NOT_A_COMMENT = re.compile(r"\.\.\s+(?:[\w:.+-]+::|_|\||\[)")

#: Directives whose content is not reStructuredText: nothing in it is rewritten.
LITERAL_DIRECTIVES = frozenset(
    {
        "code",
        "code-block",
        "sourcecode",
        "parsed-literal",
        "literalinclude",
        "math",
        "raw",
        "doctest",
        "testcode",
        "testoutput",
        "testsetup",
        "testcleanup",
        "productionlist",
        "csv-table",
        "graphviz",
        "graph",
        "digraph",
    }
)


class Form(NamedTuple):
    """A form migrate reads: *rewrite* takes line *i* of the text and
    returns the next line to read, or None when line *i* is not its form;
    *marked* says whether a text may hold it (a file whose text may hold no
    form is not parsed)."""

    rewrite: Callable[[Rewriting, int], int | None]
    marked: Callable[[str], bool]


#: The forms, in the order each line is offered to them: the directives
#: already there, the hand-kept lists, then the legacy notes.
FORMS = (
    Form(existing_directives.note_directive, existing_directives.marked),
    Form(existing_directives.list_directive, existing_directives.marked),
    Form(lists.hand_kept_list, lists.marked),
    Form(includes.include, includes.marked),
    Form(placeholders.placeholder, placeholders.marked),
)


def worth_reading(text: str) -> bool:
    """*text* may hold one of the forms."""
    return any(form.marked(text) for form in FORMS)


def rewrite_text(
    text: str, settings: Settings = DEFAULT_SETTINGS, literal: StringLiteral | None = None
) -> Migration:
    """*text*, reStructuredText (a file's, or the Python string *literal*'s),
    with its legacy notes and lists rewritten as *settings* say, and the
    entries their plan gives a docstring added at its end; its line endings
    are kept."""
    rewriting = Rewriting(text, settings, literal)
    lines = rewriting.lines
    i = 0
    while i < len(lines):
        if literal is None and not lines.blank(i):
            rewriting.scopes.follow(lines[i].strip(), lines.indents[i])
        i = _rewrite_line(rewriting, i)
    append_entries(rewriting)
    return rewriting.result()


def _rewrite_line(rewriting: Rewriting, i: int) -> int:
    """Line *i*, rewritten by the first form that takes it, or kept (with
    the literal block it opens); the next line to read."""
    for form in FORMS:
        next_line = form.rewrite(rewriting, i)
        if next_line is not None:
            return next_line
    lines = rewriting.lines
    last = i
    if _opens_literal_block(lines, i):
        deeper = lines.indents[i]
        while last + 1 < len(lines) and (lines.blank(last + 1) or lines.indents[last + 1] > deeper):
            last += 1
    rewriting.out.keep(i, last)
    return last + 1


def _opens_literal_block(lines: Lines, i: int) -> bool:
    """Line *i* starts a block whose indented content is not reStructuredText:
    a literal block after ``::``, a comment, a code directive."""
    text = lines[i].strip()
    if not EXPLICIT_MARKUP.match(text):
        return text.endswith("::") and lines.blank(i + 1)
    if directive := _DIRECTIVE.match(text):
        return directive[1] in LITERAL_DIRECTIVES
    return not _NOT_A_COMMENT.match(text)
