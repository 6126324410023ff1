"""A text being rewritten, line by line: its lines as read (:class:`Lines`),
the new text (:class:`Output`), and what one pass over it shares with the
forms it rewrites (:class:`Rewriting`)."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from reprodocs.base.vocabulary import NOTE_DIRECTIVES, RUNTIME_TEXT_OPTION
from reprodocs.migrate.model import WORDING_OPTION, FoundNote, Migration, Notice, Plan
from reprodocs.migrate.owners import ObjectScopes
from reprodocs.migrate.settings import Settings

#: The width migrate wraps a long option value to (``:when:``), continued on
#: lines indented further, as reStructuredText reads a field's body.
OPTION_WIDTH = 88

EXPLICIT_MARKUP = re.compile(r"\.\.(?:\s|$)")
_LINE_ENDING = re.compile(r"(\r\n|\r|\n)")


def indent_of(line: str) -> int:
    expanded = line.expandtabs(8)
    return len(expanded) - len(expanded.lstrip())


def option_lines(indent: str, options: Iterable[tuple[str, str]]) -> list[str]:
    """Directive options, indented by *indent*; a long value wrapped."""
    lines = []
    for name, value in options:
        lines += textwrap.wrap(
            value,
            width=OPTION_WIDTH,
            initial_indent=f"{indent}:{name}: ",
            subsequent_indent=f"{indent}   ",
            break_long_words=False,
            break_on_hyphens=False,
        ) or [f"{indent}:{name}:"]
    return lines


@dataclass(frozen=True)
class StringLiteral:
    """A Python string literal whose text is rewritten: the line it starts on
    in the file as read and as written, and the operations it documents. In
    it PyTorch 2.x's placeholders are rewritten too, and its first line,
    which follows the quotes, is at the margin of the lines after it."""

    line: int
    new_line: int
    operations: tuple[str, ...] = ()


class Lines:
    """A text's lines as read, without their line endings: line *i* is the
    file's line ``first_line + i``."""

    def __init__(self, text: str, first_line: int = 1, docstring: bool = False) -> None:
        parts = _LINE_ENDING.split(text)
        self.contents, self.endings = parts[0::2], [*parts[1::2], ""]
        self.first_line = first_line
        self.indents = [indent_of(line) for line in self.contents]
        if docstring and len(self.contents) > 1 and self.contents[0].strip():
            # A docstring's first line follows the quotes; it belongs to the
            # same margin as the lines after it (as in inspect.cleandoc).
            rest = [self.indents[i] for i in range(1, len(self)) if not self.blank(i)]
            self.indents[0] = min(rest, default=0)
        self.newline = next((ending for ending in self.endings if ending), "\n")

    def __len__(self) -> int:
        return len(self.contents)

    def __getitem__(self, i: int) -> str:
        return self.contents[i]

    def stripped(self, i: int) -> str:
        """Line *i* without its indentation."""
        return self.contents[i].lstrip()

    def leading(self, i: int) -> str:
        """Line *i*'s indentation, as written."""
        line = self.contents[i]
        return line[: len(line) - len(line.lstrip())]

    def blank(self, i: int) -> bool:
        return not (0 <= i < len(self.contents)) or not self.contents[i].strip()

    def starts_block(self, i: int) -> bool:
        """Line *i* is not the continuation of a paragraph above it."""
        previous = i - 1
        return (
            self.blank(previous)
            or self.indents[previous] != self.indents[i]
            or bool(EXPLICIT_MARKUP.match(self.stripped(previous)))
        )

    def next_non_blank(self, i: int) -> int:
        while i < len(self.contents) and self.blank(i):
            i += 1
        return i

    def previous_non_blank(self, i: int) -> int:
        while i >= 0 and self.blank(i):
            i -= 1
        return i

    def explicit_markup_beside(self, i: int, j: int) -> bool:
        """Line *j* is explicit markup (``..``) indented as line *i*: the two need
        no blank line between them."""
        return (
            not self.blank(j)
            and self.indents[j] == self.indents[i]
            and bool(EXPLICIT_MARKUP.match(self.stripped(j)))
        )


class Output:
    """The new text, line by line with their line endings, and where each
    line of the old text went, by the file's line numbers (a line replaced:
    the first of its replacement)."""

    def __init__(self, lines: Lines, new_first_line: int) -> None:
        self.lines = lines
        #: The number of the text's first line in the new file.
        self.new_first_line = new_first_line
        self.written: list[str] = []
        self.moved: dict[int, int] = {}

    def keep(self, first: int, last: int | None = None) -> None:
        """Lines *first* to *last* (or line *first*), as they are."""
        for i in range(first, first + 1 if last is None else last + 1):
            self.move(i)
            self.written.append(self.lines[i] + self.lines.endings[i])

    def move(self, i: int, offset: int = 0) -> None:
        """Line *i* goes to the new text's next line (plus *offset*)."""
        self.moved[self.lines.first_line + i] = self.new_first_line + len(self.written) + offset

    def emit(self, lines: list[str], last: int) -> None:
        """*lines* in place of lines ending with line *last*: each with a line
        ending, the last with *last*'s (none at the end of the text)."""
        ending = self.lines.endings[last]
        for number, line in enumerate(lines, 1):
            self.written.append(line + (ending if number == len(lines) else self.lines.newline))

    def blank_line(self, i: int) -> None:
        """A blank line, with line *i*'s line ending."""
        self.written.append(self.lines.endings[i])

    def ends_in_text(self) -> bool:
        """The last line written holds text."""
        return bool(self.written and self.written[-1].strip())

    def drop_blank_line_at_end(self) -> None:
        """The last line written taken back, if blank (the one setting apart
        what is not written after all)."""
        if self.written and not self.written[-1].strip():
            self.written.pop()

    def drop_blank_lines_at_end(self) -> None:
        while self.written and not self.written[-1].strip():
            self.written.pop()


class ListDirectiveSeen(NamedTuple):
    """The last list directive filtered by ``:deterministic-algorithms:``,
    which the items of its list still kept by hand may follow."""

    first: int
    last: int
    indent: int
    kind: str


class Rewriting:
    """One pass over a text: its lines, the new text, what the settings ask,
    what is found, and what the forms share. *literal*: the Python string
    literal the text is, None for a reStructuredText file."""

    def __init__(self, text: str, settings: Settings, literal: StringLiteral | None) -> None:
        first_line, new_first_line = (literal.line, literal.new_line) if literal else (1, 1)
        self.lines = Lines(text, first_line, docstring=literal is not None)
        self.out = Output(self.lines, new_first_line)
        self.wording = settings.wording
        self.plan = settings.plan or Plan()
        self.literal = literal
        self.scopes = ObjectScopes(literal.operations if literal else ())
        self.found = Migration(text)
        self.list_directive: ListDirectiveSeen | None = None
        #: The place of the last list directive's items: what follows it
        #: (the items kept by hand, the entries standing in their place),
        #: its last line so far.
        self.list_place: ListDirectiveSeen | None = None

    def line_number(self, i: int) -> int:
        """Line *i*'s number in the file."""
        return self.lines.first_line + i

    def notice(self, i: int, message: str) -> None:
        self.found.notices.append(Notice(self.line_number(i), message))

    def result(self) -> Migration:
        """The new text, and what was found in the old."""
        self.found.text = "".join(self.out.written)
        self.found.moved = self.out.moved
        return self.found

    def write_note(
        self, first: int, last: int, directive: str, wording: str, runtime_text: str = ""
    ) -> int:
        """A legacy note, on lines *first* to *last*, rewritten as the note
        directive *directive* with the options the plan gives it, indented
        as *first*, set apart by a blank line from text before and after it
        (not from a less indented line above, whose body it is, nor from
        explicit markup beside it); the next line to read. The legacy note
        had the words of the set *wording*; *runtime_text*, what ``help()``
        showed of it, is kept as its ``:runtime-text:``."""
        lines, out = self.lines, self.out
        backend, affected_pass = NOTE_DIRECTIVES[directive]
        note_line = self.line_number(first)
        operations = self.scopes.operations()
        self.found.notes.append(
            FoundNote(note_line, directive, operations, backend, affected_pass, {}, wording)
        )
        # Its own options first, as a directive already there has them: the
        # plan's, given now or by a later run, come after them alike.
        options = [(WORDING_OPTION, wording)] if wording != self.wording else []
        if runtime_text:
            options.append((RUNTIME_TEXT_OPTION, runtime_text))
        options += self.plan.options.get(note_line, [])
        indent = lines.leading(first)
        if (
            out.ends_in_text()
            and lines.indents[first - 1] >= lines.indents[first]
            and not lines.explicit_markup_beside(first, first - 1)
        ):
            out.blank_line(first - 1)
        for i in range(first, last + 1):
            out.move(i)
        out.emit([f"{indent}.. {directive}::", *option_lines(indent + "   ", options)], last)
        if not lines.blank(last + 1) and not lines.explicit_markup_beside(first, last + 1):
            out.blank_line(last)
        return last + 1
