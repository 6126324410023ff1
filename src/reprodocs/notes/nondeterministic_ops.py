"""The collected index of nondeterministic operations: the
``nondeterministic-ops`` table or list and ``nondeterministic.json``, all
generated from the notes themselves and kept true in incremental and parallel
builds.

The index is computed once per build, after reading (``env-updated``), and
kept for the build. When it differs from the index the output directory's
pages were written with (``reprodocs.base.written``), the pages showing a
table or a list are written again, and only those.

Tables and lists are made when the page is written, just before Sphinx
resolves its references (a post-transform). A list's items read as
PyTorch's hand-written ones (``:func:`torch.histc` when called on a CUDA
tensor``); a table whose notes say what ``torch.use_deterministic_algorithms``
does gains a column saying it, under each note's condition. The
cross-references of a list's operations and of any ``:when:`` are Sphinx's
own, resolved by Sphinx. Neither reads another page's doctree: a ``:when:``
is kept as its source text in the note and parsed where it is shown.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from docutils import nodes
from docutils.parsers.rst import languages as rst_languages
from docutils.parsers.rst.states import Inliner
from docutils.utils import Reporter
from sphinx import addnodes
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import rst
from sphinx.util.docutils import SphinxDirective, sphinx_domains

from reprodocs.base import written
from reprodocs.base.files import replace_file
from reprodocs.base.i18n import _
from reprodocs.base.report import checked_setting
from reprodocs.base.state import build_state
from reprodocs.base.vocabulary import DETERMINISTIC, FORMATS, RAISES
from reprodocs.notes.conditions import shown
from reprodocs.notes.domain import PAGE_XREF, ReproducibilityDomain, notes_domain, python_objects
from reprodocs.notes.options import LIST_OPTION_SPEC

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from sphinx.application import Sphinx
    from sphinx.domains import Domain
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import OptionSpec

    from reprodocs.notes.domain import Note

#: The file's name, at the root of HTML output.
JSON_NAME = "nondeterministic.json"
#: The version of its format, the ``version`` key; bumped on incompatible changes.
JSON_VERSION = 2
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
    #: As in :attr:`reprodocs.notes.domain.Note.deterministic_algorithms`.
    deterministic_algorithms: str = ""
    #: As in :attr:`reprodocs.notes.domain.Note.when`: the condition's source text.
    when: str = ""
    #: How the Python domain documents the operation ("function", "class",
    #: "method", ...: ``ObjectEntry.objtype``); "" if it does not.
    objtype: str = ""

    @property
    def label(self) -> str:
        """What the Operation column shows."""
        return self.name or self.title


#: The role a list names an operation with, by how the Python domain
#: documents it; any other operation is a literal linked to its page.
XREF_ROLES = {"class": "class", "function": "func", "method": "meth"}


class nondeterministic_ops(nodes.General, nodes.Element):  # docutils names nodes so
    """Stands for a table or list until the page is written (:class:`RenderIndex`)."""


class NondeterministicOpsDirective(SphinxDirective):
    """``.. nondeterministic-ops::`` -- the table (or, with ``:format: list``,
    the bullet list) of every note of the project, optionally only those of one
    ``:backend:``, ``:pass:`` or ``:deterministic-algorithms:``."""

    option_spec: ClassVar[OptionSpec] = LIST_OPTION_SPEC

    def run(self) -> list[nodes.Node]:
        notes_domain(self.env).note_index_page(self.env.docname)
        placeholder = nondeterministic_ops(
            backend=self.options.get("backend", ""),
            affected_pass=self.options.get("pass", ""),
            deterministic_algorithms=self.options.get("deterministic-algorithms", ""),
            format=self.options.get("format", FORMATS[0]),
        )
        self.set_source_info(placeholder)
        return [placeholder]


def collect(app: Sphinx, env: BuildEnvironment) -> dict[Entry, Note]:
    """The index of the notes the build's builder shows, sorted by operation,
    each entry with its note."""
    domain = notes_domain(env)
    documented_objects = python_objects(env)
    entries = {}
    for note in domain.notes():
        if not shown(app, note):
            continue
        documented = documented_objects.get(note.operation) if note.operation else None
        if documented is not None:
            target_doc, anchor, objtype = documented.docname, documented.node_id, documented.objtype
        else:  # a page-level note, or an operation not documented as a Python object
            target_doc, anchor, objtype = note.docname, "", ""
        title = env.titles[note.docname].astext() if note.docname in env.titles else ""
        entry = Entry(
            note.operation,
            note.directive,
            note.backend,
            note.affected_pass,
            note.docname,
            target_doc,
            anchor,
            title,
            note.deterministic_algorithms,
            note.when,
            objtype,
        )
        entries[entry] = note
    return {entry: entries[entry] for entry in sorted(entries, key=lambda e: (e.label, *e))}


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
    return [
        entry
        for entry in entries
        if placeholder["backend"] in ("", entry.backend)
        and placeholder["affected_pass"] in ("", entry.affected_pass)
        and deterministic_algorithms in ("", entry.deterministic_algorithms)
    ]


def replace_placeholder(placeholder: nondeterministic_ops, replacement: nodes.Element) -> None:
    replacement.source, replacement.line = placeholder.source, placeholder.line
    placeholder.replace_self(replacement)


def nothing_noted() -> nodes.paragraph:
    """What a table or list is replaced with when it shows nothing."""
    return nodes.paragraph(
        "", _("No operation in this documentation is noted as nondeterministic.")
    )


class RenderIndex(SphinxPostTransform):
    """Each table and ``:format: list`` of the page, before Sphinx resolves
    the page's references: the cross-references they hold are resolved as
    the page's own."""

    default_priority = 5  # before sphinx.transforms.post_transforms.ReferencesResolver (10)

    def run(self, **kwargs: Any) -> None:
        if not notes_domain(self.env).index_pages:
            return  # no table or list anywhere
        placeholders = list(self.document.findall(nondeterministic_ops))
        if not placeholders:
            return
        published = build_state(self.env, Published)
        render = {"table": self.table, "list": self.bullet_list}
        with reading_context(self.env, self.env.docname):
            for placeholder in placeholders:
                chosen = chosen_entries(placeholder, published.entries)
                replacement = (
                    render[placeholder.get("format", "table")](chosen, published.notes)
                    if chosen
                    else nothing_noted()
                )
                replace_placeholder(placeholder, replacement)

    def table(self, entries: list[Entry], notes: dict[Entry, Note]) -> nodes.table:
        """One row per note: the operation linked to where it is documented,
        its backend, pass and directive; and, if a note among them says what
        ``torch.use_deterministic_algorithms(True)`` does, that and the
        note's condition (two notes of one operation differ there)."""
        headings = [_("Operation"), _("Backend"), _("Pass"), _("Note")]
        with_mode = any(entry.deterministic_algorithms for entry in entries)
        if with_mode:
            headings.append(_("With deterministic algorithms"))
        rows = []
        for entry in entries:
            cells = [
                cell(self.page_link(entry)),
                cell(nodes.Text(entry.backend)),
                cell(nodes.Text(entry.affected_pass)),
                cell(nodes.literal(entry.directive, entry.directive)),
            ]
            if with_mode:
                cells.append(cell(*self.deterministic_mode(entry, notes)))
            rows.append(cells)
        return table(headings, rows)

    def deterministic_mode(self, entry: Entry, notes: dict[Entry, Note]) -> list[nodes.Node]:
        """What ``torch.use_deterministic_algorithms(True)`` does to the
        operation, and when; nothing if the note does not say."""
        behaviour = DETERMINISTIC_MODE.get(entry.deterministic_algorithms)
        if behaviour is None:
            return []
        if not entry.when:
            return [nodes.Text(behaviour())]
        return fill_in(
            _("%(behaviour)s when %(condition)s"),
            behaviour=[nodes.Text(behaviour())],
            condition=self.condition(entry, notes),
        )

    def bullet_list(self, entries: list[Entry], notes: dict[Entry, Note]) -> nodes.bullet_list:
        """One item per operation and condition, in the table's order: the
        operation, then "when" and the condition."""
        items = nodes.bullet_list(bullet="*", classes=["nondeterministic-ops"])
        seen = set()
        for entry in entries:
            item_key = (entry.label, entry.target_doc, entry.anchor, entry.objtype, entry.when)
            if item_key in seen:  # the same words twice (say, a CUDA and a cuDNN note)
                continue
            seen.add(item_key)
            operation = self.operation(entry)
            paragraph = nodes.paragraph()
            if entry.when:
                paragraph += fill_in(
                    _("%(operation)s when %(condition)s"),
                    operation=operation,
                    condition=self.condition(entry, notes),
                )
            else:
                paragraph += operation
            items += nodes.list_item("", paragraph)
        return items

    def operation(self, entry: Entry) -> list[nodes.Node]:
        """The operation as a cross-reference of the kind the Python domain
        documents it, or as a literal (its page's title for a page-level note)
        linked to where it is documented."""
        role = XREF_ROLES.get(entry.objtype)
        if role and _PYTHON_NAME.match(entry.name):
            return self.parse_inline(f":py:{role}:`{entry.name}`", *self.placeholder_at())
        return [self.page_link(entry)]

    def page_link(self, entry: Entry) -> addnodes.pending_xref:
        """The operation as a literal (its page's title for a page-level
        note), linked to where it is documented."""
        label: nodes.Node
        label = nodes.literal(entry.name, entry.name) if entry.name else nodes.Text(entry.title)
        return addnodes.pending_xref(
            "",
            label,
            refdomain=ReproducibilityDomain.name,
            reftype=PAGE_XREF,
            reftarget=entry.target_doc,
            refanchor=entry.anchor,
            refexplicit=True,
            refdoc=self.env.docname,
        )

    def condition(self, entry: Entry, notes: dict[Entry, Note]) -> list[nodes.Node]:
        """The note's ``:when:``, parsed as written where the note is."""
        return self.parse_inline(entry.when, *self.written_at(notes[entry]))

    def written_at(self, note: Note) -> tuple[str, int]:
        """Where *note* is written, as a node's source and line."""
        source = note.source or os.path.abspath(self.env.doc2path(note.docname))
        return source, note.line

    def placeholder_at(self) -> tuple[str, int]:
        return self.document.get("source", ""), 0

    def parse_inline(self, text: str, source: str, line: int) -> list[nodes.Node]:
        """*text* parsed as inline reStructuredText in this page, every node
        located at *source*, *line*. Problems are not reported: the note's
        own wording, which holds the same text, reported them where it is
        written."""
        settings = self.document.settings
        reporter = Reporter(source, Reporter.SEVERE_LEVEL + 1, Reporter.SEVERE_LEVEL + 1)

        def source_and_line(lineno: int | None = None) -> tuple[str, int]:
            return source, line

        # Sphinx's roles ask the reporter where they are (a state machine tells it).
        reporter.get_source_and_line = source_and_line
        scratch = nodes.document(settings, reporter, source=source)
        inliner = Inliner()
        inliner.init_customizations(settings)
        memo = SimpleNamespace(
            document=scratch,
            reporter=reporter,
            language=rst_languages.get_language(settings.language_code, reporter),
            inliner=inliner,
        )
        parent = nodes.paragraph()
        parsed, _messages = inliner.parse(text, line, memo, parent)
        parent += parsed
        for node in list(parent.findall(include_self=False)):
            if isinstance(node, nodes.Element):
                node.source, node.line = source, line
                node.document = self.document
            if isinstance(node, addnodes.pending_xref):
                node[SHOWN_AGAIN] = True
            if isinstance(node, UNSERVED) or (
                isinstance(node, nodes.reference) and "refuri" not in node and "refid" not in node
            ):
                replace_with_text(node)
        return parent.children[:]


#: Marks a cross-reference of a condition shown again in a table or a list:
#: if it resolves to nothing, the note's own says so, once.
SHOWN_AGAIN = "reprodocs_shown_again"


def reported_with_the_note(app: Sphinx, domain: Domain | None, node: nodes.Element) -> bool:
    """``warn-missing-reference``: no warning for a condition's cross-reference
    shown again in a table or a list (the note's own, at the same file and
    line, gives it)."""
    return bool(node.get(SHOWN_AGAIN))


#: A name a cross-reference role takes as it is.
_PYTHON_NAME = re.compile(r"^[^\W\d][\w.]*$")

#: Inline nodes that only a whole document's transforms would complete (or,
#: for problems, report): written at write time, their text alone.
UNSERVED = (
    nodes.problematic,
    nodes.substitution_reference,
    nodes.footnote_reference,
    nodes.citation_reference,
    nodes.target,
    addnodes.index,
)


def replace_with_text(node: nodes.Element) -> None:
    """Replace *node*, one of :data:`UNSERVED` or a reference to nowhere,
    with its text: an auto-numbered footnote reference, whose number only
    the page's transforms give, with its source (``[#]_``); an element
    without text (an external hyperlink's target, an index entry) with
    nothing.

    Its ids and names are dropped (``replace_self`` refuses to): the note
    defines them where it is written, and the list would repeat them, or
    hold ids only the scratch document knew.
    """
    text = node.astext()
    if not text and isinstance(node, nodes.footnote_reference):
        text = node.rawsource
    node.parent.replace(node, [nodes.Text(text)] if text else [])


def fill_in(message: str, **parts: list[nodes.Node]) -> list[nodes.Node]:
    """*message*, translated, with each ``%(name)s`` replaced by nodes."""
    filled: list[nodes.Node] = []
    for index, piece in enumerate(re.split(r"%\((\w+)\)s", message)):
        if index % 2:
            filled += parts[piece]
        elif piece:
            filled.append(nodes.Text(piece))
    return filled


@contextmanager
def reading_context(env: BuildEnvironment, docname: str) -> Iterator[None]:
    """Roles and the default role as when *docname* is read: the list's
    text is parsed as it would be there (its cross-references are
    *docname*'s, and Sphinx resolves them as the page's own)."""
    state: Any = env
    current = getattr(state, "current_document", None)  # Sphinx 8.2 and later
    saved = current if current is not None else dict(state.temp_data)
    env.prepare_settings(docname)
    try:
        with sphinx_domains(env), rst.default_role(docname, env.config.default_role):
            yield
    finally:
        if current is not None:
            state.current_document = saved
        else:
            state.temp_data.clear()
            state.temp_data.update(saved)


#: What each ``:deterministic-algorithms:`` value makes of the operation, in
#: the words of ``torch.use_deterministic_algorithms``' docstring.
DETERMINISTIC_MODE = {
    RAISES: lambda: _("throws a RuntimeError"),
    DETERMINISTIC: lambda: _("acts deterministically"),
}


def table(headings: list[str], rows: list[list[nodes.paragraph]]) -> nodes.table:
    """A table of *headings* over *rows*."""
    head = [cell(nodes.Text(str(heading))) for heading in headings]
    # Widths in characters: the text builder lays the table out with them;
    # HTML sizes the columns itself ("colwidths-auto").
    widths = [
        max(len(paragraph.astext()) for paragraph in column) + 2
        for column in zip(head, *rows, strict=True)
    ]
    group = nodes.tgroup(cols=len(headings))
    group += [nodes.colspec(colwidth=width) for width in widths]
    group += nodes.thead("", row(head))
    group += nodes.tbody("", *(row(cells) for cells in rows))
    return nodes.table("", group, classes=["nondeterministic-ops", "colwidths-auto"])


def cell(*content: nodes.Node) -> nodes.paragraph:
    return nodes.paragraph("", "", *content)


def row(cells: Iterable[nodes.paragraph]) -> nodes.row:
    return nodes.row("", *(nodes.entry("", paragraph) for paragraph in cells))


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
                "deterministic_algorithms": entry.deterministic_algorithms or None,
                "when": entry.when or None,
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


def output_uri(builder: StandaloneHTMLBuilder, entry: Entry) -> str:
    """The entry's address relative to the output root, anchor included."""
    page, _, fragment = builder.get_target_uri(entry.target_doc).partition("#")
    # singlehtml has one page, the root document, and pages as "#document-NAME".
    page = page or builder.config.root_doc + builder.out_suffix
    fragment = entry.anchor or fragment
    return f"{page}#{fragment}" if fragment else page
