"""Where the notes of a project are kept: plain data in a Sphinx domain, so that
it survives pickling, incremental builds and parallel reads."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, cast

from sphinx.domains import Domain
from sphinx.util.nodes import make_refnode

from reprodocs.base.entry_schema import Field, kept
from reprodocs.base.i18n import _, __
from reprodocs.base.report import warn

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping

    from docutils.nodes import Element, reference
    from sphinx.addnodes import pending_xref
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.domains.python import ObjectEntry, PythonDomain
    from sphinx.environment import BuildEnvironment

#: The ``reftype`` of the domain's one kind of cross-reference, made by a
#: ``nondeterministic-ops`` list: to a document (``reftarget``) and an
#: anchor in it (``refanchor``, "" for the page).
PAGE_XREF = "page"


class Note(NamedTuple):
    """One use of a reproducibility directive."""

    operation: str  #: fully-qualified name; "" for a page-level note without ``:op:``
    directive: str  #: the directive's name, e.g. "cuda-deterministic-backward"
    backend: str  #: the backend's display name, e.g. "CUDA", "cuDNN", "ROCm"
    affected_pass: str  #: "forward", "backward" or "both"
    docname: str  #: the document carrying the note (its page, which links use)
    line: int  #: the directive's line in the file it is written in; 0 if unknown
    #: The file the directive is written in when it is not the document's own:
    #: an included file (an absolute path), or a docstring as autodoc names it
    #: (``/path/mod.py:docstring of mod.func``, :attr:`line` counting from the
    #: docstring's first line). "" for the document's own file.
    source: str = ""
    #: The conditions of the ``only`` and ``ifconfig`` directives around the
    #: note, outermost first, as ("only" or "ifconfig", expression); a builder
    #: shows the note when all hold (see ``reprodocs.notes.conditions``).
    conditions: tuple[tuple[str, str], ...] = ()
    #: What ``torch.use_deterministic_algorithms(True)`` does to the operation
    #: (``:deterministic-algorithms:``): "raises" (it throws a RuntimeError),
    #: "deterministic" (it uses a deterministic implementation), or "" if the
    #: note does not say.
    deterministic_algorithms: str = ""
    #: The condition under which the note holds (``:when:``), as written:
    #: inline reStructuredText without the word "when"; "" for always.
    when: str = ""
    #: The wording set the note is worded with (``:wording:``); "" for the
    #: site's (``reprodocs_wording``, or the project's own ``reprodocs/note.rst``).
    wording: str = ""
    #: The other names the operation goes by (``:aliases:``).
    aliases: tuple[str, ...] = ()
    #: The name the generated lists show (``:listed-as:``); "" for :attr:`operation`.
    listed_as: str = ""
    #: The condition's words after "with" (``:with:``): inline
    #: reStructuredText; "" for none. A list item reads "op with … when …".
    with_condition: str = ""
    #: The cases the condition lists (``:cases:``), each inline
    #: reStructuredText: a nested list under the item.
    cases: tuple[str, ...] = ()
    #: The names the operation passes to ATen's alert (``:alert:``).
    alerts: tuple[str, ...] = ()
    #: False for an entry that renders nothing where it stands
    #: (``nondeterministic-entry``, or an entry of the registry file).
    renders: bool = True
    #: What names the entry in place of an operation (``:label:``), for
    #: one that is not an API object; "" for none.
    label: str = ""
    #: The id of the hyperlink target the entry's directive leaves where it
    #: is written (``reprodocs.notes.labels``), which its row links to;
    #: "" for none (an entry without a label, or the registry file's).
    anchor: str = ""
    #: The values of the fields the entry's schema
    #: (:mod:`reprodocs.base.entry_schema`) has beyond these, as
    #: (attribute, value), in the schema's order: a field added there is
    #: kept, exported and shown before this class names it.
    more: tuple[tuple[str, Any], ...] = ()

    def value(self, field: Field) -> Any:
        """The value of the schema's *field*."""
        if field.attribute in self._fields:
            return getattr(self, field.attribute)
        return dict(self.more).get(field.attribute, field.empty())

    @property
    def location(self) -> str | tuple[str, int | None]:
        """Where the note is written, as Sphinx's warnings take it."""
        if self.source:
            return f"{self.source}:{self.line}" if self.line else self.source
        return self.docname, self.line or None

    @property
    def place(self) -> str:
        """Where the note is written, for a message that adds its line: the
        document's name, or the file it is written in if that is another."""
        return self.source or self.docname

    @property
    def names(self) -> tuple[str, ...]:
        """Every name of the operation: its own, then its aliases."""
        return (self.operation, *self.aliases) if self.operation else self.aliases

    @property
    def listed_name(self) -> str:
        """The name the generated lists show."""
        return self.listed_as or self.operation

    @property
    def condition(self) -> tuple[str, str, tuple[str, ...]]:
        """The condition the note holds under: its "with", "when" and cases."""
        return (self.with_condition, self.when, self.cases)

    @property
    def claim(self) -> tuple[object, ...]:
        """What the note says: two notes with the same claim repeat each other.
        One operation may carry several notes with different conditions."""
        return (
            self.operation,
            self.label,
            self.backend,
            self.affected_pass,
            self.condition,
            self.deterministic_algorithms,
        )


def new_note(options: Mapping[str, Any], declared: tuple[Field, ...] = (), **place: Any) -> Note:
    """The entry *options* make (a directive's, or the registry file's):
    each field of the entry's schema (:mod:`reprodocs.base.entry_schema`),
    and of the project's (*declared*), takes its option's value; *place*
    gives the rest (where it is written, by which directive) and what the
    directive worked out itself. A ``listed_as`` that is the operation is none."""
    given = {
        field.attribute: options[field.option]
        for field in kept(declared)
        if field.option in options
    }
    values = {**given, **place}
    more = tuple((name, value) for name, value in values.items() if name not in Note._fields)
    note = Note(
        **{name: value for name, value in values.items() if name in Note._fields}, more=more
    )
    return note._replace(listed_as="") if note.listed_as == note.operation else note


class RuntimeText(NamedTuple):
    """What ``help()`` shows of a note or a list the build generates, as the
    directive carries it (:mod:`reprodocs.base.runtime_text`); checked on
    every build by :mod:`reprodocs.notes.runtime_text`."""

    directive: str  #: the directive's name
    location: str  #: where it is written, as Sphinx's warnings take it
    #: The words it carries: a note's text, or a list's items.
    written: tuple[str, ...]
    #: A note's: the words of its text as its wording words it (a list's
    #: are worked out on every build, from the registry).
    expected: tuple[str, ...] = ()
    #: A list's: its ``:backend:``, ``:pass:`` and ``:deterministic-algorithms:``.
    filters: tuple[str, str, str] = ("", "", "")
    #: A list's: the fields its ``:having:`` names, each with the value asked
    #: ("" for any), as :func:`reprodocs.notes.filtering.having_fields` gives them.
    having: tuple[tuple[Field, str], ...] = ()


class ReproducibilityDomain(Domain):
    """Holds every note of the project, by document, and the pages that show
    the index of them."""

    name = "reprodocs"
    label = _("Reproducibility notes")
    #: The extension's ``env_version``: bumped whenever the shape of the domain's data changes.
    data_version = 12
    # Typed by Domain: a ClassVar on Sphinx 9, an instance variable before.
    initial_data = {  # noqa: RUF012
        "notes": {},  # docname -> [Note, ...] in document order
        "index_pages": {},  # docname -> number of nondeterministic-ops tables
        "wording": "",  # digest of the wording the notes were read with (reprodocs.notes.rereading)
        "file_entries": [],  # the registry file's entries, read anew each build (main process)
        "runtime_texts": {},  # docname -> [RuntimeText, ...] in document order
    }

    @property
    def notes_by_doc(self) -> dict[str, list[Note]]:
        """Every note, by document, in document order."""
        notes: dict[str, list[Note]] = self.data["notes"]
        return notes

    @property
    def index_pages(self) -> dict[str, int]:
        """The documents holding ``nondeterministic-ops`` tables, with how many."""
        pages: dict[str, int] = self.data["index_pages"]
        return pages

    @property
    def runtime_texts(self) -> dict[str, list[RuntimeText]]:
        """The runtime texts the directives carry, by document."""
        texts: dict[str, list[RuntimeText]] = self.data["runtime_texts"]
        return texts

    def add_runtime_text(self, text: RuntimeText) -> None:
        """Record *text*, carried by a directive of the page being read."""
        self.runtime_texts.setdefault(self.env.docname, []).append(text)

    def note_index_page(self, docname: str) -> None:
        self.index_pages[docname] = self.index_pages.get(docname, 0) + 1

    @property
    def file_entries(self) -> list[Note]:
        """The entries of the registry file (``reprodocs_registry_file``)."""
        entries: list[Note] = self.data["file_entries"]
        return entries

    def notes(self) -> Iterator[Note]:
        """Every entry of the registry: the documents' notes and entries, by
        document name, then in document order; then the registry file's."""
        for docname in sorted(self.notes_by_doc):
            yield from self.notes_by_doc[docname]
        yield from self.file_entries

    def add_note(self, note: Note) -> Note | None:
        """Record *note*; return the earlier identical note of its page, if any."""
        page_notes = self.notes_by_doc.setdefault(note.docname, [])
        for earlier in page_notes:
            if earlier.claim == note.claim:
                return earlier
        page_notes.append(note)
        return None

    def clear_doc(self, docname: str) -> None:
        self.notes_by_doc.pop(docname, None)
        self.index_pages.pop(docname, None)
        self.runtime_texts.pop(docname, None)

    def merge_domaindata(self, docnames: Iterable[str], otherdata: dict[str, Any]) -> None:
        # Iterable: a list on Sphinx 7.2, a set later.
        # "wording" and "file_entries" belong to the main process, which alone writes them.
        for docname in docnames:
            for key in ("notes", "index_pages", "runtime_texts"):
                if docname in otherdata[key]:
                    self.data[key][docname] = otherdata[key][docname]

    def warn_disagreements(self) -> None:
        """Warn about notes on one operation that repeat or contradict each other
        across pages (a page's own repeats are reported while it is read). Notes
        under different conditions (``:when:``) may name different passes.
        What deterministic mode does under one condition is one fact whichever
        backend's note says it (a list shows a CUDA and a cuDNN note as one
        item), so there the backends are not told apart."""
        first_by_claim: dict[tuple[object, ...], Note] = {}
        passes_by_backend: dict[tuple[object, ...], Note] = {}
        effects_by_condition: dict[tuple[object, ...], Note] = {}
        for note in self.notes():
            if not note.operation:
                continue
            earlier = first_by_claim.setdefault(note.claim, note)
            if earlier is not note and earlier.docname != note.docname:
                warn(
                    "duplicate",
                    __("%s: %s is already noted in %s (line %d)"),
                    note.directive,
                    note.operation,
                    earlier.place,
                    earlier.line,
                    location=note.location,
                )
            backend_key = (note.operation, note.backend, note.condition)
            other = passes_by_backend.setdefault(backend_key, note)
            if other.affected_pass != note.affected_pass:
                warn(
                    "conflict",
                    __("%s: %s is noted with :pass: %s here but %s in %s (line %d)"),
                    note.directive,
                    note.operation,
                    note.affected_pass,
                    other.affected_pass,
                    other.place,
                    other.line,
                    location=note.location,
                )
            if not note.deterministic_algorithms:
                continue
            said = effects_by_condition.setdefault((note.operation, note.condition), note)
            if said.deterministic_algorithms != note.deterministic_algorithms:
                warn(
                    "conflict",
                    __(
                        "%s: %s is noted with :deterministic-algorithms: %s here "
                        "but %s in %s (line %d)"
                    ),
                    note.directive,
                    note.operation,
                    note.deterministic_algorithms,
                    said.deterministic_algorithms,
                    said.place,
                    said.line,
                    location=note.location,
                )

    def warn_name_clashes(self) -> None:
        """Warn about a name two operations claim: an alias that is another
        entry's operation, or that another operation's entry claims too.
        The entries of one operation may repeat its aliases."""
        operations: dict[str, Note] = {}
        for note in self.notes():
            operations.setdefault(note.operation, note)
        claimed: dict[str, Note] = {}
        for note in self.notes():
            for alias in note.aliases:
                other = operations.get(alias) or claimed.setdefault(alias, note)
                if other.operation == note.operation:
                    continue
                if alias == other.operation:
                    message = __("%s: the alias %s is the operation of the entry in %s (line %d)")
                    args: tuple[object, ...] = (alias, other.place, other.line)
                else:
                    message = __("%s: the alias %s is already claimed by %s in %s (line %d)")
                    args = (alias, other.operation, other.place, other.line)
                warn("alias", message, note.directive, *args, location=note.location)

    def resolve_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        typ: str,
        target: str,
        node: pending_xref,
        contnode: Element,
    ) -> reference | None:
        """A table's or list's link to where an operation is documented
        (:data:`PAGE_XREF`)."""
        if typ != PAGE_XREF or target not in env.all_docs:
            return None
        return make_refnode(builder, fromdocname, target, node.get("refanchor") or None, contnode)

    def resolve_any_xref(self, *args: Any) -> list[Any]:
        return []


def check_notes_agree(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-updated``, so on every build: the notes' disagreements across
    pages. Not the domain's ``check_consistency``, which Sphinx calls only
    when it read a page: a build that reads none (nothing edited, or only
    ``reprodocs_known_ops`` changed) would warn less than a fresh one, and
    ``-W`` would pass where a fresh build fails."""
    domain = notes_domain(env)
    domain.warn_disagreements()
    domain.warn_name_clashes()


# ``env.get_domain`` is typed as returning any domain; these say which.


def notes_domain(env: BuildEnvironment) -> ReproducibilityDomain:
    """The project's notes."""
    return cast("ReproducibilityDomain", env.get_domain(ReproducibilityDomain.name))


def python_objects(env: BuildEnvironment) -> dict[str, ObjectEntry]:
    """The Python objects the project documents, by fully-qualified name."""
    return cast("PythonDomain", env.get_domain("py")).objects
