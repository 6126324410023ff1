"""The ``nondeterministic-ops`` tables and lists, made when a page is
written, just before Sphinx resolves its references (a post-transform), from
the index published for the build (:mod:`reprodocs.notes.publishing`).

A list's items read as PyTorch's hand-written ones (``:func:`torch.histc`
when called on a CUDA tensor``): the name the list uses, then "with …"
and "when …", then the cases of its condition as a nested list. A table
whose entries say what ``torch.use_deterministic_algorithms`` does gains a
column saying it, under each entry's condition, and one of their alerts
when some name them. The cross-references of an item and of its condition
are Sphinx's own, resolved by Sphinx. Nothing reads another page's doctree:
a condition is kept as its source text in the entry and parsed where it
is shown.
"""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from docutils import nodes
from docutils.parsers.rst import languages as rst_languages
from docutils.parsers.rst.states import Inliner
from docutils.utils import Reporter
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import rst
from sphinx.util.docutils import sphinx_domains

from reprodocs.base.i18n import _, __
from reprodocs.base.report import warn
from reprodocs.base.state import build_state
from reprodocs.base.vocabulary import DETERMINISTIC, LIST_DIRECTIVE, RAISES
from reprodocs.notes.declared_fields import declared_fields
from reprodocs.notes.domain import PAGE_XREF, ReproducibilityDomain, notes_domain
from reprodocs.notes.filtering import chosen_rows
from reprodocs.notes.index_table import cell_content, default_columns, heading, row_id
from reprodocs.notes.nondeterministic_ops import HEADINGS, nondeterministic_ops
from reprodocs.notes.parsing import as_location
from reprodocs.notes.publishing import Published, ShownValues

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from sphinx.application import Sphinx
    from sphinx.domains import Domain
    from sphinx.environment import BuildEnvironment

    from reprodocs.notes.domain import Note
    from reprodocs.notes.index_rows import Row, Target


#: The role a list names an operation with, by how the Python domain
#: documents it, as PyTorch's hand-kept lists write it (``:func:`` for a
#: method too); an operation documented nowhere is a ``:func:``, as there.
#: Any other name (a page's title, a label) is a literal linked to its page.
XREF_ROLES = {"class": "class", "exception": "class", "function": "func", "method": "func"}
UNDOCUMENTED_ROLE = "func"


def replace_placeholder(placeholder: nondeterministic_ops, replacement: nodes.Element) -> None:
    replacement.source, replacement.line = placeholder.source, placeholder.line
    placeholder.replace_self(replacement)


def nothing_shown(registry_empty: bool) -> nodes.paragraph:
    """What a table or list is replaced with when it shows nothing: the
    registry has no entry, or none its options choose (then saying there is
    none at all would be untrue)."""
    if registry_empty:
        return nodes.paragraph(
            "", _("No operation in this documentation is noted as nondeterministic.")
        )
    return nodes.paragraph(
        "",
        _(
            "None of the operations noted as nondeterministic in this documentation "
            "matches this selection."
        ),
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
        with reading_context(self.env, self.env.docname):
            for placeholder in placeholders:
                chosen = chosen_rows(placeholder, published.rows, declared_fields(self.env))
                if not chosen:
                    replacement: nodes.Element = nothing_shown(not published.rows)
                elif placeholder.get("format", "table") == "table":
                    replacement = self.table(
                        chosen, placeholder.get("columns", ()), placeholder.get(HEADINGS, ())
                    )
                else:
                    replacement = self.bullet_list(chosen)
                replace_placeholder(placeholder, replacement)

    def table(
        self, entries: list[Row], chosen: tuple[str, ...] = (), given: tuple[str, ...] = ()
    ) -> nodes.table:
        """One row per entry, its columns *chosen* (``:columns:``, each
        under the heading *given* it, where one is), or by
        default (:mod:`reprodocs.notes.index_table`): the operation linked to
        where it is documented, its backend, pass and directive; what
        ``torch.use_deterministic_algorithms(True)`` does and when, if an
        entry says it; each field with a column, where an entry has a value.
        A chosen table's rows are hyperlink targets."""
        declared = declared_fields(self.env)
        names = list(chosen) or default_columns(entries, declared)
        headings = [
            (given[index] if index < len(given) else "") or heading(name, declared)
            for index, name in enumerate(names)
        ]
        rows = [
            [cell(*cell_content(self, entry, name, declared)) for name in names]
            for entry in entries
        ]
        made = table(headings, rows)
        body = next(made.findall(nodes.tbody))
        for entry, row_node in zip(entries, body.findall(nodes.row), strict=True):
            if chosen or entry.note.label:  # a hyperlink target
                self.make_target(row_node, entry)
        return made

    def make_target(self, node: nodes.Element, entry: Row) -> None:
        """Make *node*, the row or item showing *entry*, a hyperlink target."""
        anchor = row_id(entry, self.document.ids)
        node["ids"].append(anchor)
        self.document.ids[anchor] = node

    def deterministic_mode(self, entry: Row) -> list[nodes.Node]:
        """What ``torch.use_deterministic_algorithms(True)`` does to the
        operation, and when; nothing if the entry does not say."""
        behaviour = DETERMINISTIC_MODE.get(entry.note.deterministic_algorithms)
        if behaviour is None:
            return []
        return self.with_condition("behaviour", [nodes.Text(behaviour())], entry)

    def bullet_list(self, entries: list[Row]) -> nodes.bullet_list:
        """One item per operation and condition, sorted by the name the list
        shows (then in the table's order): that name, then "with …" and
        "when …", then the condition's cases as a nested list."""
        items = nodes.bullet_list(bullet="*", classes=[LIST_DIRECTIVE])
        seen = set()
        for entry in sorted(entries, key=lambda entry: entry.listed[0]):
            name, target = entry.listed
            item_key = (name, target, entry.note.with_condition, entry.note.when, entry.note.cases)
            if item_key in seen:  # the same words twice (say, a CUDA and a cuDNN note)
                continue
            seen.add(item_key)
            operation = self.operation(name, target, literal=bool(entry.note.operation))
            paragraph = nodes.paragraph()
            paragraph += self.with_condition("operation", operation, entry)
            item = nodes.list_item("", paragraph)
            if entry.note.label:  # a hyperlink target, as its table row
                self.make_target(item, entry)
            if entry.note.cases:
                item += self.cases(entry)
            items += item
        return items

    def with_condition(
        self, subject: str, nodes_: list[nodes.Node], entry: Row
    ) -> list[nodes.Node]:
        """*nodes_* (the operation, or what deterministic mode does), then
        the entry's "with …" and "when …", in the words of *subject*'s message."""
        if not entry.has_condition:
            return nodes_
        parts = {subject: nodes_}
        if entry.note.with_condition:
            parts["with"] = self.parsed(entry.note.with_condition, entry)
        if entry.note.when:
            parts["condition"] = self.parsed(entry.note.when, entry)
        return fill_in(CONDITION_MESSAGES[subject, tuple(sorted(parts))](), **parts)

    def cases(self, entry: Row) -> nodes.bullet_list:
        """The condition's cases, a nested list."""
        cases = nodes.bullet_list(bullet="-")
        for case in entry.note.cases:
            cases += nodes.list_item("", nodes.paragraph("", "", *self.parsed(case, entry)))
        return cases

    def operation(self, name: str, target: Target, literal: bool) -> list[nodes.Node]:
        """The operation as a cross-reference of the kind the Python domain
        documents it, or as a literal (its page's title for a page-level note)
        linked to where it is documented."""
        role = XREF_ROLES.get(target.objtype) or (UNDOCUMENTED_ROLE if not target.doc else "")
        if not (role and literal and _PYTHON_NAME.match(name)):
            return [self.page_link(name, target, literal)]
        parsed = self.parse_inline(f":py:{role}:`{name}`", *self.placeholder_at())
        if not target.doc:  # documented nowhere: a literal, as in PyTorch's lists, unwarned
            for xref in parsed:
                if isinstance(xref, addnodes.pending_xref):
                    xref[SHOWN_AGAIN] = True
        return parsed

    def page_link(self, label: str, target: Target, literal: bool) -> nodes.Node:
        """*label* (a literal, or a page's title), linked to where it is
        documented; not linked for a registry file's entry documented nowhere."""
        shown: nodes.Node = nodes.literal(label, label) if literal else nodes.Text(label)
        if not target.doc:
            return shown
        return addnodes.pending_xref(
            "",
            shown,
            refdomain=ReproducibilityDomain.name,
            reftype=PAGE_XREF,
            reftarget=target.doc,
            refanchor=target.anchor,
            refexplicit=True,
            refdoc=self.env.docname,
        )

    def parsed(self, text: str, entry: Row, *, in_wording: bool = True) -> list[nodes.Node]:
        """Words of the entry, parsed as written where the entry is; their
        problems said (:func:`claim_report`) unless the note's wording shows
        them (*in_wording*, of a note that renders), which said them."""
        at = self.written_at(entry.note)
        report = not (in_wording and entry.note.renders) and claim_report(self.env, *at, text)
        return self.parse_inline(text, *at, report=report)

    def written_at(self, note: Note) -> tuple[str, int]:
        """Where *note* is written, as a node's source and line."""
        source = note.source or os.path.abspath(self.env.doc2path(note.docname))
        return source, note.line

    def placeholder_at(self) -> tuple[str, int]:
        return self.document.get("source", ""), 0

    def parse_inline(
        self, text: str, source: str, line: int, *, report: bool = False
    ) -> list[nodes.Node]:
        """*text* parsed as inline reStructuredText in this page, every node
        located at *source*, *line*. Problems are reported with *report*
        (markup, as a warning there; a cross-reference to nothing, by Sphinx);
        otherwise not: the note's own wording, which holds the same text,
        reported them where it is written (or an earlier table did)."""
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
        parsed, messages = inliner.parse(text, line, memo, parent)
        parent += parsed
        if report:
            warn_markup(messages, parent, as_location(source, line))
        for node in list(parent.findall(include_self=False)):
            if isinstance(node, nodes.Element):
                node.source, node.line = source, line
                node.document = self.document
            if isinstance(node, addnodes.pending_xref) and not report:
                node[SHOWN_AGAIN] = True
            if isinstance(node, UNSERVED) or (
                isinstance(node, nodes.reference) and "refuri" not in node and "refid" not in node
            ):
                replace_with_text(node)
        return parent.children[:]


def claim_report(env: BuildEnvironment, source: str, line: int, text: str) -> bool:
    """Record that the build has shown the value *text* of the entry at
    *source*, *line*; True the first time, when its problems are to be
    said (once a build)."""
    seen = build_state(env, ShownValues).seen
    first = (source, line, text) not in seen
    seen.add((source, line, text))
    return first


def warn_markup(messages: list[nodes.system_message], parsed: nodes.Element, location: str) -> None:
    """Each problem docutils found in an entry's value (a warning or worse:
    an inline literal without its end, a role it does not know), and each
    reference only a whole page resolves (a footnote's, a substitution's, a
    named hyperlink's), shown as its text, at the entry."""
    for message in messages:
        if message["level"] >= Reporter.WARNING_LEVEL:
            # Its words: the paragraph after docutils' own "file:line: (LEVEL)".
            said = message.children[0] if message.children else message
            text = " ".join(said.astext().split())
            warn("markup", __("an entry's value: %s"), text, location=location)
    for node in parsed.findall(nodes.Element):
        if isinstance(node, PAGE_REFERENCES) or (
            isinstance(node, nodes.reference) and "refname" in node
        ):
            written = node.rawsource or node.astext()
            warn(
                "markup",
                __("an entry's value: %r is a reference a table or a list shows as its text"),
                written,
                location=location,
            )


#: Marks a cross-reference of a condition shown again in a table or a list
#: (if it resolves to nothing, the note's own says so, once), or of an
#: operation documented nowhere, which the registry knows to be so.
SHOWN_AGAIN = "reprodocs_shown_again"


def reported_with_the_note(app: Sphinx, domain: Domain | None, node: nodes.Element) -> bool:
    """``warn-missing-reference``: no warning for a condition's cross-reference
    shown again in a table or a list (the note's own, at the same file and
    line, gives it)."""
    return bool(node.get(SHOWN_AGAIN))


#: A name a cross-reference role takes as it is.
_PYTHON_NAME = re.compile(r"^[^\W\d][\w.]*$")

#: The references of :data:`UNSERVED`: what they name is nowhere a table
#: or a list is.
PAGE_REFERENCES = (
    nodes.substitution_reference,
    nodes.footnote_reference,
    nodes.citation_reference,
)

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


#: The words of an item, or of a table's cell, with a condition, by what
#: they are about and the parts of the condition an entry has.
CONDITION_MESSAGES = {
    ("operation", ("condition", "operation")): lambda: _("%(operation)s when %(condition)s"),
    ("operation", ("operation", "with")): lambda: _("%(operation)s with %(with)s"),
    ("operation", ("condition", "operation", "with")): lambda: _(
        "%(operation)s with %(with)s when %(condition)s"
    ),
    ("behaviour", ("behaviour", "condition")): lambda: _("%(behaviour)s when %(condition)s"),
    ("behaviour", ("behaviour", "with")): lambda: _("%(behaviour)s with %(with)s"),
    ("behaviour", ("behaviour", "condition", "with")): lambda: _(
        "%(behaviour)s with %(with)s when %(condition)s"
    ),
}

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
    return nodes.table("", group, classes=[LIST_DIRECTIVE, "colwidths-auto"])


def cell(*content: nodes.Node) -> nodes.paragraph:
    return nodes.paragraph("", "", *content)


def row(cells: Iterable[nodes.paragraph]) -> nodes.row:
    return nodes.row("", *(nodes.entry("", paragraph) for paragraph in cells))
