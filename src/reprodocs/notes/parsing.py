"""The parser mechanics a note directive needs, apart from what the note
means: where the directive is written, the text after its name (which the
parsers hand over as content, and MyST tells apart only by the opening
line), the object description around it, and reStructuredText parsed at
the directive whatever the page's parser.

Where only a private or undocumented API of docutils, Sphinx or MyST
gives what is needed, the use says so. ``tests/test_notes_parsing.py`` (where a
note is written, the text after its name, the wording in MyST) and
``tests/test_notes_directives.py`` (the operation a note is on, in autodoc
output too) test each, on every supported Sphinx line.
"""

from __future__ import annotations

import os
import re
from itertools import islice, takewhile
from typing import TYPE_CHECKING

from docutils import nodes
from docutils.parsers.rst.states import RSTState, RSTStateMachine, state_classes
from docutils.statemachine import StringList

if TYPE_CHECKING:
    from sphinx.util.docutils import SphinxDirective

#: How autodoc names a docstring's source: "<module's file>:docstring of <name>".
DOCSTRING_OF = ":docstring of "


def page_source(directive: SphinxDirective) -> str:
    """The document's own file, as an absolute path."""
    env = directive.env
    return os.path.abspath(env.doc2path(env.docname))


def written_at(directive: SphinxDirective) -> tuple[str, int]:
    """Where *directive* is written: the file and the line in it.

    ``directive.lineno`` counts the lines of the page's input, which holds
    the lines of included files and, in autodoc's output, is generated text;
    docutils knows each line's origin. The file is an absolute path (an
    included file, the page), or a docstring as autodoc names it
    (``/path/mod.py:docstring of mod.func``, the line counted in the
    docstring; ``docstring of mod.func`` for a module without a source
    file). Where docutils knows no origin, the page, line 0 (unknown).
    """
    source, line = directive.get_source_info()
    if not source or not line:
        return page_source(directive), 0
    path, docstring_of, name = source.partition(DOCSTRING_OF)
    if os.path.isfile(path):  # docutils makes included files' paths relative
        source = os.path.abspath(path) + docstring_of + name
    return source, line


def as_location(source: str, line: int) -> str:
    """A file and line as Sphinx's warnings take them (no line if unknown)."""
    return f"{source}:{line}" if line else source


def argument_lines(directive: SphinxDirective) -> tuple[int, int]:
    """How many lines at the start of *directive*'s content were written
    after its name, and by how many lines the content's offset moves when
    they are dropped (the parsers count it differently)."""
    if not directive.content:
        return 0, 0
    if isinstance(directive.state, RSTState):
        # docutils: content that starts on the directive's own line, up to
        # the first blank line (its "argument block"). docutils documents no
        # way to tell; its content_offset is then the directive's own line.
        if directive.content_offset != directive.lineno - 1:
            return 0, 0
        blank = next((i for i, line in enumerate(directive.content) if not line.strip()), None)
        lines = len(directive.content) if blank is None else blank + 1
        return lines, lines
    # MyST (myst-parser 4 and 5) puts the text after ``{name}`` as the first
    # line of the content, which is then told from a first line written
    # below the opening line only by the opening line itself.
    text, offset_lines = myst_text_after_name(directive)
    if text and text == directive.content[0].strip():
        return 1, offset_lines
    return 0, 0


def myst_text_after_name(directive: SphinxDirective) -> tuple[str | None, int]:
    """The text after ``{name}`` on a MyST directive's opening line (None if
    the line is not known), and how the content's offset counts it.

    MyST has no API for it: what it gives a directive differs between its
    versions, each read as it is.
    """

    def opening(line: str) -> re.Match[str] | None:
        match = _MYST_OPENING.match(line)
        return match if match and match.group(1) == directive.name else None

    # myst-parser 5 gives the whole fence as block_text, and the content's
    # offset from the opening line (-1: the text on it).
    if match := opening(directive.block_text.partition("\n")[0]):
        return match.group(2).strip(), 1
    # myst-parser 4 gives the content alone, and the offset 0 for the text
    # on the opening line (already the next line's): the opening line is
    # read from the file. Its includes count one line too many.
    line = directive.get_source_info()[1]  # None where Sphinx 9.1 knows none
    if line is None:
        return None, 0
    for candidate in reversed(file_lines(directive, max(line - 2, 0), line)):
        if match := opening(candidate.rstrip("\r\n")):
            return match.group(2).strip(), 0
    return None, 0


def myst_option_names(directive: SphinxDirective) -> list[str]:
    """The options written in a MyST directive's block, by name, whether
    MyST read them or not (none where the block is not known).

    MyST runs a directive without each option it cannot read (an unknown
    name, a wrong value), saying only what is wrong with it; no API gives
    what was written. myst-parser 5 gives the whole fence as block_text;
    with myst-parser 4 the lines below the opening line are read from the
    file (not known in a docstring).
    """
    lines = directive.block_text.splitlines()
    if lines and _MYST_OPENING.match(lines[0]):
        below = lines[1:]
    else:
        line = directive.get_source_info()[1]
        below = [] if line is None else file_lines(directive, line, line + 200)
    if below and below[0].strip() == "---":  # the options as YAML, up to "---"
        block = list(takewhile(lambda text: text.strip() != "---", below[1:]))
        return [match.group(1) for text in block if (match := _YAML_KEY.match(text))]
    names = []
    for text in below:
        match = _FIELD.match(text.strip())
        if match is None:
            break
        names.append(match.group(1))
    return names


def file_lines(directive: SphinxDirective, start: int, stop: int) -> list[str]:
    """Lines *start* to *stop* (counted from 0) of the file *directive* is
    written in, without their ends; none where it is not a file (a
    docstring) or cannot be read."""
    source, line = directive.get_source_info()
    if not source or not line or not os.path.isfile(source):
        return []
    try:
        with open(source, encoding=directive.config.source_encoding, errors="replace") as file:
            return [text.rstrip("\r\n") for text in islice(file, start, stop)]
    except OSError:
        return []


#: A MyST directive's opening line (backticks, tildes or colons): the
#: directive's name, and the text after it.
_MYST_OPENING = re.compile(r"^\s*(?:`{3,}|~{3,}|:{3,})\s*\{([\w:-]+)\}(.*)$")
#: A key of MyST's YAML options.
_YAML_KEY = re.compile(r"^([A-Za-z0-9][\w-]*)\s*:")


#: A field-list line: ``:name: value`` at the start of the line.
_FIELD = re.compile(r"^:([A-Za-z0-9][\w.-]*):(?:\s+(.*))?$")


def options_at_own_indent(directive: SphinxDirective, names: tuple[str, ...]) -> dict[str, str]:
    """Options of *names* written below *directive* at its own indent (the
    page then shows them as a field list, and docutils says only "Explicit
    markup ends without a blank line"): each field of the lines that follow
    the directive's block, blank lines aside, as name and value; {} when
    they name none of *names*.

    docutils documents no way to the lines after a directive: its state
    machine's ``input_lines`` and ``line_offset`` (the last line of the
    directive's block while it runs) are public attributes, read as they
    are. Other parsers (MyST) write no options at an indent.
    """
    machine = directive.state_machine
    if not isinstance(directive.state, RSTState) or machine.input_lines is None:
        return {}
    fields: dict[str, str] = {}
    for line in machine.input_lines[machine.line_offset + 1 :]:
        if not line.strip() and not fields:
            continue
        match = _FIELD.match(line)
        if match is None:
            break
        fields.setdefault(match.group(1), (match.group(2) or "").strip())
    return fields if any(name in names for name in fields) else {}


def enclosing_object(directive: SphinxDirective) -> str:
    """The name of the object description *directive* is in, as its
    domain keeps it while the description's content is read, or "".

    Sphinx 8.2 and later keep it in ``env.current_document.obj_desc_name``;
    Sphinx 7.2 to 8.1 in ``env.temp_data["object"]``, which Sphinx does
    not document (a tuple for the Python domain, its first item the name).
    """
    env = directive.env
    current = getattr(env, "current_document", None)
    if current is not None:
        name: str = current.obj_desc_name
        return name
    stored = env.temp_data.get("object") or ""
    return str(stored[0] if isinstance(stored, tuple) else stored)


def parse_content(directive: SphinxDirective, lines: StringList, offset: int) -> list[nodes.Node]:
    """*lines* parsed by the page's own parser, as nodes.

    ``state.nested_parse`` rather than Sphinx's ``nested_parse_to_nodes``
    and ``parse_content_to_nodes``, which Sphinx 7.2 does not have.
    """
    container = nodes.Element()
    directive.state.nested_parse(lines, offset, container)
    return container.children[:]


def parse_rst(
    directive: SphinxDirective, lines: list[str], source: str, line: int
) -> list[nodes.Node]:
    """*lines* parsed as reStructuredText at *source*, *line* whatever the
    page's parser (in a MyST page ``directive.state`` parses Markdown)."""
    text = StringList(lines, items=[(source, line - 1)] * len(lines))
    if isinstance(directive.state, RSTState):
        # A reStructuredText page parses it like any directive's content, at
        # the directive's line as docutils counts it (which its reporter,
        # locating roles and errors, maps back to the file and line).
        return parse_content(directive, text, directive.lineno - 1)
    # Other parsers (MyST) get a reStructuredText state machine of their
    # own, made as docutils' Parser.parse makes it; that method takes a
    # string, so the lines would lose the file and line they come from.
    host = directive.state.document
    document = nodes.document(host.settings, host.reporter, source=source)
    RSTStateMachine(state_classes, initial_state="Body").run(text, document, input_offset=line - 1)
    for node in document.findall():
        # Move the nodes to the page: the scratch document would otherwise be
        # pickled with every doctree, and with it the whole environment.
        node.document = host
    return document.children[:]
