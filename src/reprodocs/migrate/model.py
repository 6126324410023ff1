"""What migrate finds in a text and decides for it: the notes and hand-kept
lists found, what is left as is (notices), the lists' plan, and a text's
migration. Plain data, shared by every module of migrate."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from reprodocs.base import entry_schema
from reprodocs.base.vocabulary import FORMATS, LIST_OPTIONS, SEPARATOR

# The options migrate reads and writes, named as the entry's schema names them.
BACKEND_OPTION, PASS_OPTION = entry_schema.BACKEND.option, entry_schema.PASS.option
OP_OPTION, WHEN_OPTION = entry_schema.OP.option, entry_schema.WHEN.option
ALGORITHMS_OPTION, WORDING_OPTION = entry_schema.ALGORITHMS.option, entry_schema.WORDING.option
ALIASES_OPTION, LISTED_AS_OPTION = entry_schema.ALIASES.option, entry_schema.LISTED_AS.option
WITH_OPTION, CASES_OPTION = entry_schema.WITH.option, entry_schema.CASES.option
ALERT_OPTION = entry_schema.ALERT.option
#: The list directive's option saying how it shows its entries.
FORMAT_OPTION = LIST_OPTIONS[-1]
#: The list directive's ``:format:`` that writes a bulleted list.
_, LIST_FORMAT = FORMATS


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
    #: For an entry standing in the place of a list's items (after its list
    #: directive, where migrate writes those no note or docstring could
    #: take): the list's kind; "" for any other note.
    list_place: str = ""


@dataclass
class ListItem:
    """An item of a hand-kept list: ``* :class:`torch.nn.AvgPool3d` when ...``."""

    line: int
    #: Its text, on one line (for reports).
    text: str
    #: The operation, fully qualified; "" when the item names none.
    operation: str = ""
    #: The text after "when" (whitespace collapsed; "" for an item without a
    #: condition); None where the item's words cannot be an entry's.
    condition: str | None = ""
    #: Why there is no condition (a message).
    problem: str = ""
    #: The words after "with", before any "when" (``accumulate=False``).
    with_words: str = ""
    #: The words of a list nested in the item (``interpolate``'s modes).
    cases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Listing:
    """What an entry says of its operation in a list, as its options say it:
    the list (*kind*), the words after "with" and "when", the cases, and the
    name the list shows where it is not the operation's own."""

    kind: str
    when: str = ""
    with_words: str = ""
    cases: tuple[str, ...] = ()
    listed_as: str = ""

    @classmethod
    def of_item(cls, kind: str, item: ListItem, listed_as: str = "") -> Listing:
        return cls(kind, item.condition or "", item.with_words, item.cases, listed_as)

    @classmethod
    def of_options(cls, kind: str, options: dict[str, str]) -> Listing:
        """The listing a directive's *options* (as written) give, in list *kind*."""
        cases = options.get(CASES_OPTION, "").split(SEPARATOR)
        return cls(
            kind,
            collapse(options.get(WHEN_OPTION, "")),
            collapse(options.get(WITH_OPTION, "")),
            tuple(collapse(case) for case in cases if case.strip()),
            options.get(LISTED_AS_OPTION, "").strip(),
        )

    def options(self) -> list[tuple[str, str]]:
        """The options saying it, in the order its item says it ("with … when …")."""
        options = [(ALGORITHMS_OPTION, self.kind)]
        if self.listed_as:
            options.append((LISTED_AS_OPTION, self.listed_as))
        if self.with_words:
            options.append((WITH_OPTION, self.with_words))
        if self.when:
            options.append((WHEN_OPTION, self.when))
        if self.cases:
            options.append((CASES_OPTION, f"{SEPARATOR} ".join(self.cases)))
        return options


def collapse(text: str) -> str:
    """*text* with each run of whitespace one space."""
    return " ".join(text.split())


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


#: A directive's options, in order: (name, value).
Options = list[tuple[str, str]]


@dataclass
class Plan:
    """What the lists' migration changes in one file: the options each note
    gets (by the note's line); which items each hand-kept list keeps (by
    the list's line: its items' lines); the entries that render nothing
    added at the end of docstrings (by the string's first line), and those
    taking the place of a list's items (by the item's line)."""

    options: dict[int, Options] = field(default_factory=dict)
    kept: dict[int, list[int]] = field(default_factory=dict)
    entries: dict[int, list[Options]] = field(default_factory=dict)
    item_entries: dict[int, Options] = field(default_factory=dict)
    #: The items each list generates (by its kind), as the registry migrate
    #: reads says them: the name shown and its listing. A list directive's
    #: content, what help() shows, is brought in line with them.
    listed: dict[str, list[tuple[str, Listing]]] = field(default_factory=dict)
    #: The entries in a list's place that leave it (by line): a note or a
    #: docstring takes what they say now (a file written since, say).
    released: set[int] = field(default_factory=set)

    def __bool__(self) -> bool:
        return bool(
            self.options
            or self.kept
            or self.entries
            or self.item_entries
            or self.listed
            or self.released
        )


@dataclass(frozen=True)
class CatalogTable:
    """A Markdown catalog table migrate writes as entries and a table
    directive (:mod:`~reprodocs.migrate.markdown_tables`): its first line,
    its rows' labels, and the fields its other columns are, as (option,
    title), in its order."""

    line: int
    labels: tuple[str, ...]
    fields: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Catalog:
    """What the catalog tables of a run's earlier files took: their
    labels, each with where (``path:line``), and the titles of their
    fields (the first a field is given is its declaration's); and the
    fields of the catalog tables of the run's other files, before or after
    it, and of the entries already written in the run's files
    (*elsewhere*), which no table of this file chooses its rows by: its
    directive would show their entries too; and the fields the table
    directives already written in the run's files choose their rows by
    (*chosen*), which no table migrated has a value in: such a directive
    would show its rows too."""

    labels: tuple[tuple[str, str], ...] = ()
    titles: tuple[tuple[str, str], ...] = ()
    elsewhere: tuple[str, ...] = ()
    chosen: tuple[str, ...] = ()


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
    #: How many of those carry their items as content (what help() shows).
    runtime_lists: int = 0
    #: Where the lines of the file went in the new text, by line number (a
    #: line replaced: the first of its replacement).
    moved: dict[int, int] = field(default_factory=dict)
    #: The first lines of the docstrings the plan's entries were added to.
    entries_added: list[int] = field(default_factory=list)
    #: The Markdown catalog tables it writes as entries.
    tables: list[CatalogTable] = field(default_factory=list)

    def add(self, other: Migration) -> None:
        """Add what *other*, the migration of a part of this text, found."""
        self.notices += other.notices
        self.notes += other.notes
        self.lists += other.lists
        self.list_directives += other.list_directives
        self.runtime_lists += other.runtime_lists
        self.moved.update(other.moved)
        self.entries_added += other.entries_added


@dataclass(frozen=True)
class UnreadFile:
    """A file of the run that could not be read or parsed (at *line*; None
    for the file as a whole). Nothing that may depend on it is decided:
    an item of the lists whose operation's docstring or note it may hold
    stays in its list, kept by hand, until it can be read."""

    path: Path
    line: int | None
    #: The names it may document, as :func:`~reprodocs.migrate.names.operation_words`
    #: gives them; None where nothing of it could be read: anything may depend on it.
    words: frozenset[str] | None

    @property
    def location(self) -> str:
        return str(self.path) if self.line is None else f"{self.path}:{self.line}"


class ParseError(Exception):
    """A file that cannot be read as reStructuredText or Python."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message

    @classmethod
    def of_python(cls, error: SyntaxError | ValueError, source: str) -> ParseError:
        """What Python's parser said of *source*, at its line (a null byte,
        which it does not locate, at the null byte's; nesting too deep for
        it, :func:`~reprodocs.base.python_syntax.parse_python`'s ValueError,
        at the first line)."""
        line = error.lineno if isinstance(error, SyntaxError) else None
        if not line:
            line = source.count("\n", 0, max(source.find("\0"), 0)) + 1
        return cls(line, error.msg if isinstance(error, SyntaxError) else str(error))
