"""``.. note-directives-table::``: the note directives, their backend, pass
and options, from the vocabulary the directives are built from
(:mod:`reprodocs.base.vocabulary`), so that the page cannot drift from them."""

from __future__ import annotations

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

from reprodocs.base.vocabulary import NOTE_DIRECTIVE, NOTE_DIRECTIVES, note_options


class NoteDirectivesTable(SphinxDirective):
    def run(self) -> list[nodes.Node]:
        rows = ["* - directive", "  - backend", "  - pass", "  - options"]
        # The presets first; the general directive, which takes any, last.
        for name in sorted(NOTE_DIRECTIVES, key=lambda name: name == NOTE_DIRECTIVE):
            backend, affected_pass = NOTE_DIRECTIVES[name]
            if name == NOTE_DIRECTIVE:
                backend, affected_pass = "``:backend:``", "``:pass:``"
            options = ", ".join(f"``:{option}:``" for option in note_options(name))
            rows += [
                f"* - :ref:`{name} <directive-{name}>`",
                f"  - {backend}",
                f"  - {affected_pass}",
                f"  - {options}",
            ]
        table = [".. list-table::", "   :header-rows: 1", "", *(f"   {row}" for row in rows)]
        holder = nodes.container()
        self.state.nested_parse(StringList(table, self.get_source_info()[0]), 0, holder)
        return holder.children


def setup(app):
    app.add_directive("note-directives-table", NoteDirectivesTable)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
