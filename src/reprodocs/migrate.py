"""PyTorch's legacy reproducibility notes rewritten as reprodocs directives
(``python -m reprodocs migrate``).

Two forms are rewritten:

* PyTorch 1.4's ``.. include:: cuda_deterministic_backward.rst`` (and
  ``cuda_deterministic.rst``, ``cudnn_deterministic.rst``, under any relative
  path), in reStructuredText files and in Python string literals;
* PyTorch 2.x's ``{forward_reproducibility_note}``,
  ``{backward_reproducibility_note}`` and ``{cudnn_reproducibility_note}``
  placeholders, in Python string literals. A note block (``Note:`` or
  ``.. note::``) whose whole body is the placeholder becomes the directive,
  which renders the note itself; a placeholder forming a paragraph of its own
  becomes the directive in place.

A directive written from a legacy note keeps the words it had: where the
site's wording (``--wording``, its ``reprodocs_wording``) is another set, it
gets ``:wording:`` naming the set whose words the note had (PyTorch 1.4's
for an include, PyTorch 2.x's for a placeholder).

The two lists hand-kept in ``torch.use_deterministic_algorithms``' docstring
(the operations that "will act deterministically" and those that "will throw
a RuntimeError" when ``mode=True``) are read too: each item is matched, by
its operation and its condition, to a note (a legacy one, or a directive
already there), which gets ``:deterministic-algorithms:`` and ``:when:``;
each list becomes a ``.. nondeterministic-ops::`` directive generating it
from the notes, followed by the items no note matched, still kept by hand
and reported until someone writes their notes (:func:`match_lists`).

The rewriting works line by line on the source text; Python files are read
with ``tokenize``, so only the text inside string literals is ever changed.
The replacements hold no brace, so ``.format(**reproducibility_notes, ...)``
calls keep working. Anything that looks like a legacy note but cannot be
rewritten safely is left as is and reported as a :class:`Notice`.
"""

from __future__ import annotations

import ast
import contextlib
import difflib
import errno
import io
import os
import re
import stat
import sys
import textwrap
import tokenize
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import NamedTuple, TextIO

from reprodocs.base.files import create_temporary, remove_stale_temporaries
from reprodocs.base.i18n import __
from reprodocs.base.vocabulary import DETERMINISTIC, LIST_DIRECTIVE, NOTE_DIRECTIVES, RAISES

#: The note files PyTorch 1.4 included, and the directive each one becomes.
INCLUDED_NOTES = {
    "cuda_deterministic_backward.rst": "cuda-deterministic-backward",
    "cuda_deterministic.rst": "cuda-deterministic",
    "cudnn_deterministic.rst": "cudnn-deterministic",
}

#: PyTorch 2.x's placeholders (the keys of ``torch._torch_docs.reproducibility_notes``),
#: and the directive each one becomes.
PLACEHOLDERS = {
    "forward_reproducibility_note": "cuda-deterministic",
    "backward_reproducibility_note": "cuda-deterministic-backward",
    "cudnn_reproducibility_note": "cudnn-deterministic",
}

#: The wording set whose words each legacy form had.
INCLUDE_WORDING, PLACEHOLDER_WORDING = "pytorch-1.4", "pytorch-2"

#: The site's wording when ``--wording`` does not name it: the extension's
#: default (``reprodocs.notes.wording.DEFAULT_SET``, not imported: migrate
#: needs neither Sphinx's HTML nor Jinja).
DEFAULT_WORDING = "pytorch-1.4"

SUFFIXES = (".rst", ".py")

#: The width migrate wraps a long option value to (``:when:``), continued on
#: lines indented further, as reStructuredText reads a field's body.
OPTION_WIDTH = 88

_INCLUDE = re.compile(r"\.\.\s+include::\s+(\S+)\s*$")
_PLACEHOLDER_LINE = re.compile(r"\{(" + "|".join(PLACEHOLDERS) + r")\}\s*$")
_ONE_LINE_NOTE = re.compile(r"\.\.\s+note::\s+\{(" + "|".join(PLACEHOLDERS) + r")\}\s*$")
_PLACEHOLDER = re.compile(r"\{+(" + "|".join(PLACEHOLDERS) + r")\}+")
_NOTE_HEADER = re.compile(r"(?:Note:|\.\.\s+note::)\s*$")
_EXPLICIT_MARKUP = re.compile(r"\.\.(?:\s|$)")
_DIRECTIVE = re.compile(r"\.\.\s+(?:[\w-]+:)?([\w-]+)::")
_LINE_ENDING = re.compile(r"(\r\n|\r|\n)")
_NOT_A_COMMENT = re.compile(r"\.\.\s+(?:[\w:.+-]+::|_|\||\[)")
_NOTE_DIRECTIVE = re.compile(r"\.\.\s+(" + "|".join(NOTE_DIRECTIVES) + r")::(?:\s|$)")
_LIST_DIRECTIVE = re.compile(r"\.\.\s+" + LIST_DIRECTIVE + r"::\s*$")
_OPTION = re.compile(r":([\w-]+):(?:\s+(.*))?$")
_BULLET = re.compile(r"([*+-])(?:\s+(.*))?$")
#: An item of the lists: ``:class:`torch.nn.AvgPool3d` when ...``.
_ITEM = re.compile(r":(?:py:)?(\w+):`([^`]+)`(.*)$", re.DOTALL)
_DETERMINISTIC_INTRO = re.compile(r"\bact\s+deterministically\b.*:$", re.DOTALL)
_RAISES_INTRO = re.compile(
    r"\bthrow\s+an?\s+(?::[\w:]+:)?`*~?(?:builtins\.)?RuntimeError\b.*:$", re.DOTALL
)
#: Text that makes a file worth reading (it is not parsed otherwise).
_MIGRATE_MARKS = (
    *INCLUDED_NOTES,
    *PLACEHOLDERS,
    *(f"{name}::" for name in (*NOTE_DIRECTIVES, LIST_DIRECTIVE)),
)
_DETERMINISTIC_WORDS = re.compile(r"act\s+deterministically")
_RAISES_WORDS = re.compile(r"throw\s+an?\s+\S*RuntimeError")
#: Python's object directives, whose content is about the object they name.
_OBJECT_DIRECTIVE = re.compile(
    r"\.\.\s+(?:py:)?(auto)?(function|class|method|classmethod|staticmethod|attribute|"
    r"property|data|exception|decorator|decoratormethod)::\s+([\w.]+)"
)
_MODULE_DIRECTIVE = re.compile(
    r"\.\.\s+(?:py:)?(?:currentmodule|module|automodule)::\s+([\w.]+)\s*$"
)
#: Object directives naming a member of a class (which autodoc finds in the module).
_MEMBER_KINDS = frozenset(
    {"method", "classmethod", "staticmethod", "attribute", "property", "decoratormethod"}
)

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


@dataclass(frozen=True)
class Notice:
    """A legacy note left as is, because rewriting it could change its meaning."""

    line: int
    message: str


@dataclass
class FoundNote:
    """A note: a legacy one that is rewritten as a directive, or a directive
    already there (*legacy_wording* None)."""

    line: int
    directive: str
    #: The names of the operation it is on, the one to report first; empty
    #: where migrate cannot tell.
    operations: tuple[str, ...]
    backend: str
    affected_pass: str
    #: A directive's options, as written.
    options: dict[str, str] = field(default_factory=dict)
    #: The wording set whose words a legacy note had.
    legacy_wording: str | None = None
    path: Path = Path()


@dataclass
class ListItem:
    """An item of a hand-kept list: ``* :class:`torch.nn.AvgPool3d` when ...``."""

    line: int
    #: Its text, on one line (for reports).
    text: str
    #: The operation, fully qualified; "" when the item names none.
    operation: str = ""
    #: The text after "when" (whitespace collapsed; "" for an item without a
    #: condition); None where that cannot be a note's ``:when:``.
    condition: str | None = ""
    #: Why there is no condition (a message).
    problem: str = ""


@dataclass
class HandKeptList:
    """One of the two lists of ``torch.use_deterministic_algorithms``' docstring,
    as written by hand; *remainder*: the items kept after a list directive by
    an earlier migration. Its *line* is its introduction's first ("The
    following normally-nondeterministic operations..."), or the directive's."""

    line: int
    kind: str
    items: list[ListItem]
    remainder: bool = False
    path: Path = Path()


@dataclass
class Plan:
    """What the lists' migration changes in one file: the options each note
    gets (by the note's line), and which items each hand-kept list keeps (by
    the list's line: its items' lines)."""

    options: dict[int, list[tuple[str, str]]] = field(default_factory=dict)
    kept: dict[int, list[int]] = field(default_factory=dict)


@dataclass
class Migration:
    """A file's text after migration, what was left as is, and the notes and
    hand-kept lists found in it."""

    text: str
    notices: list[Notice] = field(default_factory=list)
    notes: list[FoundNote] = field(default_factory=list)
    lists: list[HandKeptList] = field(default_factory=list)
    #: How many list directives filtered by ``:deterministic-algorithms:`` it has.
    list_directives: int = 0
    #: Where the lines of the file went in the new text, by line number (a
    #: line replaced: the first of its replacement).
    moved: dict[int, int] = field(default_factory=dict)


class ParseError(Exception):
    """A file that cannot be read as reStructuredText or Python."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


# The rewriting of reStructuredText lines


def _indent(line: str) -> int:
    expanded = line.expandtabs(8)
    return len(expanded) - len(expanded.lstrip())


def _placeholders_in(line: str) -> list[str]:
    """The placeholders a line formats; ``{{...}}`` is a literal brace, not one."""
    return [m[1] for m in _PLACEHOLDER.finditer(line) if m[0].count("{") % 2 == 1]


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _option_lines(indent: str, options: Iterable[tuple[str, str]]) -> list[str]:
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


class _Lines:
    """Lines of reStructuredText (without their line endings) rewritten in one
    pass; ``first_line`` is the number of the first one in the file.

    *operations* names the object the text documents (a docstring's); with
    *objects*, Python object directives (``.. autofunction:: name``) name the
    object of their content. *wording* is the site's wording set, *plan* the
    lists' migration (options for notes, the items a hand-kept list keeps).
    """

    def __init__(
        self,
        lines: list[str],
        endings: list[str],
        first_line: int,
        placeholders: bool,
        docstring: bool,
        *,
        wording: str = DEFAULT_WORDING,
        operations: tuple[str, ...] = (),
        objects: bool = False,
        plan: Plan | None = None,
        new_first_line: int | None = None,
    ) -> None:
        self.lines = lines
        self.endings = endings
        self.first_line = first_line
        self.placeholders = placeholders
        self.indents = [_indent(line) for line in lines]
        if docstring and len(lines) > 1 and lines[0].strip():
            # A docstring's first line follows the quotes; it belongs to the
            # same margin as the lines after it (as in inspect.cleandoc).
            rest = [self.indents[i] for i in range(1, len(lines)) if lines[i].strip()]
            self.indents[0] = min(rest, default=0)
        self.newline = next((ending for ending in endings if ending), "\n")
        self.wording = wording
        self.operations = operations
        self.objects = objects
        self.plan = plan or Plan()
        self.module = ""  # the current module, in a reStructuredText file
        self.scopes: list[tuple[int, str]] = []  # the object directives around a line
        #: The last list directive filtered by ``:deterministic-algorithms:``:
        #: its last line, its indentation, its value and its first line.
        self.list_directive_end: tuple[int, int, str, int] | None = None
        self.out: list[str] = []  # the new lines, with their endings
        #: The number of the first line in the new file, and where each line went.
        self.new_first_line = first_line if new_first_line is None else new_first_line
        self.moved: dict[int, int] = {}
        self.notices: list[Notice] = []
        self.notes: list[FoundNote] = []
        self.lists: list[HandKeptList] = []
        self.list_directives = 0

    def blank(self, i: int) -> bool:
        return not (0 <= i < len(self.lines)) or not self.lines[i].strip()

    def starts_block(self, i: int) -> bool:
        """Line *i* is not the continuation of a paragraph above it."""
        previous = i - 1
        return (
            self.blank(previous)
            or self.indents[previous] != self.indents[i]
            or bool(_EXPLICIT_MARKUP.match(self.lines[previous].lstrip()))
        )

    def next_non_blank(self, i: int) -> int:
        while i < len(self.lines) and self.blank(i):
            i += 1
        return i

    def previous_non_blank(self, i: int) -> int:
        while i >= 0 and self.blank(i):
            i -= 1
        return i

    def notice(self, i: int, message: str) -> None:
        self.notices.append(Notice(self.first_line + i, message))

    def keep(self, i: int) -> None:
        self.move(i)
        self.out.append(self.lines[i] + self.endings[i])

    def move(self, i: int, offset: int = 0) -> None:
        """Line *i* goes to the new text's next line (plus *offset*)."""
        self.moved[self.first_line + i] = self.new_first_line + len(self.out) + offset

    def leading(self, i: int) -> str:
        line = self.lines[i]
        return line[: len(line) - len(line.lstrip())]

    def emit(self, lines: list[str], last: int) -> None:
        """*lines* in place of lines ending with line *last*: each with a line
        ending, the last with *last*'s (none at the end of the text)."""
        for number, line in enumerate(lines, 1):
            self.out.append(line + (self.endings[last] if number == len(lines) else self.newline))

    def explicit_markup_beside(self, i: int, j: int) -> bool:
        """Line *j* is explicit markup (``..``) indented as line *i*: the two need
        no blank line between them."""
        return (
            not self.blank(j)
            and self.indents[j] == self.indents[i]
            and bool(_EXPLICIT_MARKUP.match(self.lines[j].lstrip()))
        )

    def operation(self) -> tuple[str, ...]:
        """The names of the object the current line documents."""
        return (self.scopes[-1][1],) if self.scopes else self.operations

    def emit_directive(self, first: int, last: int, directive: str, wording: str) -> int:
        """``.. directive::`` instead of lines *first* to *last*, indented as
        *first*, set apart by a blank line from text before and after it (not
        from a less indented line above, whose body it is, nor from explicit
        markup beside it); the next line to read. The legacy note had the
        words of the set *wording*."""
        backend, affected_pass = NOTE_DIRECTIVES[directive]
        note_line = self.first_line + first
        self.notes.append(
            FoundNote(note_line, directive, self.operation(), backend, affected_pass, {}, wording)
        )
        options = list(self.plan.options.get(note_line, []))
        if wording != self.wording:
            options.append(("wording", wording))
        indent = self.leading(first)
        if (
            self.out
            and self.out[-1].strip()
            and self.indents[first - 1] >= self.indents[first]
            and not self.explicit_markup_beside(first, first - 1)
        ):
            self.out.append(self.endings[first - 1])
        for i in range(first, last + 1):
            self.move(i)
        self.emit([f"{indent}.. {directive}::", *_option_lines(indent + "   ", options)], last)
        if not self.blank(last + 1) and not self.explicit_markup_beside(first, last + 1):
            self.out.append(self.endings[last])
        return last + 1

    def rewrite(self) -> list[str]:
        i = 0
        literal_deeper_than: int | None = None
        while i < len(self.lines):
            if literal_deeper_than is not None:
                if self.blank(i) or self.indents[i] > literal_deeper_than:
                    self.keep(i)
                    i += 1
                    continue
                literal_deeper_than = None
            if self.objects and not self.blank(i):
                self.track_objects(i)
            handled = (
                self.note_directive(i)
                or self.list_directive(i)
                or self.hand_kept_list(i)
                or self.include(i)
                or (self.placeholders and self.placeholder(i))
            )
            if handled:
                i = handled
                continue
            if self.opens_literal_block(i):
                literal_deeper_than = self.indents[i]
            self.keep(i)
            i += 1
        return self.out

    def track_objects(self, i: int) -> None:
        """Follow the current module and the object directives around line *i*
        (a reStructuredText file's), as Sphinx names their objects."""
        while self.scopes and self.indents[i] <= self.scopes[-1][0]:
            self.scopes.pop()
        text = self.lines[i].strip()
        if module := _MODULE_DIRECTIVE.match(text):
            self.module = module[1]
        elif found := _OBJECT_DIRECTIVE.match(text):
            auto, kind, name = found.groups()
            if self.scopes:
                name = f"{self.scopes[-1][1]}.{name}"
            elif not (auto and "." in name and kind not in _MEMBER_KINDS) and self.module:
                # autodoc takes a dotted name of a module-level object as
                # absolute; Sphinx's own directives put it in the current module.
                name = f"{self.module}.{name}"
            self.scopes.append((self.indents[i], name))

    def opens_literal_block(self, i: int) -> bool:
        """Line *i* starts a block whose indented content is not reStructuredText:
        a literal block after ``::``, a comment, a code directive."""
        text = self.lines[i].strip()
        if not _EXPLICIT_MARKUP.match(text):
            return text.endswith("::") and self.blank(i + 1)
        if directive := _DIRECTIVE.match(text):
            return directive[1] in LITERAL_DIRECTIVES
        return not _NOT_A_COMMENT.match(text)

    def directive_options(self, i: int) -> tuple[dict[str, str], int, str]:
        """The options of the directive on line *i*: their values, the last
        line they take (*i* without options), and their indentation."""
        options: dict[str, str] = {}
        last, name, indent = i, "", ""
        j = i + 1
        while j < len(self.lines) and not self.blank(j) and self.indents[j] > self.indents[i]:
            text = self.lines[j].strip()
            if option := _OPTION.match(text):
                name = option[1]
                options[name] = (option[2] or "").strip()
                indent = indent or self.leading(j)
            elif name and self.indents[j] > _indent(indent):  # the value goes on
                options[name] = f"{options[name]} {text}".strip()
            else:
                break  # content (without the blank line after the options)
            last = j
            j += 1
        return options, last, indent or self.leading(i) + "   "

    def note_directive(self, i: int) -> int:
        """A note directive already there: kept, with the options the plan
        gives it added after its own; the next line to read, or 0."""
        match = _NOTE_DIRECTIVE.match(self.lines[i].lstrip())
        if not match or not self.starts_block(i):
            return 0
        directive = match[1]
        options, last, indent = self.directive_options(i)
        backend, affected_pass = NOTE_DIRECTIVES[directive]
        if directive == "nondeterministic":
            backend = options.get("backend") or backend
            affected_pass = (options.get("pass") or affected_pass).lower()
        operations = (options["op"],) if options.get("op") else self.operation()
        note_line = self.first_line + i
        self.notes.append(
            FoundNote(note_line, directive, operations, backend, affected_pass, options)
        )
        added = self.plan.options.get(note_line, [])
        for j in range(i, last + (not added)):
            self.keep(j)
        if added:
            self.emit([self.lines[last], *_option_lines(indent, added)], last)
        return last + 1

    def list_directive(self, i: int) -> int:
        """``.. nondeterministic-ops::``, kept; one filtered by
        ``:deterministic-algorithms:`` may be followed by the items of its
        list still kept by hand. The next line to read, or 0."""
        if not _LIST_DIRECTIVE.match(self.lines[i].lstrip()) or not self.starts_block(i):
            return 0
        options, last, _ = self.directive_options(i)
        kind = options.get("deterministic-algorithms", "").lower()
        if kind in (RAISES, DETERMINISTIC):
            self.list_directives += 1
            self.list_directive_end = (last, self.indents[i], kind, i)
        for j in range(i, last + 1):
            self.keep(j)
        return last + 1

    def list_kind(self, i: int) -> tuple[str, int, bool] | None:
        """The list a bullet list starting on line *i* is, where it begins
        (its introduction, or the list directive it is the remainder of), and
        whether it is a remainder; None for any other list."""
        if not _BULLET.match(self.lines[i].lstrip()) or not self.blank(i - 1):
            return None
        end = self.previous_non_blank(i - 1)
        if self.list_directive_end and self.list_directive_end[:2] == (end, self.indents[i]):
            return self.list_directive_end[2], self.list_directive_end[3], True
        if end < 0 or self.indents[end] > self.indents[i]:
            return None
        start = end
        while not self.blank(start - 1) and self.indents[start - 1] == self.indents[end]:
            start -= 1
        if _EXPLICIT_MARKUP.match(self.lines[start].lstrip()):
            return None
        intro = _collapse(" ".join(self.lines[start : end + 1]))
        if _DETERMINISTIC_INTRO.search(intro):
            return DETERMINISTIC, start, False
        if _RAISES_INTRO.search(intro):
            return RAISES, start, False
        return None

    def bullet_items(self, i: int) -> list[tuple[int, int]]:
        """The items of the bullet list starting on line *i*: each one's first
        and last non-blank lines."""
        indent, bullet = self.indents[i], self.lines[i].lstrip()[0]
        items = []
        start = i
        while True:
            end = start
            j = start + 1
            while j < len(self.lines) and (self.blank(j) or self.indents[j] > indent):
                if not self.blank(j):
                    end = j
                j += 1
            items.append((start, end))
            start = self.next_non_blank(end + 1)
            if not (
                start < len(self.lines)
                and self.indents[start] == indent
                and self.lines[start].lstrip().startswith(bullet)
                and _BULLET.match(self.lines[start].lstrip())
            ):
                return items

    def hand_kept_list(self, i: int) -> int:
        """One of the hand-kept lists, starting on line *i*: read, and
        replaced as the plan says (by the list directive and the items it
        keeps). The next line to read, or 0."""
        found = self.list_kind(i)
        if found is None:
            return 0
        kind, begins, remainder = found
        self.list_directive_end = None
        spans = self.bullet_items(i)
        items = [self.list_item(start, end) for start, end in spans]
        list_line = self.first_line + begins
        self.lists.append(HandKeptList(list_line, kind, items, remainder))
        end = spans[-1][1]
        kept = self.plan.kept.get(list_line)
        if kept is None:  # no plan: as it is
            for j in range(i, end + 1):
                self.keep(j)
            return end + 1
        lines: list[str] = []
        if not remainder:
            indent = self.leading(i)
            lines = [
                f"{indent}.. {LIST_DIRECTIVE}::",
                f"{indent}   :format: list",
                f"{indent}   :deterministic-algorithms: {kind}",
            ]
        kept_spans = [span for span in spans if self.first_line + span[0] in kept]
        for number, (start, stop) in enumerate(kept_spans):
            if lines and number == 0:
                lines.append("")
            for j in range(start, stop + 1):
                self.move(j, len(lines) + j - start)
            lines += self.lines[start : stop + 1]
            if number + 1 < len(kept_spans):  # the blank lines that followed it
                lines += [""] * (self.next_non_blank(stop + 1) - stop - 1)
        if not lines:  # a remainder whose items all have notes now: gone
            while self.out and not self.out[-1].strip():
                self.out.pop()
            return end + 1
        self.emit(lines, end)
        return end + 1

    def list_item(self, start: int, end: int) -> ListItem:
        """The item on lines *start* to *end*: its operation and condition."""
        first = _BULLET.match(self.lines[start].lstrip())
        paragraph = [first[2] if first and first[2] else ""]
        j = start + 1
        while j <= end and not self.blank(j) and not _BULLET.match(self.lines[j].lstrip()):
            paragraph.append(self.lines[j].strip())
            j += 1
        text = _collapse(" ".join(paragraph))
        nested = [self.lines[k].strip() for k in range(j, end + 1) if not self.blank(k)]
        item = ListItem(self.first_line + start, _collapse(" ".join([text, *nested])))
        match = _ITEM.match(text)
        target = (
            match[2].split("<")[-1].rstrip(">").lstrip("~!").removesuffix("()") if match else ""
        )
        if not match or not re.fullmatch(r"[\w.]+", target):
            item.condition, item.problem = None, str(__("it names no operation"))
            return item
        item.operation = target
        rest = match[3].strip()
        if nested:
            # A list of words inside the condition ("one of the following
            # modes is used:" and the modes): the words, after the colon.
            words = [_BULLET.match(line) for line in nested]
            if not rest.endswith(":") or not all(word and word[2] for word in words):
                item.condition = None
                item.problem = str(__("its condition is more than a line of text"))
                return item
            rest = f"{rest} " + ", ".join(word[2].strip() for word in words if word and word[2])
        if rest and not re.match(r"when\s", rest):
            item.condition = None
            item.problem = str(__("its condition does not begin with “when”"))
            return item
        item.condition = _collapse(rest[len("when") :]) if rest else ""
        return item

    def include(self, i: int) -> int:
        """PyTorch 1.4's ``.. include:: <note file>``; the next line to read, or 0."""
        line = self.lines[i]
        match = _INCLUDE.match(line.lstrip())
        if not match or PurePosixPath(match[1]).name not in INCLUDED_NOTES:
            return 0
        if not self.starts_block(i):
            self.notice(i, str(__("left as is: this include is part of a paragraph")))
            return 0
        if not self.blank(i + 1) and self.indents[i + 1] > self.indents[i]:
            self.notice(i, str(__("left as is: this include has options or content")))
            return 0
        directive = INCLUDED_NOTES[PurePosixPath(match[1]).name]
        return self.emit_directive(i, i, directive, INCLUDE_WORDING)

    def placeholder(self, i: int) -> int:
        """PyTorch 2.x's placeholders on line *i*; the next line to read, or 0."""
        line = self.lines[i]
        names = _placeholders_in(line)
        if not names:
            if _NOTE_HEADER.match(line.lstrip()):
                return self.note_block(i)
            return 0
        if self.starts_block(i):
            if match := _PLACEHOLDER_LINE.match(line.lstrip()):
                alone = self.blank(i + 1) or self.indents[i + 1] < self.indents[i]
            elif match := _ONE_LINE_NOTE.match(line.lstrip()):  # the note's whole body?
                after = self.next_non_blank(i + 1)
                alone = after == len(self.lines) or self.indents[after] <= self.indents[i]
            if match and alone:
                return self.emit_directive(i, i, PLACEHOLDERS[match[1]], PLACEHOLDER_WORDING)
        for name in names:
            self.notice(i, __("left as is: {%s} is not a paragraph of its own") % name)
        return 0

    def note_block(self, i: int) -> int:
        """A note block (``Note:``, ``.. note::``) whose body is one placeholder
        becomes the directive; the next line to read, or 0."""
        header = self.lines[i]
        if header.lstrip().startswith("..") and not self.starts_block(i):
            return 0  # a paragraph's text, not a directive
        body = self.next_non_blank(i + 1)
        if body >= len(self.lines) or self.indents[body] <= self.indents[i]:
            return 0
        match = _PLACEHOLDER_LINE.match(self.lines[body].lstrip())
        after = self.next_non_blank(body + 1)
        if not match or (after < len(self.lines) and self.indents[after] > self.indents[i]):
            return 0
        return self.emit_directive(i, body, PLACEHOLDERS[match[1]], PLACEHOLDER_WORDING)


def rewrite_text(
    text: str,
    first_line: int = 1,
    *,
    placeholders: bool = False,
    docstring: bool = False,
    wording: str = DEFAULT_WORDING,
    operations: tuple[str, ...] = (),
    objects: bool = False,
    plan: Plan | None = None,
    new_first_line: int | None = None,
) -> Migration:
    """*text* (reStructuredText) with its legacy notes rewritten; its line
    endings are kept. With *placeholders*, PyTorch 2.x's placeholders too; a
    *docstring*'s first line counts as indented like the lines after it.
    The other arguments are :class:`_Lines`'."""
    parts = _LINE_ENDING.split(text)
    contents, endings = parts[0::2], [*parts[1::2], ""]
    lines = _Lines(
        contents,
        endings,
        first_line,
        placeholders,
        docstring,
        wording=wording,
        operations=operations,
        objects=objects,
        plan=plan,
        new_first_line=new_first_line,
    )
    new = "".join(lines.rewrite())
    return Migration(
        new, lines.notices, lines.notes, lines.lists, lines.list_directives, lines.moved
    )


# What each docstring documents


class _Owner(NamedTuple):
    """A stretch of a Python file, (line, column) to (line, column), whose
    string literals document the operation *names* (the first to report)."""

    start: tuple[int, int]
    end: tuple[int, int]
    names: tuple[str, ...]


#: The classes of ``torch._C`` PyTorch adds docstrings to, and their public names.
PUBLIC_NAMES = {"torch._C.TensorBase": "torch.Tensor", "torch._C._TensorBase": "torch.Tensor"}


def _public(name: str) -> str:
    for private, public in PUBLIC_NAMES.items():
        if name == private or name.startswith(private + "."):
            return public + name[len(private) :]
    return name


def module_name(path: Path) -> tuple[str, bool]:
    """The module a Python file is, by the packages (folders with an
    ``__init__.py``) around it; and whether it is a package itself."""
    path = Path(os.path.abspath(path))
    package = path.name == "__init__.py"
    parts = [] if package else [path.stem]
    folder = path.parent
    while (folder / "__init__.py").is_file() and folder.name:
        parts.insert(0, folder.name)
        folder = folder.parent
    return ".".join(parts), package


def docstring_owners(tree: ast.Module, module: str, package: bool = False) -> list[_Owner]:
    """Where the string literals of a module's source document an operation:
    the docstrings of its functions and classes (and the module's), a class's
    ``__doc__ = ...``, ``obj.__doc__ = ...``, the second argument of
    ``add_docstr(obj, ...)`` (``name = _add_docstr(...)`` names ``name`` too)
    and of a helper such as PyTorch's ``add_docstr_all("method", ...)``
    (``add_docstr(getattr(cls, method), docstr)``)."""
    imports: dict[str, str] = {}
    helpers: dict[str, str] = {}
    owners: list[_Owner] = []
    here = module if package else module.rpartition(".")[0]

    def qualified(name: str) -> str:
        return f"{module}.{name}" if module else name

    def dotted(node: ast.expr) -> str:
        if isinstance(node, ast.Name):
            return imports.get(node.id) or qualified(node.id)
        if isinstance(node, ast.Attribute):
            base = dotted(node.value)
            return base and f"{base}.{node.attr}"
        return ""

    def own(expr: ast.expr | None, names: Iterable[str]) -> None:
        public = tuple(dict.fromkeys(_public(name) for name in names if name))
        if expr is not None and public and expr.end_lineno is not None:
            start, end = (expr.lineno, expr.col_offset), (expr.end_lineno, expr.end_col_offset or 0)
            owners.append(_Owner(start, end, public))

    def call_name(call: ast.Call) -> str:
        func = call.func
        return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")

    def helper(node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        params = [arg.arg for arg in node.args.args]
        body = [s for s in node.body if not (isinstance(s, ast.Expr) and _is_str(s.value))]
        if len(params) < 2 or len(body) != 1 or not isinstance(body[0], ast.Expr):
            return
        call = body[0].value
        if not (isinstance(call, ast.Call) and call_name(call).endswith("add_docstr")):
            return
        if len(call.args) == 2 and isinstance(call.args[0], ast.Call):
            inner = call.args[0]
            if (
                call_name(inner) == "getattr"
                and len(inner.args) == 2
                and isinstance(inner.args[1], ast.Name)
                and inner.args[1].id == params[0]
                and (prefix := dotted(inner.args[0]))
            ):
                helpers[node.name] = prefix

    def statement(node: ast.stmt, scope: str, in_class: bool) -> None:
        value = getattr(node, "value", None)
        if value is None:
            return
        targets = getattr(node, "targets", None) or [getattr(node, "target", None)]
        for target in targets:
            if in_class and isinstance(target, ast.Name) and target.id == "__doc__":
                own(value, [scope])
            elif isinstance(target, ast.Attribute) and target.attr == "__doc__":
                own(value, [dotted(target.value)])
        for call in ast.walk(value):
            if not isinstance(call, ast.Call) or len(call.args) < 2:
                continue
            name = call_name(call)
            if name.endswith("add_docstr"):
                assigned = [qualified(t.id) for t in targets if isinstance(t, ast.Name)]
                own(call.args[1], [*(assigned if not scope else []), dotted(call.args[0])])
            elif name in helpers and _is_str(call.args[0]):
                own(call.args[1], [f"{helpers[name]}.{call.args[0].value}"])  # type: ignore[attr-defined]

    def visit(body: list[ast.stmt], scope: str, in_class: bool, documented: bool) -> None:
        if documented and body and isinstance(body[0], ast.Expr) and _is_str(body[0].value):
            own(body[0].value, [scope or module])
        for node in body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    top = alias.name.partition(".")[0]
                    imports[alias.asname or top] = alias.name if alias.asname else top
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join([*parent, *([base] if base else [])])
                for alias in node.names:
                    imports[alias.asname or alias.name] = f"{base}.{alias.name}"
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{scope}.{node.name}" if scope else qualified(node.name)
                if not scope and not isinstance(node, ast.ClassDef):
                    helper(node)
                visit(node.body, name, isinstance(node, ast.ClassDef), True)
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr)):
                statement(node, scope, in_class)
            else:  # if, for, with, try...: the same scope
                for part in ("body", "orelse", "finalbody", "handlers", "cases"):
                    for child in getattr(node, part, []) or []:
                        inner = getattr(child, "body", None)
                        if isinstance(child, ast.stmt):
                            visit([child], scope, in_class, False)
                        elif inner:  # an except handler, a match case
                            visit(inner, scope, in_class, False)

    visit(tree.body, "", False, True)
    return owners


def _is_str(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


# Files


def migrate_rst(text: str, wording: str = DEFAULT_WORDING, plan: Plan | None = None) -> Migration:
    """A reStructuredText file's text, its includes of the note files rewritten."""
    return rewrite_text(text, wording=wording, objects=True, plan=plan)


def migrate_python(
    source: str,
    wording: str = DEFAULT_WORDING,
    plan: Plan | None = None,
    module: str = "",
    package: bool = False,
) -> Migration:
    """A Python file's source, the legacy notes in its string literals
    rewritten; *module* is its name (for the operations its docstrings are on).

    Only multi-line string literals (docstrings and the like) are looked at,
    and only through their source text; a literal whose escape sequences would
    make its value read otherwise is left as is and reported.
    """
    try:
        tree = ast.parse(source)
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except SyntaxError as error:
        raise ParseError(error.lineno or 1, error.msg) from None
    except tokenize.TokenError as error:
        message, (line, _) = error.args
        raise ParseError(line, message) from None
    except ValueError as error:  # a null byte, before Python 3.12
        raise ParseError(source.count("\n", 0, source.find("\0")) + 1, str(error)) from None

    # Where tokenize's lines start: after each "\n" (str.splitlines() would
    # also break at a form feed and other characters).
    line_starts = [0, *(match.end() for match in re.finditer("\n", source))]
    owners = _owners_by_character(docstring_owners(tree, module, package), source, line_starts)
    result = Migration(source)
    pieces, position = [], 0
    shift = 0  # how many lines the literals rewritten so far added
    for token in tokens:
        if token.type != tokenize.STRING:
            continue
        operations = next(
            (owner.names for owner in reversed(owners) if owner.start <= token.start < owner.end),
            (),
        )
        result.moved[token.start[0]] = token.start[0] + shift
        migration = _migrate_literal(token, wording, plan, operations, token.start[0] + shift)
        if migration is None:
            continue
        result.notices += migration.notices
        result.notes += migration.notes
        result.lists += migration.lists
        result.list_directives += migration.list_directives
        result.moved.update(migration.moved)
        shift += migration.text.count("\n") - token.string.count("\n")
        if migration.text != token.string:
            start = line_starts[token.start[0] - 1] + token.start[1]
            end = line_starts[token.end[0] - 1] + token.end[1]
            pieces += [source[position:start], migration.text]
            position = end
    pieces.append(source[position:])
    result.text = "".join(pieces)
    return result


def _owners_by_character(owners: list[_Owner], source: str, line_starts: list[int]) -> list[_Owner]:
    """*owners* with columns in characters, as tokenize counts them (ast
    counts UTF-8 bytes), sorted by where they start."""

    def column(position: tuple[int, int]) -> tuple[int, int]:
        line, offset = position
        start = line_starts[line - 1] if line - 1 < len(line_starts) else len(source)
        text = source[start : start + offset * 4]  # enough characters for *offset* bytes
        return line, len(text.encode("utf-8")[:offset].decode("utf-8", errors="ignore"))

    return sorted(
        (_Owner(column(owner.start), column(owner.end), owner.names) for owner in owners),
        key=lambda owner: owner.start,
    )


#: A string literal that can hold prose: triple-quoted (f-strings and bytes never do).
_PROSE_LITERAL = re.compile(r"""([rRuU]?)('''|\"\"\")(.*)\2\Z""", re.DOTALL)


def _migrate_literal(
    token: tokenize.TokenInfo,
    wording: str = DEFAULT_WORDING,
    plan: Plan | None = None,
    operations: tuple[str, ...] = (),
    new_first_line: int | None = None,
) -> Migration | None:
    """A string literal's token, rewritten; None when it holds no prose (a
    string of one line is code's). *new_first_line* is where it starts in
    the new text."""
    match = _PROSE_LITERAL.match(token.string)
    if not match:
        return None
    prefix, quotes, body = match.groups()
    value = ast.literal_eval(token.string)
    if "\n" not in value:
        return None
    arguments = {
        "placeholders": True,
        "docstring": True,
        "wording": wording,
        "operations": operations,
        "plan": plan,
    }
    migration = rewrite_text(
        body,
        token.start[0],
        new_first_line=new_first_line,
        **arguments,  # type: ignore[arg-type]
    )
    by_value = rewrite_text(value, token.start[0], **arguments)  # type: ignore[arg-type]
    literal = f"{prefix}{quotes}{migration.text}{quotes}"
    if ast.literal_eval(literal) != by_value.text:
        message = __("left as is: this string's escape sequences change its lines")
        notice = Notice(token.start[0], str(message))
        return Migration(token.string, [notice])
    migration.text = literal
    return migration


def read_source(path: Path) -> tuple[str, str]:
    """A file's text (line endings untouched) and its encoding: a Python
    file's declared one (PEP 263), UTF-8 for reStructuredText."""
    data = path.read_bytes()
    if path.suffix == ".py":
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        except SyntaxError as error:
            raise ParseError(error.lineno or 1, error.msg) from None
    else:
        encoding = "utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else "utf-8"
    try:
        return data.decode(encoding), encoding
    except UnicodeDecodeError as error:
        raise ParseError(data.count(b"\n", 0, error.start) + 1, str(error)) from None


def migrate_source(
    path: Path, text: str, wording: str = DEFAULT_WORDING, plan: Plan | None = None
) -> Migration:
    """The migration of *text*, the file *path*'s. A file that names no note
    file, no placeholder, no note directive and no list is not parsed: so a
    file this Python cannot parse (newer syntax, say) is no error there."""
    if not _worth_reading(text):
        return Migration(text)
    if path.suffix == ".py":
        module, package = module_name(path)
        migration = migrate_python(text, wording, plan, module, package)
    else:
        migration = migrate_rst(text, wording, plan)
    for note in migration.notes:
        note.path = path
    for found in migration.lists:
        found.path = path
    return migration


def _worth_reading(text: str) -> bool:
    """*text* names a note file, a placeholder, a note or list directive, or
    may hold one of the lists."""
    return (
        any(mark in text for mark in _MIGRATE_MARKS)
        or ("deterministically" in text and bool(_DETERMINISTIC_WORDS.search(text)))
        or ("RuntimeError" in text and bool(_RAISES_WORDS.search(text)))
    )


def migrate_file(
    path: Path, wording: str = DEFAULT_WORDING, plan: Plan | None = None
) -> tuple[str, Migration, str]:
    """A file's text, its migration, and its encoding."""
    text, encoding = read_source(path)
    return text, migrate_source(path, text, wording, plan), encoding


# The lists of torch.use_deterministic_algorithms


#: Conditions about the backward pass (differentiating, gradients).
_BACKWARD_CONDITION = re.compile(r"differentiat|backward|gradient|requires[ _]grad", re.IGNORECASE)
#: Devices a condition may name, and the backends of the notes that can be
#: about tensors on them (PyTorch's ROCm tensors are "CUDA tensors").
_DEVICES = {
    "cuda": {"cuda", "cudnn", "rocm", "miopen", "hip"},
    "cpu": {"cpu"},
    "mps": {"mps"},
    "xpu": {"xpu"},
    "xla": {"xla"},
}


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


def fits(note: FoundNote, condition: str) -> int:
    """How well a note (without ``:when:``) fits an item's *condition*, the
    higher the better: 0 not at all (a backward-pass note for a condition on
    calling the operation, a CUDA note for a condition naming CPU tensors
    only); a note on the very pass the condition is about (differentiating,
    or calling the operation) fits better than one on both passes, and one
    whose device the condition names better than one it does not."""
    wanted = "backward" if _BACKWARD_CONDITION.search(condition) else "forward"
    if note.affected_pass not in (wanted, "both"):
        return 0
    named = {word for word in re.findall(r"[A-Za-z]+", condition.lower()) if word in _DEVICES}
    if named and not any(note.backend.lower() in _DEVICES[device] for device in named):
        return 0
    return 2 * (2 if note.affected_pass == wanted else 1) + bool(named)


@dataclass
class Report:
    """A line of migrate's report on the lists; *kept*: an item left to be
    kept by hand (a legacy line, as a notice is)."""

    path: Path
    line: int
    message: str
    kept: bool = False


@dataclass
class ListsOutcome:
    """What :func:`match_lists` decided: the plans, the items matched to a
    note and those kept by hand, with their lists, and the notes in neither."""

    lists: list[HandKeptList] = field(default_factory=list)
    plans: dict[Path, Plan] = field(default_factory=dict)
    matched: list[tuple[ListItem, FoundNote]] = field(default_factory=list)
    kept: list[tuple[ListItem, HandKeptList]] = field(default_factory=list)
    unlisted: list[FoundNote] = field(default_factory=list)
    reports: list[Report] = field(default_factory=list)


def _note_name(note: FoundNote) -> str:
    return note.operations[0] if note.operations else ""


def _effective(note: FoundNote, assigned: dict[int, tuple[str, str]]) -> tuple[str, str] | None:
    """A note's ``:deterministic-algorithms:`` and ``:when:``: its own, or
    those given by this migration; None when it has none."""
    if id(note) in assigned:
        return assigned[id(note)]
    kind = note.options.get("deterministic-algorithms", "").lower()
    if kind:
        return kind, _collapse(note.options.get("when", ""))
    return None


def match_lists(
    notes: list[FoundNote],
    lists: list[HandKeptList],
    list_directives: int = 0,
    unwritten: Collection[int] = (),
) -> ListsOutcome:
    """Match the items of the hand-kept *lists* to the *notes*.

    An item is matched to a note of its operation (:func:`names_match`)
    that already says the same (its ``:deterministic-algorithms:`` and
    ``:when:``); else to the note of its operation, without those options,
    that fits its condition best (:func:`fits`): the best fitting pair of
    all first, then the next among those left, so that each note takes one
    item (one condition). An item two notes fit equally well is matched to
    neither: no one decides for it. Nothing is left that a second run
    would match.

    The plan gives each matched legacy or option-less note
    ``:deterministic-algorithms:`` and ``:when:``, and each list the items
    it keeps (those matched to no note). The reports name every item kept
    and why, every note in neither list (when the tree has the lists, as
    hand-kept lists or as directives), and sum up each list.

    *unwritten* holds (by ``id``) the notes whose options could not be
    written (their file could not be): the items matched to them stay in
    their lists, so that no item is lost.
    """
    outcome = ListsOutcome(lists)
    assigned: dict[int, tuple[str, str]] = {}
    matched: dict[int, FoundNote] = {}  # by id(item)
    items = [(item, found) for found in lists for item in found.items]

    def candidates(item: ListItem) -> list[FoundNote]:
        exact = [n for n in notes if any(names_match(item.operation, m) == 2 for m in n.operations)]
        if exact:
            return exact
        return [n for n in notes if any(names_match(item.operation, m) for m in n.operations)]

    open_items = [
        (item, found, candidates(item))
        for item, found in items
        if item.condition is not None and item.operation
    ]
    for item, found, ops in open_items:  # notes that say it already
        same = [n for n in ops if _effective(n, assigned) == (found.kind, item.condition)]
        if same:
            matched[id(item)] = same[0]
    while True:
        # Each open item's best free note, if one alone is best; the best
        # fitting pair of all is matched (the first item of equals), and the
        # rest weighed again.
        pairs = []
        for order, (item, found, ops) in enumerate(open_items):
            if id(item) in matched or item.condition is None:
                continue
            free = [(fits(n, item.condition), n) for n in ops if _effective(n, assigned) is None]
            best = max((score for score, _ in free), default=0)
            chosen = [n for score, n in free if score == best]
            if best and len(chosen) == 1:
                pairs.append((-best, order, item, found, chosen[0]))
        if not pairs:
            break
        _, _, item, found, note = min(pairs, key=lambda pair: pair[:2])
        matched[id(item)] = note
        assigned[id(note)] = (found.kind, item.condition or "")
    lost = {
        item_id
        for item_id, note in matched.items()
        if id(note) in unwritten and id(note) in assigned
    }
    for item_id in lost:
        del matched[item_id]
    for note_id in unwritten:
        assigned.pop(note_id, None)

    for note in notes:
        if id(note) in assigned:
            kind, condition = assigned[id(note)]
            options = [("deterministic-algorithms", kind)]
            if condition:
                options.append(("when", condition))
            plan = outcome.plans.setdefault(note.path, Plan())
            plan.options[note.line] = options
    listed = {effective[0] for note in notes if (effective := _effective(note, assigned))}
    for found in lists:
        taken = sum(id(item) in matched for item in found.items)
        counts = (taken, len(found.items) - taken, len(found.items))
        name = _list_name(found.kind)
        if found.remainder or found.kind in listed:
            plan = outcome.plans.setdefault(found.path, Plan())
            plan.kept[found.line] = [item.line for item in found.items if id(item) not in matched]
            summary = __("%s: items from notes: %d, kept by hand: %d (of %d)") % (name, *counts)
        else:  # the directive would list nothing: the list stays as it is
            summary = __("%s stays as it is: no note would be in it (kept by hand: %d)") % (
                name,
                len(found.items),
            )
        outcome.reports.append(Report(found.path, found.line, summary))
        for item in found.items:
            if id(item) in matched:
                outcome.matched.append((item, matched[id(item)]))
                continue
            outcome.kept.append((item, found))
            if id(item) in lost:  # the note itself is reported where it is
                message = __("%s: its note could not be written with the options: %s") % (
                    item.operation,
                    __("the item stays in the list, kept by hand"),
                )
            else:
                message = _why_kept(item, candidates(item) if item.operation else [], assigned)
            outcome.reports.append(Report(found.path, item.line, message, kept=True))
    if lists or list_directives:
        for note in notes:
            if _effective(note, assigned) is None:
                outcome.unlisted.append(note)
                message = (
                    __("in neither list: the %s note of %s") % (note.directive, _note_name(note))
                    if note.operations
                    else __("in neither list: a %s note on an operation migrate cannot tell")
                    % note.directive
                )
                outcome.reports.append(Report(note.path, note.line, str(message)))
    outcome.reports.sort(key=lambda report: (str(report.path), report.line))
    return outcome


def _list_name(kind: str) -> str:
    if kind == DETERMINISTIC:
        return str(__("the list of operations that act deterministically"))
    return str(__("the list of operations that throw a RuntimeError"))


def _why_kept(
    item: ListItem,
    notes: list[FoundNote],
    assigned: dict[int, tuple[str, str]],
) -> str:
    """Why an item matched none of its operation's *notes* (a report's message)."""
    kept = __("the item stays in the list, kept by hand")
    if not item.operation:
        return f"{item.problem}: {item.text}: {kept}"
    if not notes:
        return __("%s has no note: %s") % (item.operation, kept)
    if item.condition is None:
        return __("%s has a note, but %s: %s") % (item.operation, item.problem, kept)
    fitting = [n for n in notes if fits(n, item.condition)]
    free = [n for n in fitting if _effective(n, assigned) is None]
    named = ", ".join(dict.fromkeys(n.directive for n in (free or fitting or notes)))
    if len(free) > 1:
        message = __("%s has several notes that fit its condition equally (%s): %s")
    elif fitting:
        message = __("%s has no note left that fits its condition, another item has it (%s): %s")
    else:
        message = __("%s has no note that fits its condition (its notes: %s): %s")
    return message % (item.operation, named, kept)


#: What the name of a temporary file holds, between the name of the file whose
#: new text it is and a random part: ``.functional.py.reprodocs-migrate.k3x9q_2a``.
TEMPORARY_MARK = ".reprodocs-migrate."


class NotRewritten(Exception):
    """A file whose new text is not written, for a reason that is no error of
    the system's (it is read-only, it has other names, ...): it is left as is."""


def _changed(before: os.stat_result, after: os.stat_result, *, metadata: bool) -> bool:
    """The file was replaced or written to between the two stats (with
    *metadata*, also chmod-ed, chown-ed, ...)."""
    fields = ["st_dev", "st_ino", "st_size", "st_mtime_ns"]
    if metadata:
        fields += ["st_ctime_ns", "st_mode", "st_uid", "st_gid", "st_nlink"]
    return any(getattr(before, name) != getattr(after, name) for name in fields)


def _check_rewritable(path: Path, status: os.stat_result) -> None:
    """Raise :class:`NotRewritten` unless the file at *path* (stat *status*)
    can be replaced with its new text and stay the same file to its users: a
    regular file, writable, with no other name."""
    if not stat.S_ISREG(status.st_mode):
        raise NotRewritten(__("not a regular file"))
    if not status.st_mode & 0o222:
        raise NotRewritten(__("read-only (mode %04o)") % stat.S_IMODE(status.st_mode))
    if not os.access(path, os.W_OK):
        raise NotRewritten(__("no permission to write it"))
    # The new file is made in the directory and renamed over the old: a
    # directory without write permission (even for root, who may write it)
    # says its files are not to be replaced.
    directory = os.stat(path.parent)
    if not directory.st_mode & 0o222:
        message = __("its directory is read-only (mode %04o)")
        raise NotRewritten(message % stat.S_IMODE(directory.st_mode))
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise NotRewritten(__("no permission to write in its directory"))
    if status.st_nlink > 1:
        raise NotRewritten(
            __("it has %d hard links, whose other names would keep the old text") % status.st_nlink
        )


def _keep_identity(temporary: str, status: os.stat_result, original: Path) -> None:
    """Give the new file *temporary* the owner, group, mode and extended
    attributes (ACLs among them) of *original*, whose stat is *status*."""
    if sys.platform != "win32":
        new = os.stat(temporary)
        if (new.st_uid, new.st_gid) != (status.st_uid, status.st_gid):
            try:
                os.chown(temporary, status.st_uid, status.st_gid)
            except PermissionError:
                raise NotRewritten(
                    __(
                        "its owner and group (uid %d, gid %d) cannot be given to a new "
                        "file by this user"
                    )
                    % (status.st_uid, status.st_gid)
                ) from None
    os.chmod(temporary, stat.S_IMODE(status.st_mode))  # after chown, which clears set-id bits
    if sys.platform == "linux":
        try:
            names = os.listxattr(original)
        except OSError as error:
            if error.errno in (errno.ENOTSUP, errno.EOPNOTSUPP):
                return
            raise
        for name in names:
            value = os.getxattr(original, name)
            try:
                if os.getxattr(temporary, name) == value:
                    continue  # given to the new file already (an SELinux label, say)
            except OSError:
                pass
            try:
                os.setxattr(temporary, name, value)
            except OSError:
                raise NotRewritten(__("its extended attribute %s cannot be kept") % name) from None


def write_atomically(
    path: Path, text: str, encoding: str, read: os.stat_result | None = None
) -> None:
    """Replace the content of *path* (of the file it links to, if a symbolic
    link) in one step: readers see the old file or the new one, never a part.
    The new file keeps the owner, group, mode and extended attributes.

    Raise :class:`NotRewritten`, leaving the file as is, when it cannot stay
    the same file to its users (read-only, hard links), cannot keep its
    owner, or has changed since *read*, its stat when it was read.
    """
    target = Path(os.path.realpath(path))
    status = os.stat(target)
    if read is not None and _changed(read, status, metadata=False):
        raise NotRewritten(__("it changed while it was being migrated (run migrate again)"))
    _check_rewritable(target, status)
    data = text.encode(encoding)
    descriptor, temporary = create_temporary(target, TEMPORARY_MARK)
    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
            _keep_identity(temporary, status, target)
            if _changed(status, os.stat(target), metadata=True):
                raise NotRewritten(__("it changed while it was being migrated (run migrate again)"))
            if sys.platform == "win32":
                stream.close()  # an open file cannot be renamed there
            # The lock is held until the temporary file has the file's name.
            os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


class Source(NamedTuple):
    """A file found at or under the paths given: *problem* is why it cannot be
    migrated; *not_followed* says what a symbolic link found in a directory, and
    left alone, points to."""

    path: Path
    problem: str | None = None
    not_followed: str | None = None


def _skipped(name: str) -> bool:
    """A directory the walk does not enter."""
    return name.startswith(".") or name == "__pycache__"


def _walked(target: str, roots: list[str], directory: bool) -> bool:
    """The walk of one of the directories *roots* (real paths) reaches the
    real path *target*, a directory or a file, on its own."""
    for root in roots:
        try:
            relative = os.path.relpath(target, root)
        except ValueError:  # on another drive
            continue
        if relative == os.curdir and directory:
            return True
        parts = relative.split(os.sep)
        if parts[0] == os.pardir or relative == os.curdir:
            continue
        folders = parts if directory else parts[:-1]
        if not any(_skipped(part) for part in folders) and (
            directory or parts[-1].endswith(SUFFIXES)
        ):
            return True
    return False


def _walk(top: Path, roots: list[str]) -> Iterator[Source]:
    errors: list[OSError] = []  # directories os.walk could not list
    for directory, subdirectories, files in os.walk(top, onerror=errors.append):
        yield from _unlisted(errors, Path(directory))
        subdirectories[:] = sorted(d for d in subdirectories if not _skipped(d))
        links = [d for d in subdirectories if os.path.islink(os.path.join(directory, d))]
        for name in sorted([*links, *(f for f in files if f.endswith(SUFFIXES))]):
            path = Path(directory, name)
            try:
                mode = path.lstat().st_mode
            except OSError as error:
                yield Source(path, error.strerror or str(error))
                continue
            if stat.S_ISLNK(mode):
                target = os.path.realpath(path)
                if not _walked(target, roots, os.path.isdir(target)):
                    yield Source(path, not_followed=target)
            elif not stat.S_ISREG(mode):
                yield Source(path, "not a regular file")
            else:
                yield Source(path)
    yield from _unlisted(errors, top)


def _unlisted(errors: list[OSError], directory: Path) -> Iterator[Source]:
    for error in errors:
        yield Source(Path(error.filename or directory), error.strerror or str(error))
    errors.clear()


def source_files(paths: Iterable[str]) -> Iterator[Source]:
    """The ``.rst`` and ``.py`` files at or under *paths*, in order, each with
    the reason it cannot be used, if any. Hidden directories and
    ``__pycache__`` are not entered. In a directory, a symbolic link is not
    followed: the file it points to is found where it is, if it is under one of
    the directories given, or else the link is reported as not followed. A
    symbolic link given as a path is followed."""
    paths = list(paths)
    roots = [os.path.realpath(name) for name in paths if os.path.isdir(name)]
    for name in paths:
        path = Path(name)
        try:
            mode = path.stat().st_mode
        except FileNotFoundError:
            yield Source(path, str(__("no such file or directory")))
            continue
        except OSError as error:
            yield Source(path, error.strerror or str(error))
            continue
        if stat.S_ISDIR(mode):
            yield from _walk(path, roots)
        elif path.suffix not in SUFFIXES:
            yield Source(path, str(__("not a .rst or .py file")))
        elif not stat.S_ISREG(mode):
            yield Source(path, "not a regular file")
        else:
            yield Source(path)


def unified_diff(path: Path, old: str, new: str) -> str:
    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=str(path),
        tofile=str(path),
    )
    return "".join(
        line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n"
        for line in lines
    )


#: Exit statuses of ``python -m reprodocs migrate``.
NOTHING_TO_MIGRATE, LEGACY_NOTES_REMAIN, FILE_ERROR = 0, 1, 2


class _Read(NamedTuple):
    """A file read by :func:`run`, with its migration without the lists'."""

    path: Path
    target: Path
    status: os.stat_result
    text: str
    encoding: str
    migration: Migration


def _found(files: Iterable[Migration]) -> tuple[list[FoundNote], list[HandKeptList], int]:
    files = list(files)
    return (
        [note for migration in files for note in migration.notes],
        [found for migration in files for found in migration.lists],
        sum(migration.list_directives for migration in files),
    )


def survey(paths: Iterable[str], wording: str = DEFAULT_WORDING) -> ListsOutcome:
    """The lists' migration of the files at *paths*, decided and not made
    (files that cannot be read or parsed are passed over)."""
    migrations = []
    for source in source_files(paths):
        if source.problem or source.not_followed:
            continue
        try:
            migrations.append(migrate_file(source.path, wording)[1])
        except (ParseError, OSError, UnicodeError):
            continue
    return match_lists(*_found(migrations))


def run(
    paths: Iterable[str],
    write: bool = False,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    wording: str = DEFAULT_WORDING,
) -> int:
    """Migrate the files at *paths*: print a unified diff of each change, or
    with *write* make it; report what is left as is and every file that cannot
    be read, parsed or written, on *stderr*, and go on. *wording* is the
    site's wording set (its ``reprodocs_wording``).

    Every file is read first, so that the items of the lists can be matched
    to notes in any file (:func:`match_lists`); the lists' report follows
    each file's notices, with the lines of the file as it is after the run.

    The exit status: 0 when no legacy note is left (none was found, or all were
    written); 1 when some are left (the diff shows them, or they are reported
    as left as is, or items of the lists are kept by hand); 2 when some file
    could not be read, parsed or written.
    """
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    status = NOTHING_TO_MIGRATE
    cleaned: set[Path] = set()  # the directories rid of stale temporary files

    def cannot_migrate(location: object, reason: object) -> str:
        nonlocal status
        status = FILE_ERROR
        return __("%s: cannot migrate it: %s") % (location, reason)

    # Every file read first, in order: a file to migrate, or what to say of it.
    files: list[_Read | str] = []
    for path, problem, not_followed in source_files(paths):
        if not_followed:
            files.append(__("%s: not followed: a symbolic link to %s") % (path, not_followed))
            continue
        if problem:
            files.append(cannot_migrate(path, problem))
            continue
        try:
            target = Path(os.path.realpath(path))  # a symbolic link given: its file
            if write and target.parent not in cleaned:
                remove_stale_temporaries(target.parent, TEMPORARY_MARK)
                cleaned.add(target.parent)
            read = os.stat(target)
            old, migration, encoding = migrate_file(path, wording)
        except ParseError as error:
            files.append(cannot_migrate(f"{path}:{error.line}", error.message))
            continue
        except (OSError, UnicodeError) as error:
            files.append(cannot_migrate(path, error))
            continue
        if migration.text != old or migration.notices or migration.notes or migration.lists:
            files.append(_Read(path, target, read, old, encoding, migration))

    notes, lists, list_directives = _found(
        file.migration for file in files if isinstance(file, _Read)
    )
    unwritten: set[int] = set()  # notes whose options could not be written
    outcome = match_lists(notes, lists, list_directives)
    # The files whose notes get options are written before those holding the
    # lists: an item leaves its list only once its note says what it said.
    # What is said of each file is said in the order the files were found.
    holding_lists = {found.path for found in lists}
    order = sorted(
        range(len(files)),
        key=lambda index: getattr(files[index], "path", None) in holding_lists,
    )
    said: dict[int, list[tuple[TextIO, str]]] = {}  # by file: where, and what
    moved_in: dict[Path, dict[int, int]] = {}  # written: where each file's lines went
    for index in order:
        file = files[index]
        if isinstance(file, str):
            said[index] = [(stderr, file + "\n")]
            continue
        path, target, read, old, encoding, migration = file
        said[index] = lines = []
        planned: set[int] = set()
        unwritable: list[Notice] = []
        while True:
            plan = outcome.plans.get(path)
            if plan and (plan.options or plan.kept):
                migration = migrate_source(path, old, wording, plan)
                planned = set(plan.options)
            # A note left as is (its string's escape sequences) has no options.
            missing = planned - {note.line for note in migration.notes}
            if not missing:
                break
            message = __("left as is: the options of this note would change its string's escapes")
            unwritable += [Notice(line, str(message)) for line in sorted(missing)]
            unwritten |= {id(n) for n in notes if n.path == path and n.line in missing}
            outcome = match_lists(notes, lists, list_directives, unwritten)
        migration.notices += unwritable
        try:
            if migration.text != old:
                if write:
                    write_atomically(target, migration.text, encoding, read)
                    shown = f"{path} -> {target}" if path.is_symlink() else path
                    lines.append((stdout, __("rewrote %s") % shown + "\n"))
                    moved_in[path] = migration.moved
                else:
                    lines.append((stdout, unified_diff(path, old, migration.text)))
                    status = max(status, LEGACY_NOTES_REMAIN)
        except (NotRewritten, OSError, UnicodeError) as error:
            lines.append((stderr, cannot_migrate(path, error) + "\n"))
            if planned:
                unwritten |= {id(n) for n in notes if n.path == path and n.line in planned}
                outcome = match_lists(notes, lists, list_directives, unwritten)
        else:
            moved = moved_in.get(path, {})
            for notice in migration.notices:
                line = moved.get(notice.line, notice.line)
                lines.append((stderr, f"{path}:{line}: {notice.message}\n"))
                status = max(status, LEGACY_NOTES_REMAIN)

    for index, file in enumerate(files):
        for stream, text in said[index]:  # each with its line ending (a diff, many)
            stream.write(text)
        if isinstance(file, str):
            continue
        moved = moved_in.get(file.path, {})
        for report in outcome.reports:
            if report.path == file.path:
                line = moved.get(report.line, report.line)
                print(f"{file.path}:{line}: {report.message}", file=stderr)
                if report.kept:
                    status = max(status, LEGACY_NOTES_REMAIN)
    return status
