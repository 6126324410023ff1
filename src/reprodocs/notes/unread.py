"""Note directives whose options are not read, so that their entry is
not in the registry, and a warning at the directive says so, naming the
operation and why.

Options at the directive's own indent are no options: the page shows them
as a field list (:func:`warn_options_at_own_indent`, as the directive runs).
An unknown or repeated option, or a wrong value (``:pass: sideways``, an
empty ``:op:``), and docutils runs no directive, so no entry is recorded,
and says only what is wrong with the markup (:class:`UnreadNotes`). MyST
runs the directive without the options it cannot read, saying only what
is wrong with each: the entry is left out as reStructuredText leaves it
(:func:`warn_options_unread_by_myst`).

docutils reports such a directive as an error (a ``system_message``)
holding the directive's text as a literal block, in the doctree until
Sphinx filters the messages out (``FilterSystemMessages``, priority 999):
the transform reads them before.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from docutils import nodes
from docutils.parsers.rst.states import RSTState
from sphinx import addnodes
from sphinx.transforms import SphinxTransform

from reprodocs.base.i18n import __
from reprodocs.base.report import warn
from reprodocs.base.vocabulary import ENTRY_DIRECTIVES
from reprodocs.notes.parsing import (
    as_location,
    myst_option_names,
    options_at_own_indent,
    written_at,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sphinx.util.docutils import SphinxDirective

    from reprodocs.notes.domain import Note

_DIRECTIVE = re.compile(r"^\s*\.\.\s+([\w-]+)\s*::")
_OP = re.compile(r"^\s+:op:(.*)$", re.MULTILINE)


def warn_options_at_own_indent(directive: SphinxDirective, note: Note) -> bool:
    """Whether *directive*'s options are written at its own indent, so that
    it has none: then its entry *note* is to be left out of the registry (it
    would be another's, or out of the lists), which a warning says, naming
    the operation the options name."""
    # The directive's own spec: the project's fields are options too.
    fields = options_at_own_indent(directive, tuple(directive.option_spec or {}))
    if not fields:
        return False
    warn(
        "option",
        __(
            "%s: %s is not in the registry: its options (%s) are written at the "
            "directive's own indent, so the page shows them as a field list; "
            "indent them under the directive"
        ),
        directive.name,
        fields.get("op") or note.operation or __("this page's note"),
        ", ".join(f":{name}:" for name in fields),
        location=as_location(*written_at(directive)),
    )
    return True


def warn_options_unread_by_myst(directive: SphinxDirective, note: Note) -> bool:
    """Whether *directive*, in a MyST page, was run without options written
    in its block (MyST drops an unknown option, or one with a wrong value,
    and says what is wrong with it): then its entry *note* is to be left out
    of the registry, as in reStructuredText, which a warning says, naming
    the operation."""
    if isinstance(directive.state, RSTState):
        return False
    unread = [name for name in myst_option_names(directive) if name not in directive.options]
    if not unread:
        return False
    warn(
        "option",
        __("%s: %s is not in the registry: MyST did not read its options (%s)"),
        directive.name,
        note.operation or __("this page's note"),
        ", ".join(f":{name}:" for name in unread),
        location=as_location(*written_at(directive)),
    )
    return True


class UnreadNotes(SphinxTransform):
    """Warn, for each note directive docutils could not read, that its
    operation is not in the registry, and why."""

    default_priority = 500  # before FilterSystemMessages (999) removes the errors

    def apply(self, **kwargs: Any) -> None:
        for message, directive, text in unread_notes(self.document):
            # docutils' words: 'Error in "NAME" directive:\nunknown option: "x".'
            said = message.next_node(nodes.paragraph)
            reason = said.astext().partition("\n")[2].strip() if said is not None else ""
            warn(
                "option",
                __("%s: %s is not in the registry: %s"),
                directive,
                named_operation(message, text) or __("this page's note"),
                " ".join(reason.rstrip(".").split()) or __("docutils cannot read it"),
                # The message's own source and line (docutils keeps them as
                # attributes, which Sphinx's node locations do not read).
                location=as_location(message.get("source") or "", message.get("line") or 0)
                or (self.env.docname, None),
            )


def unread_notes(document: nodes.document) -> Iterator[tuple[nodes.system_message, str, str]]:
    """Each error docutils made of a note directive it could not read, with
    the directive's name and text."""
    for message in document.findall(nodes.system_message):
        if message.get("level", 0) < 3:  # an error or worse: the directive did not run
            continue
        for block in message.findall(nodes.literal_block):
            text = block.astext()
            match = _DIRECTIVE.match(text)
            if match and match.group(1) in ENTRY_DIRECTIVES:
                yield message, match.group(1), text
                break


def named_operation(message: nodes.system_message, text: str) -> str:
    """The operation the directive *text* is on: its (first) ``:op:``, else
    the object whose description holds it; "" for none (a page's note)."""
    if (written := _OP.search(text)) and written.group(1).strip():
        return " ".join(written.group(1).split())
    parent = message.parent
    while parent is not None and not isinstance(parent, addnodes.desc):
        parent = parent.parent
    signatures = list(parent.findall(addnodes.desc_signature)) if parent is not None else []
    ids = signatures[0].get("ids") if signatures else None
    return str(ids[0]) if ids else ""
