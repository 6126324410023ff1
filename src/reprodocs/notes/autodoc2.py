"""The entries of a docstring that sphinx-autodoc2 parses for a summary.

A module's page by sphinx-autodoc2 lists its classes and functions in a
table, each with its docstring's first paragraph: its ``autodoc2-docstring``
directive with ``:summary:`` parses the whole docstring, directives and
all, and keeps that paragraph. An entry in a function's docstring (a note,
or a ``nondeterministic-entry`` named by a label) would be read twice on
the page: first in the summary, where its target is dropped with the rest
of the parse, then in the object's own description, a repeat of the first
(warned about, and not recorded), its misuses warned about twice. While
a summary is parsed, the entries render nothing, warn about nothing and
are not recorded: each is read once, where the object is described and
its target kept (and a docstring that opens with one is summarised by
the paragraph after it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

#: sphinx-autodoc2's extension and the directive rendering a docstring.
EXTENSION = "autodoc2"
DOCSTRING_DIRECTIVE = "autodoc2-docstring"
#: The directive's option asking for a summary.
SUMMARY = "summary"
#: Set in the environment's per-document data while a summary is parsed.
IN_SUMMARY = "reprodocs_autodoc2_summary"


def in_summary(env: BuildEnvironment) -> bool:
    """Whether the text being parsed is a docstring for sphinx-autodoc2's
    summary (its first paragraph kept, the rest dropped)."""
    return bool(env.temp_data.get(IN_SUMMARY))


def mark_summaries(app: Sphinx) -> None:
    """``builder-inited``: where sphinx-autodoc2 is set up (before or after
    reprodocs), its docstring directive in its place, marking the summaries
    it parses."""
    if EXTENSION not in app.extensions:
        return
    from autodoc2.sphinx.docstring import DocstringRenderer

    class SummaryMarking(DocstringRenderer):
        __doc__ = DocstringRenderer.__doc__

        def run(self) -> list[nodes.Node]:
            if SUMMARY not in self.options:
                return super().run()
            outer = self.env.temp_data.get(IN_SUMMARY)
            self.env.temp_data[IN_SUMMARY] = True
            try:
                return super().run()
            finally:
                self.env.temp_data[IN_SUMMARY] = outer

    app.add_directive(DOCSTRING_DIRECTIVE, SummaryMarking, override=True)
