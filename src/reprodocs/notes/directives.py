"""The reproducibility note directives: one general form, three presets."""

from __future__ import annotations

import os
import re
from functools import cached_property
from itertools import islice
from typing import TYPE_CHECKING, ClassVar

import jinja2
from docutils import nodes
from docutils.parsers.rst.states import RSTState, RSTStateMachine, state_classes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

from reprodocs.base.i18n import __
from reprodocs.base.report import warn
from reprodocs.base.vocabulary import (
    CUDA_DETERMINISTIC,
    CUDA_DETERMINISTIC_BACKWARD,
    CUDNN_DETERMINISTIC,
    NOTE_DIRECTIVE,
    NOTE_DIRECTIVES,
    Preset,
)
from reprodocs.notes.conditions import MARK
from reprodocs.notes.domain import Note, notes_domain, python_objects
from reprodocs.notes.options import note_option_spec
from reprodocs.notes.wording import join_wide_sentences, rst_escape, wording_of

if TYPE_CHECKING:
    from sphinx.util.typing import OptionSpec

#: How autodoc names a docstring's source: "<module's file>:docstring of <name>".
DOCSTRING_OF = ":docstring of "


class NondeterministicDirective(SphinxDirective):
    """``.. nondeterministic::`` -- a "Note" admonition saying that the enclosing
    operation (or the page) may behave nondeterministically on a backend, with a
    link to the Reproducibility page; the directive's content follows the text."""

    has_content = True
    directive_name: ClassVar[str] = NOTE_DIRECTIVE
    option_spec: ClassVar[OptionSpec] = note_option_spec(NOTE_DIRECTIVE)

    @property
    def preset(self) -> Preset:
        """The backend and pass where no option gives them (the presets fix them)."""
        return NOTE_DIRECTIVES[self.directive_name]

    def run(self) -> list[nodes.Node]:
        self.drop_argument()
        preset = {"backend": self.preset.backend, "pass": self.preset.affected_pass}
        options = {**preset, **self.options}
        source, line = self.written_at
        note = Note(
            operation=options.get("op") or self.enclosing_operation(),
            directive=self.name,
            backend=options["backend"],
            affected_pass=options["pass"],
            docname=self.env.docname,
            line=line,
            source="" if source == self.page_source else source,
            deterministic_algorithms=options.get("deterministic-algorithms", ""),
            when=self.condition(options.get("when", "")),
            wording=self.chosen_wording(options.get("wording", "")),
        )
        domain = notes_domain(self.env)
        if earlier := domain.add_note(note):
            if earlier.place == note.place:
                warn(
                    "duplicate",
                    __("%s: %s already carries this note (line %d)"),
                    self.name,
                    note.operation or __("this page"),
                    earlier.line,
                    location=note.location,
                )
            else:  # one of them is in an included file or a docstring
                warn(
                    "duplicate",
                    __("%s: %s already carries this note (in %s, line %d)"),
                    self.name,
                    note.operation or __("this page"),
                    earlier.place,
                    earlier.line,
                    location=note.location,
                )

        admonition = nodes.note()
        self.set_source_info(admonition)
        if not earlier:  # its place among the page's notes, for reprodocs.notes.conditions
            admonition[MARK] = len(domain.notes_by_doc[note.docname]) - 1
        admonition += self.wording_nodes(note, options.get("alternative", ""))
        admonition += self.parse_to_nodes(self.content, self.content_offset)
        return [admonition]

    def condition(self, when: str) -> str:
        """``:when:`` without a leading word "when", which the note's sentence
        and the lists add (they would read "when when called on ..."):
        dropped, with a warning at the directive, as text after the
        directive's name is."""
        word, _space, rest = when.partition(" ")
        if word.lower() != "when" or not rest:
            return when
        warn(
            "when",
            __('%s: :when: %s starts with "when", which the note adds; it is dropped'),
            self.name,
            when,
            location=self.location,
        )
        return rest

    def chosen_wording(self, name: str) -> str:
        """The wording set ``:wording:`` names, or "" (the site's) when it
        names none (with a warning at the directive) or is not given."""
        if not name:
            return ""
        sets = wording_of(self.env).sets
        if name in sets:
            return name
        warn(
            "wording",
            __("%s: :wording: %s names no wording set (the sets are %s); using the site's"),
            self.name,
            name,
            ", ".join(sets),
            location=self.location,
        )
        return ""

    def parse_to_nodes(self, lines: StringList, offset: int) -> list[nodes.Node]:
        """*lines* parsed by the page's own parser, as nodes.

        ``state.nested_parse`` rather than Sphinx's ``nested_parse_to_nodes``
        and ``parse_content_to_nodes``, which Sphinx 7.2 does not have.
        """
        container = nodes.Element()
        self.state.nested_parse(lines, offset, container)
        return container.children[:]

    @cached_property
    def page_source(self) -> str:
        """The document's own file, as an absolute path."""
        return os.path.abspath(self.env.doc2path(self.env.docname))

    @cached_property
    def written_at(self) -> tuple[str, int]:
        """Where the directive is written: the file and the line in it.

        ``self.lineno`` counts the lines of the page's input, which holds the
        lines of included files and, in autodoc's output, is generated text;
        docutils knows each line's origin. The file is an absolute path (an
        included file, the page), or a docstring as autodoc names it
        (``/path/mod.py:docstring of mod.func``, the line counted in the
        docstring; ``docstring of mod.func`` for a module without a source
        file). Where docutils knows no origin, the page, line 0 (unknown).
        """
        source, line = self.get_source_info()
        if not source or not line:
            return self.page_source, 0
        path, docstring_of, name = source.partition(DOCSTRING_OF)
        if os.path.isfile(path):  # docutils makes included files' paths relative
            source = os.path.abspath(path) + docstring_of + name
        return source, line

    @property
    def location(self) -> str:
        """:attr:`written_at` as Sphinx's warnings take it."""
        source, line = self.written_at
        return f"{source}:{line}" if line else source

    def drop_argument(self) -> None:
        """Warn about, and drop, text after the directive's name.

        The directives take no argument, so the parsers hand such text over as
        the first line(s) of the content; that text is almost always an
        operation's name, which belongs in ``:op:``.
        """
        argument_lines, offset_lines = self.argument_lines()
        if not argument_lines:
            return
        warn(
            "argument",
            __("%s takes no argument (use :op: to name the operation): %s"),
            self.name,
            " ".join(self.content[:argument_lines]).strip(),
            location=self.location,
        )
        self.content = self.content[argument_lines:]
        self.content_offset += offset_lines

    def argument_lines(self) -> tuple[int, int]:
        """How many lines at the start of the content were written after the
        directive's name, and by how many lines the content's offset moves
        when they are dropped (the parsers count it differently)."""
        if not self.content:
            return 0, 0
        if isinstance(self.state, RSTState):
            # docutils: content that starts on the directive's own line, up to
            # the first blank line (its "argument block").
            if self.content_offset != self.lineno - 1:
                return 0, 0
            blank = next((i for i, line in enumerate(self.content) if not line.strip()), None)
            lines = len(self.content) if blank is None else blank + 1
            return lines, lines
        # MyST (myst-parser 4 and 5) puts the text after ``{name}`` as the first
        # line of the content, which is then told from a first line written
        # below the opening line only by the opening line itself.
        text, offset_lines = self.myst_text_after_name()
        if text and text == self.content[0].strip():
            return 1, offset_lines
        return 0, 0

    def myst_text_after_name(self) -> tuple[str | None, int]:
        """The text after ``{name}`` on a MyST directive's opening line (None if
        the line is not known), and how the content's offset counts it."""
        opening = re.compile(r"^\s*(?:`{3,}|~{3,}|:{3,})\s*\{" + re.escape(self.name) + r"\}(.*)$")
        # myst-parser 5 gives the whole fence as block_text, and the content's
        # offset from the opening line (-1: the text on it).
        if match := opening.match(self.block_text.partition("\n")[0]):
            return match.group(1).strip(), 1
        # myst-parser 4 gives the content alone, and the offset 0 for the text
        # on the opening line (already the next line's): the opening line is
        # read from the file. Its includes count one line too many.
        source, line = self.get_source_info()
        if not source or not line or not os.path.isfile(source):
            return None, 0
        try:
            with open(source, encoding=self.config.source_encoding, errors="replace") as file:
                candidates = list(islice(file, max(line - 2, 0), line))
        except OSError:
            return None, 0
        for candidate in reversed(candidates):
            if match := opening.match(candidate.rstrip("\r\n")):
                return match.group(1).strip(), 0
        return None, 0

    def enclosing_operation(self) -> str:
        """The fully-qualified name of the object description the directive is
        in (``py:function``, ``py:method``, autodoc output...), or ""."""
        current = getattr(self.env, "current_document", None)  # Sphinx 8.2 and later
        if current is not None:
            name: str = current.obj_desc_name
        else:  # Sphinx 7.2 to 8.1 keep the domain's own name, a tuple for Python
            stored = self.env.temp_data.get("object") or ""
            name = stored[0] if isinstance(stored, tuple) else stored
        if not name:
            return ""
        module = self.env.ref_context.get("py:module")
        if module and f"{module}.{name}" in python_objects(self.env):
            return f"{module}.{name}"
        return name

    def wording_nodes(self, note: Note, alternative: str) -> list[nodes.Node]:
        """The rendered wording, parsed as reStructuredText whatever the page's
        parser (in a MyST page ``self.state`` parses Markdown)."""
        source, line = self.written_at
        line = line or 1  # unknown: the wording needs some line
        templates = wording_of(self.env)
        try:
            text = templates.template(note.wording).render(
                backend=rst_escape(note.backend),
                affected_pass=note.affected_pass,
                operation=rst_escape(note.operation),
                reproducibility=f":doc:`/{templates.reproducibility_doc}`",
                alternative=alternative,
                deterministic_algorithms=note.deterministic_algorithms,
                when=note.when,
            )
        except jinja2.TemplateError as error:
            warn(
                "template",
                __("%s: cannot render %s: %s"),
                self.name,
                # The template that failed: one it includes, or the note's own.
                getattr(error, "name", None) or templates.template_for(note.wording),
                error,
                location=self.location,
            )
            return []
        lines = join_wide_sentences(text.splitlines())
        wording = StringList(lines, items=[(source, line - 1)] * len(lines))
        if isinstance(self.state, RSTState):
            # A reStructuredText page parses it like any note's content, at
            # the directive's line as docutils counts it (which its reporter,
            # locating roles and errors, maps back to the file and line).
            parsed = self.parse_to_nodes(wording, self.lineno - 1)
        else:
            # Other parsers (MyST) get a reStructuredText state machine of their own.
            host = self.state.document
            document = nodes.document(host.settings, host.reporter, source=source)
            RSTStateMachine(state_classes, initial_state="Body").run(
                wording, document, input_offset=line - 1
            )
            for node in document.findall():
                # Move the nodes to the page: the scratch document would otherwise be
                # pickled with every doctree, and with it the whole environment.
                node.document = host
            parsed = document.children[:]
        # Every node of the wording is located at the directive, so that later
        # warnings (an unknown document) point at the note.
        for top in parsed:
            for node in top.findall(nodes.Element):
                node.source, node.line = source, line
        return parsed


class PresetDirective(NondeterministicDirective):
    """A preset: backend and pass are fixed, so every option but ``:backend:``
    and ``:pass:`` is accepted."""

    option_spec: ClassVar[OptionSpec] = note_option_spec(CUDA_DETERMINISTIC)


class CudaDeterministicBackward(PresetDirective):
    """``.. cuda-deterministic-backward::`` -- PyTorch 1.4's backward-pass note."""

    directive_name: ClassVar[str] = CUDA_DETERMINISTIC_BACKWARD


class CudaDeterministic(PresetDirective):
    """``.. cuda-deterministic::`` -- PyTorch 1.4's forward note."""

    directive_name: ClassVar[str] = CUDA_DETERMINISTIC


class CudnnDeterministic(PresetDirective):
    """``.. cudnn-deterministic::`` -- PyTorch 1.4's cuDNN algorithm note."""

    directive_name: ClassVar[str] = CUDNN_DETERMINISTIC


#: Every note directive's class.
NOTE_DIRECTIVE_CLASSES = (
    NondeterministicDirective,
    CudaDeterministicBackward,
    CudaDeterministic,
    CudnnDeterministic,
)
