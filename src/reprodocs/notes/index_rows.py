"""The rows of the registry's index: each entry of the registry as
recorded (:class:`reprodocs.notes.domain.Note`, with where it is written),
and where its operation is documented. A row holds its entry; nothing of
the entry is copied."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from reprodocs.base.entry_schema import kept

if TYPE_CHECKING:
    from reprodocs.notes.domain import Note


class Target(NamedTuple):
    """Where a name is documented."""

    doc: str  #: the page; "" for nowhere
    anchor: str  #: the anchor there; "" for the page itself
    objtype: str  #: how the Python domain documents it ("function", ...); "" if not


class Row(NamedTuple):
    """One row of the index: an entry of the registry, and where its
    operation is documented."""

    #: The entry, as the registry records it (with where it is written:
    #: a list's ``:when:`` text is parsed there).
    note: Note
    target: Target  #: where the operation is documented
    title: str  #: the note's page title, shown for page-level notes
    #: Where the name the lists show (:attr:`Note.listed_as
    #: <reprodocs.notes.domain.Note.listed_as>`) is documented.
    listed_target: Target = Target("", "", "")
    #: For an entry of the registry file: the file (relative to the
    #: configuration folder, with "/") and the line of its ``[[entry]]``.
    registry_file: tuple[str, int] | None = None

    @property
    def label(self) -> str:
        """What the Operation column shows: the operation, else the
        entry's label, else its page's title."""
        return self.note.operation or self.note.label or self.title

    @property
    def listed(self) -> tuple[str, Target]:
        """The name a list shows, and where it is documented."""
        if self.note.listed_as:
            return self.note.listed_as, self.listed_target
        return self.label, self.target

    @property
    def has_condition(self) -> bool:
        return bool(self.note.when or self.note.with_condition)

    @property
    def order(self) -> tuple[object, ...]:
        """Where the row stands in the index: a row of an operation (or of
        a page-level note, by its title) sorted by what it shows; a
        labelled entry's after them, in the order the entries are written
        (page by page, by the page's name, then down the page; the
        registry file's last, down the file), as a catalog kept by hand
        lists its rows."""
        note = self.note
        if note.label and not note.operation:
            return (1, not note.docname, note.docname, note.source, note.line, self.shown)
        return (0, self.shown)

    @property
    def shown(self) -> tuple[object, ...]:
        """What the pages show of the row (in the order the index sorts
        an operation's rows by, :attr:`order`): two rows showing the same are one. Not where the entry
        is written (a note moved down its page changes no index)."""
        note, target = self.note, self.target
        return (
            self.label,
            note.operation,
            note.directive,
            note.backend,
            note.affected_pass,
            note.docname,
            target.doc,
            target.anchor,
            self.title,
            note.deterministic_algorithms,
            note.when,
            target.objtype,
            note.aliases,
            note.with_condition,
            note.cases,
            note.alerts,
            note.renders,
            note.listed_as,
            self.listed_target,
            self.registry_file,
            # Every exported field, one added to the schema included.
            *(note.value(field) for field in kept() if field.json_key),
            # The values of the project's fields (none: nothing more shown).
            *note.more,
        )
