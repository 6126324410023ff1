"""Which builders show a note: the ``only`` and ``ifconfig`` directives
around it. The table and ``nondeterministic.json`` a builder writes list
the notes that builder shows (a note inside ``.. only:: latex`` is in the
PDF's table, not the HTML's).

The directives mark each note's admonition with its place in the page's
list of notes (an entry, which renders nothing, a comment standing for
it); once the page is read, the conditions around each mark are kept with
its note, and the mark removed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from sphinx import addnodes

from reprodocs.notes.domain import notes_domain

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from reprodocs.notes.domain import Note

#: The attribute marking a note's admonition, while its page is read.
MARK = "reprodocs_note"


def record_conditions(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``: keep the conditions around each note of the page."""
    page_notes = notes_domain(app.env).notes_by_doc.get(app.env.docname, [])
    for marked in list(doctree.findall(nodes.Element)):
        index = marked.attributes.pop(MARK, None)
        if isinstance(marked, nodes.comment) and index is not None:
            marked.parent.remove(marked)  # an entry's mark, rendering nothing
        if index is None or index >= len(page_notes):
            continue
        conditions = tuple(
            (ancestor.tagname, ancestor["expr"])
            for ancestor in ancestors(marked)
            # sphinx.ext.ifconfig's node, by name: that extension may be off.
            if isinstance(ancestor, addnodes.only) or ancestor.tagname == "ifconfig"
        )
        if conditions:
            page_notes[index] = page_notes[index]._replace(conditions=conditions)


def ancestors(node: nodes.Element) -> list[nodes.Element]:
    """The elements around *node*, outermost first."""
    found = []
    while node.parent is not None:
        node = node.parent
        found.append(node)
    return found[::-1]


def shown(app: Sphinx, note: Note) -> bool:
    """Whether the build's builder shows *note*, as Sphinx's ``only`` and
    sphinx.ext.ifconfig decide when they write the page."""
    return all(holds(app, kind, expression) for kind, expression in note.conditions)


def holds(app: Sphinx, kind: str, expression: str) -> bool:
    if kind == "only":
        try:
            return app.builder.tags.eval_condition(expression)
        except Exception:  # noqa: BLE001 -- as Sphinx, which warns when it writes the page and shows it
            return True
    # As sphinx.ext.ifconfig evaluates it: an error replaces the content.
    # sphinx.ext.ifconfig's own namespace, built the same way (the values,
    # then the Config object's attributes), so that a name means the same.
    namespace = {value.name: value.value for value in app.config}
    namespace.update(app.config.__dict__.copy())
    namespace["builder"] = app.builder.name
    try:
        return bool(eval(expression, namespace))  # the project's own expression, as ifconfig
    except Exception:  # noqa: BLE001 -- as ifconfig, whatever the expression raises
        return False
