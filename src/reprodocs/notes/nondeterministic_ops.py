"""The collected index of nondeterministic operations: the
``nondeterministic-ops`` table and ``nondeterministic.json``, both generated
from the notes themselves and kept true in incremental and parallel builds.

The index is computed once per build, after reading (``env-updated``), and
kept for the build. When it differs from the index the output directory's
pages were written with (``reprodocs.base.written``), the pages showing a
table are written again, and only those.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from docutils import nodes
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode

from reprodocs.base import written
from reprodocs.base.i18n import _
from reprodocs.base.report import checked_setting
from reprodocs.base.state import build_state
from reprodocs.notes.conditions import shown
from reprodocs.notes.directives import backend_option, pass_option
from reprodocs.notes.domain import notes_domain, python_objects

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import OptionSpec

#: The file's name, at the root of HTML output.
JSON_NAME = "nondeterministic.json"
#: The version of its format, the ``version`` key; bumped on incompatible changes.
JSON_VERSION = 1
#: The JSON Schema of ``nondeterministic.json``, shipped with the package.
JSON_SCHEMA = Path(__file__).with_name("nondeterministic.schema.json")


class Entry(NamedTuple):
    """One row of the index: a note, and where its operation is documented."""

    name: str  #: the operation; "" for a page-level note without ``:op:``
    directive: str  #: the directive that made the note
    backend: str  #: as in :attr:`reprodocs.notes.domain.Note.backend`
    affected_pass: str  #: "forward", "backward" or "both"
    docname: str  #: the page carrying the note
    target_doc: str  #: the page documenting the operation
    anchor: str  #: the operation's anchor there; "" for the page itself
    title: str  #: the note's page title, shown for page-level notes

    @property
    def label(self) -> str:
        """What the Operation column shows."""
        return self.name or self.title


class nondeterministic_ops(nodes.General, nodes.Element):  # docutils names nodes so
    """Stands for an index table until the index is known (doctree-resolved)."""


class NondeterministicOpsDirective(SphinxDirective):
    """``.. nondeterministic-ops::`` -- the table of every note of the project,
    optionally only those of one ``:backend:`` or ``:pass:``."""

    option_spec: ClassVar[OptionSpec] = {"backend": backend_option, "pass": pass_option}

    def run(self) -> list[nodes.Node]:
        notes_domain(self.env).note_index_page(self.env.docname)
        placeholder = nondeterministic_ops(
            backend=self.options.get("backend", ""), affected_pass=self.options.get("pass", "")
        )
        self.set_source_info(placeholder)
        return [placeholder]


def collect(app: Sphinx, env: BuildEnvironment) -> tuple[Entry, ...]:
    """The index of the notes the build's builder shows, sorted by operation."""
    domain = notes_domain(env)
    documented_objects = python_objects(env)
    entries = []
    for note in domain.notes():
        if not shown(app, note):
            continue
        documented = documented_objects.get(note.operation) if note.operation else None
        if documented is not None:
            target_doc, anchor = documented.docname, documented.node_id
        else:  # a page-level note, or an operation not documented as a Python object
            target_doc, anchor = note.docname, ""
        title = env.titles[note.docname].astext() if note.docname in env.titles else ""
        entries.append(
            Entry(
                note.operation,
                note.directive,
                note.backend,
                note.affected_pass,
                note.docname,
                target_doc,
                anchor,
                title,
            )
        )
    return tuple(sorted(entries, key=lambda e: (e.label, *e)))


@dataclass
class Published:
    """Per build: the index the tables and the JSON show."""

    entries: tuple[Entry, ...] = ()
    export_json: bool = True  #: ``reprodocs_export_json``, checked


def publish(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-updated``: keep the index for the build, and have the pages
    showing it written again if the output's were written with another
    (Sphinx would only write again pages whose source changed)."""
    entries = collect(app, env)
    published = build_state(env, Published)
    published.entries = entries
    published.export_json = checked_setting(
        app, "reprodocs_export_json", lambda value: isinstance(value, bool), "True or False", True
    )
    digest = hashlib.sha256(repr(entries).encode()).hexdigest()
    if not written.changed(app, "index", digest):
        return []
    return sorted(notes_domain(env).index_pages)


def render_tables(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    entries = build_state(app.env, Published).entries
    for placeholder in doctree.findall(nondeterministic_ops):
        chosen = [
            entry
            for entry in entries
            if placeholder["backend"] in ("", entry.backend)
            and placeholder["affected_pass"] in ("", entry.affected_pass)
        ]
        replacement: nodes.Element
        if chosen:
            replacement = table(app.builder, docname, chosen)
        else:
            replacement = nodes.paragraph(
                "", _("No operation in this documentation is noted as nondeterministic.")
            )
        replacement.source, replacement.line = placeholder.source, placeholder.line
        placeholder.replace_self(replacement)


def table(builder: Builder, docname: str, entries: list[Entry]) -> nodes.table:
    headings = [str(heading) for heading in (_("Operation"), _("Backend"), _("Pass"), _("Note"))]
    columns = [
        headings,
        *([entry.label, entry.backend, entry.affected_pass, entry.directive] for entry in entries),
    ]
    # Widths in characters: the text builder lays the table out with them;
    # HTML sizes the columns itself ("colwidths-auto").
    widths = [max(len(cell) for cell in column) + 2 for column in zip(*columns, strict=True)]
    group = nodes.tgroup(cols=len(headings))
    group += [nodes.colspec(colwidth=width) for width in widths]
    group += nodes.thead("", row(nodes.Text(heading) for heading in headings))
    body = nodes.tbody()
    for entry in entries:
        label = nodes.literal(entry.name, entry.name) if entry.name else nodes.Text(entry.title)
        body += row(
            (
                make_refnode(builder, docname, entry.target_doc, entry.anchor or None, label),
                nodes.Text(entry.backend),
                nodes.Text(entry.affected_pass),
                nodes.literal(entry.directive, entry.directive),
            )
        )
    group += body
    return nodes.table("", group, classes=["nondeterministic-ops", "colwidths-auto"])


def row(cells: Iterable[nodes.Node]) -> nodes.row:
    return nodes.row("", *(nodes.entry("", nodes.paragraph("", "", cell)) for cell in cells))


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
                "docname": entry.docname,
                "uri": output_uri(builder, entry),
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
        written.replace_file(path, text)


def output_uri(builder: StandaloneHTMLBuilder, entry: Entry) -> str:
    """The entry's address relative to the output root, anchor included."""
    page, _, fragment = builder.get_target_uri(entry.target_doc).partition("#")
    # singlehtml has one page, the root document, and pages as "#document-NAME".
    page = page or builder.config.root_doc + builder.out_suffix
    fragment = entry.anchor or fragment
    return f"{page}#{fragment}" if fragment else page
