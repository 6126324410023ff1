"""A note's wording as nodes: its template rendered with the note's values,
then parsed as reStructuredText, each once per reading for equal inputs.

Most notes of a site are alike (one preset, one backend), and rendering
and parsing the wording anew for each made the directive cost more than
the same note written by hand (``docs/performance.rst``). A rendering
depends on the template and the values it reads; a parse on the text, the
kind of page (reStructuredText or not) and what roles read while parsing
(the reference context, the page's default role). A parse is kept only if
its nodes are plain inline text and cross-references, without ids, names or
problems: anything else (footnotes, targets, substitutions, errors) the
page's document must see being parsed, so it is parsed for each note. A
kept parse is handed out as a copy located at the note and in its page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import jinja2
import jinja2.meta
from docutils import nodes
from docutils.parsers.rst.states import RSTState
from sphinx import addnodes

from reprodocs.base.state import build_state, new_build_state
from reprodocs.notes.parsing import parse_rst
from reprodocs.notes.wording import join_wide_sentences, template_sources, wording_of

if TYPE_CHECKING:
    from collections.abc import Hashable

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.docutils import SphinxDirective

#: The nodes a kept parse may hold: inline text, literals, cross-references.
REUSABLE = (
    nodes.Text,
    nodes.paragraph,
    nodes.literal,
    nodes.emphasis,
    nodes.strong,
    nodes.inline,
    addnodes.pending_xref,
)


@dataclass
class Worded:
    """Per reading: the wording rendered and parsed so far."""

    #: The variables each template reads (None: not known, so all of them).
    read: dict[str, frozenset[str] | None] = field(default_factory=dict)
    #: Rendered lines, by template and the values it reads.
    rendered: dict[Hashable, list[str]] = field(default_factory=dict)
    #: Parsed nodes, detached from any document, by text and context; None:
    #: that parse is made for each note.
    parsed: dict[Hashable, list[nodes.Node] | None] = field(default_factory=dict)


def forget_wording(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """``env-before-read-docs``: each reading renders and parses anew (a
    template may have changed since the last)."""
    new_build_state(env, Worded)


def rendered_lines(env: BuildEnvironment, template_name: str, values: dict[str, str]) -> list[str]:
    """Template *template_name* rendered with *values*, as lines.

    Raises jinja2.TemplateError as rendering does.
    """
    worded = build_state(env, Worded)
    environment = wording_of(env).environment
    if template_name not in worded.read:
        worded.read[template_name] = variables_read(environment, template_name)
    read = worded.read[template_name]
    key = (
        template_name,
        *((name, value) for name, value in values.items() if read is None or name in read),
    )
    if key not in worded.rendered:
        text = environment.get_template(template_name).render(**values)
        worded.rendered[key] = join_wide_sentences(text.splitlines())
    return worded.rendered[key]


def variables_read(environment: jinja2.Environment, template_name: str) -> frozenset[str] | None:
    """The variables template *template_name* and the templates it names
    read; None if that is not known (a template named by a variable, a
    syntax error)."""
    read: set[str] = set()
    for _name, source in template_sources(environment, template_name):
        try:
            tree = environment.parse(source)
        except jinja2.TemplateSyntaxError:
            return None
        if None in jinja2.meta.find_referenced_templates(tree):
            return None
        read |= jinja2.meta.find_undeclared_variables(tree)
    return frozenset(read)


def parsed_wording(
    directive: SphinxDirective, lines: list[str], source: str, line: int
) -> list[nodes.Node]:
    """*lines* parsed as reStructuredText at *source*, *line* (see
    :func:`reprodocs.notes.parsing.parse_rst`), every element located there."""
    worded = build_state(directive.env, Worded)
    key = (tuple(lines), isinstance(directive.state, RSTState), roles_context(directive.env))
    kept = worded.parsed.get(key)
    if kept is not None:
        return [placed(node.deepcopy(), directive, source, line) for node in kept]
    parsed = [
        placed(node, directive, source, line) for node in parse_rst(directive, lines, source, line)
    ]
    if key not in worded.parsed:
        worded.parsed[key] = [detached(node) for node in parsed] if reusable(parsed) else None
    return parsed


def roles_context(env: BuildEnvironment) -> Hashable:
    """What roles read from the environment while they parse: the reference
    context (the current module, class...: ``env.ref_context``) and the
    page's default role (``.. default-role::``; Sphinx keeps it in
    ``env.current_document`` since 8.2, in ``env.temp_data`` before)."""
    current = getattr(env, "current_document", None)
    default_role = (
        current.default_role if current is not None else env.temp_data.get("default_role")
    )
    return (repr(sorted(env.ref_context.items())), default_role)


def reusable(parsed: list[nodes.Node]) -> bool:
    """Whether a copy of *parsed* elsewhere is what parsing there gives."""
    return all(
        isinstance(node, REUSABLE)
        and not (isinstance(node, nodes.Element) and (node["ids"] or node["names"]))
        for top in parsed
        for node in top.findall()
    )


def placed(top: nodes.Node, directive: SphinxDirective, source: str, line: int) -> nodes.Node:
    """*top*, every element located at *source*, *line* (so that later
    warnings, an unknown document say, point at the note); a
    cross-reference's page is the directive's. A copy of a kept parse is in
    no document until it joins the page's."""
    for node in top.findall(nodes.Element):
        node.source, node.line = source, line
        if isinstance(node, addnodes.pending_xref) and "refdoc" in node:
            node["refdoc"] = directive.env.docname
    return top


def detached(top: nodes.Node) -> nodes.Node:
    """A copy of *top* in no document (kept, it would keep its page's)."""
    copy = top.deepcopy()
    for node in copy.findall():
        node.document = None  # type: ignore[assignment]  # docutils' own default; its stubs say document
    return copy
