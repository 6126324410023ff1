"""The registry's index of nondeterministic operations: the
``nondeterministic-ops`` directive, the index it shows, and
``nondeterministic.json``, all generated from the registry's entries (the
notes, the entries that render nothing, the registry file's) and kept true
in incremental and parallel builds.

The index is computed once per build, after reading (``env-updated``), and
kept for the build. When it differs from the index the output directory's
pages were written with (``reprodocs.base.written``), the pages showing a
table or a list are written again, and only those. The tables and lists
themselves are made as a page is written
(``nondeterministic_ops_render``).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from docutils import nodes
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.util.docutils import SphinxDirective

from reprodocs.base import written
from reprodocs.base.files import replace_file
from reprodocs.base.report import checked_setting
from reprodocs.base.runtime_text import list_items
from reprodocs.base.state import build_state
from reprodocs.base.vocabulary import ANY_BACKEND, FORMATS, JSON_NAME, SEPARATOR
from reprodocs.notes.conditions import shown
from reprodocs.notes.domain import RuntimeText, notes_domain, python_objects
from reprodocs.notes.options import LIST_OPTION_SPEC
from reprodocs.notes.parsing import as_location, written_at

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import OptionSpec

    from reprodocs.notes.domain import Note

#: The version of the registry's export (base.vocabulary.JSON_NAME)'s format, the ``version`` key; bumped on incompatible changes.
JSON_VERSION = 3
#: The JSON Schema of ``nondeterministic.json``, shipped with the package.
JSON_SCHEMA = Path(__file__).with_name("nondeterministic.schema.json")


class Target(NamedTuple):
    """Where a name is documented."""

    doc: str  #: the page; "" for nowhere
    anchor: str  #: the anchor there; "" for the page itself
    objtype: str  #: how the Python domain documents it ("function", ...); "" if not


class Entry(NamedTuple):
    """One row of the index: an entry of the registry, and where its
    operation is documented."""

    name: str  #: the operation; "" for a page-level note without ``:op:``
    directive: str  #: the directive that made the note
    backend: str  #: as in :attr:`reprodocs.notes.domain.Note.backend`
    affected_pass: str  #: "forward", "backward" or "both"
    docname: str  #: the page carrying the note
    target_doc: str  #: the page documenting the operation
    anchor: str  #: the operation's anchor there; "" for the page itself
    title: str  #: the note's page title, shown for page-level notes
    #: As in :attr:`reprodocs.notes.domain.Note.deterministic_algorithms`.
    deterministic_algorithms: str = ""
    #: As in :attr:`reprodocs.notes.domain.Note.when`: the condition's source text.
    when: str = ""
    #: How the Python domain documents the operation ("function", "class",
    #: "method", ...: ``ObjectEntry.objtype``); "" if it does not.
    objtype: str = ""
    #: As in :class:`reprodocs.notes.domain.Note`.
    aliases: tuple[str, ...] = ()
    with_condition: str = ""
    cases: tuple[str, ...] = ()
    alerts: tuple[str, ...] = ()
    renders: bool = True
    #: The name the lists show where it is not :attr:`name`, and where it is documented.
    listed_as: str = ""
    listed_target: Target = Target("", "", "")
    #: For an entry of the registry file: the file (relative to the
    #: configuration folder, with "/") and the line of its ``[[entry]]``.
    registry_file: tuple[str, int] | None = None

    @property
    def label(self) -> str:
        """What the Operation column shows."""
        return self.name or self.title

    @property
    def target(self) -> Target:
        return Target(self.target_doc, self.anchor, self.objtype)

    @property
    def listed(self) -> tuple[str, Target]:
        """The name a list shows, and where it is documented."""
        if self.listed_as:
            return self.listed_as, self.listed_target
        return self.label, self.target

    @property
    def has_condition(self) -> bool:
        return bool(self.when or self.with_condition)


class nondeterministic_ops(nodes.General, nodes.Element):  # docutils names nodes so
    """Stands for a table or list until the page is written (:class:`RenderIndex`)."""


class NondeterministicOpsDirective(SphinxDirective):
    """``.. nondeterministic-ops::`` -- the table (or, with ``:format: list``,
    the bullet list) of every note of the project, optionally only those of one
    ``:backend:``, ``:pass:`` or ``:deterministic-algorithms:``."""

    option_spec: ClassVar[OptionSpec] = LIST_OPTION_SPEC
    #: The items as ``help()`` shows them, checked, not rendered
    #: (:mod:`reprodocs.notes.runtime_text`).
    has_content = True

    def run(self) -> list[nodes.Node]:
        notes_domain(self.env).note_index_page(self.env.docname)
        filters = (
            self.options.get("backend", ""),
            self.options.get("pass", ""),
            self.options.get("deterministic-algorithms", ""),
        )
        placeholder = nondeterministic_ops(
            backend=filters[0],
            affected_pass=filters[1],
            deterministic_algorithms=filters[2],
            format=self.options.get("format", FORMATS[0]),
        )
        self.set_source_info(placeholder)
        if self.content:
            written = tuple(list_items(self.content))
            notes_domain(self.env).add_runtime_text(
                RuntimeText(self.name, as_location(*written_at(self)), written, filters=filters)
            )
        return [placeholder]


def collect(app: Sphinx, env: BuildEnvironment) -> dict[Entry, Note]:
    """The index of the entries the build's builder shows, sorted by
    operation, each with its entry in the registry."""
    entries = {}
    for note in notes_domain(env).notes():
        if not shown(app, note):
            continue
        # A page-level note, or an operation not documented as a Python
        # object, links to the page the note stands on (none for a file's).
        # Documented nowhere: a note is linked to where it is written; an
        # entry that renders nothing is not linked (nothing is there).
        written = Target(note.docname, "", "") if note.renders else Target("", "", "")
        target = documented_at(env, note.operation) or written
        title = env.titles[note.docname].astext() if note.docname in env.titles else ""
        listed_as = note.listed_as if note.listed_as != note.operation else ""
        entry = Entry(
            note.operation,
            note.directive,
            note.backend,
            note.affected_pass,
            note.docname,
            target.doc,
            target.anchor,
            title,
            note.deterministic_algorithms,
            note.when,
            target.objtype,
            aliases=note.aliases,
            with_condition=note.with_condition,
            cases=note.cases,
            alerts=note.alerts,
            renders=note.renders,
            listed_as=listed_as,
            # Where the listed name is documented; else the operation's place.
            listed_target=documented_at(env, listed_as) or target,
            registry_file=None if note.docname else registry_file_line(app, note),
        )
        entries[entry] = note
    return {entry: entries[entry] for entry in sorted(entries, key=lambda e: (e.label, *e))}


def registry_file_line(app: Sphinx, note: Note) -> tuple[str, int]:
    """Where an entry of the registry file is written: the file relative to
    the configuration folder (the path conf.py gives, whichever machine
    builds), and its line."""
    return Path(os.path.relpath(note.source, app.confdir)).as_posix(), note.line


def documented_at(env: BuildEnvironment, name: str) -> Target | None:
    """Where the Python object *name* is documented; None if it is not."""
    documented = python_objects(env).get(name) if name else None
    if documented is None:
        return None
    return Target(documented.docname, documented.node_id, documented.objtype)


@dataclass
class Published:
    """Per build: the index the tables, the lists and the JSON show."""

    entries: tuple[Entry, ...] = ()
    #: Where each entry's note is written (a list's ``:when:`` text is parsed
    #: there); not part of what the pages are written with.
    notes: dict[Entry, Note] = field(default_factory=dict)
    export_json: bool = True  #: ``reprodocs_export_json``, checked


def publish(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-updated``: keep the index for the build, and have the pages
    showing it written again if the output's were written with another
    (Sphinx would only write again pages whose source changed)."""
    notes = collect(app, env)
    entries = tuple(notes)
    published = build_state(env, Published)
    published.entries = entries
    published.notes = notes
    published.export_json = checked_setting(
        app, "reprodocs_export_json", lambda value: isinstance(value, bool), "True or False", True
    )
    digest = hashlib.sha256(repr(entries).encode()).hexdigest()
    if not written.changed(app, "index", digest):
        return []
    return sorted(notes_domain(env).index_pages)


def chosen_entries(placeholder: nondeterministic_ops, entries: Iterable[Entry]) -> list[Entry]:
    """The entries a table or list shows: those its filters let through."""
    # .get: a placeholder pickled by reprodocs before ":format:" has no such keys.
    deterministic_algorithms = placeholder.get("deterministic_algorithms", "")
    return chosen(
        entries, placeholder["backend"], placeholder["affected_pass"], deterministic_algorithms
    )


def chosen(
    entries: Iterable[Entry], backend: str, affected_pass: str, deterministic_algorithms: str
) -> list[Entry]:
    """The *entries* of *backend*, *affected_pass* and *deterministic_algorithms*
    ("" for any of each)."""
    return [
        entry
        for entry in entries
        if of_backend(entry, backend)
        and affected_pass in ("", entry.affected_pass)
        and deterministic_algorithms in ("", entry.deterministic_algorithms)
    ]


def of_backend(entry: Entry, backend: str) -> bool:
    """Whether *entry* is about *backend* ("" for any): one of its
    backends, or every backend."""
    backends = entry.backend.split(f"{SEPARATOR} ")
    return not backend or ANY_BACKEND in backends or backend in backends


def export_json(app: Sphinx, exception: Exception | None) -> None:
    """Write ``nondeterministic.json`` at the root of HTML output."""
    builder = app.builder
    published = build_state(app.env, Published)
    if (
        exception is not None
        or not isinstance(builder, StandaloneHTMLBuilder)  # html, dirhtml, singlehtml
        or not published.export_json
    ):
        return
    entries = published.entries
    document = {
        "version": JSON_VERSION,
        "project": app.config.project,
        "operations": [
            {
                "name": entry.name or None,
                "directive": entry.directive,
                "backend": entry.backend,
                "pass": entry.affected_pass,
                "docname": entry.docname or None,
                "uri": output_uri(builder, entry) if entry.target_doc else None,
                "deterministic_algorithms": entry.deterministic_algorithms or None,
                "when": entry.when or None,
                "with": entry.with_condition or None,
                "cases": list(entry.cases),
                "aliases": list(entry.aliases),
                "listed_as": entry.listed_as or None,
                "alerts": list(entry.alerts),
                "renders": entry.renders,
                "registry_file": registry_file_key(entry),
            }
            for entry in entries
        ],
    }
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    path = app.outdir / JSON_NAME
    # Left alone when unchanged, so that an incremental build changes no file;
    # else replaced whole, so that a reader never sees it half-written.
    try:
        unchanged = path.read_text(encoding="utf-8") == text
    except (OSError, ValueError):
        unchanged = False
    if not unchanged:
        replace_file(path, text)


def registry_file_key(entry: Entry) -> dict[str, object] | None:
    """Where an entry of the registry file is written; None for another entry."""
    if entry.registry_file is None:
        return None
    path, line = entry.registry_file
    return {"path": path, "line": line}


def output_uri(builder: StandaloneHTMLBuilder, entry: Entry) -> str:
    """The entry's address relative to the output root, anchor included."""
    page, _, fragment = builder.get_target_uri(entry.target_doc).partition("#")
    # singlehtml has one page, the root document, and pages as "#document-NAME".
    page = page or builder.config.root_doc + builder.out_suffix
    fragment = entry.anchor or fragment
    return f"{page}#{fragment}" if fragment else page
