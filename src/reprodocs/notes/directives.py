"""The reproducibility note directives: one general form, three presets."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import jinja2
from docutils import nodes
from docutils.parsers.rst import directives
from docutils.parsers.rst.states import RSTState, RSTStateMachine, state_classes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

from reprodocs.base.i18n import __
from reprodocs.base.report import warn
from reprodocs.notes.domain import Note, notes_domain, python_objects
from reprodocs.notes.wording import join_wide_sentences, rst_escape, wording_of

if TYPE_CHECKING:
    from sphinx.util.typing import OptionSpec

PASSES = ("forward", "backward", "both")

#: The usual spelling of well-known backends, by lower-case name. Other
#: backends are kept as written.
BACKEND_SPELLINGS = {
    name.lower(): name
    for name in ("CUDA", "cuDNN", "ROCm", "MIOpen", "MPS", "XPU", "XLA", "CPU", "HIP")
}


def single_line(argument: str | None) -> str:
    """A required option value, its whitespace collapsed (it becomes inline text)."""
    # docutils passes None for an option without a value, which
    # unchanged_required rejects with its usual message (its stub says str).
    return " ".join(directives.unchanged_required(argument).split())  # type: ignore[arg-type]


def backend_option(argument: str | None) -> str:
    name = single_line(argument)
    return BACKEND_SPELLINGS.get(name.lower(), name)


def pass_option(argument: str | None) -> str:
    return directives.choice(single_line(argument).lower(), PASSES)


class NondeterministicDirective(SphinxDirective):
    """``.. nondeterministic::`` -- a "Note" admonition saying that the enclosing
    operation (or the page) may behave nondeterministically on a backend, with a
    link to the Reproducibility page; the directive's content follows the text."""

    has_content = True
    option_spec: ClassVar[OptionSpec] = {
        "backend": backend_option,
        "pass": pass_option,
        "op": single_line,
        "alternative": single_line,
    }
    #: Values used where an option is not given (the presets fix them).
    defaults: ClassVar[dict[str, str]] = {"backend": "CUDA", "pass": "both"}

    def run(self) -> list[nodes.Node]:
        self.drop_argument()
        options = {**self.defaults, **self.options}
        note = Note(
            operation=options.get("op") or self.enclosing_operation(),
            directive=self.name,
            backend=options["backend"],
            affected_pass=options["pass"],
            docname=self.env.docname,
            line=self.lineno,
        )
        if earlier := notes_domain(self.env).add_note(note):
            warn(
                "duplicate",
                __("%s: %s already carries this note (line %d)"),
                self.name,
                note.operation or __("this page"),
                earlier.line,
                location=self.get_location(),
            )

        admonition = nodes.note()
        self.set_source_info(admonition)
        admonition += self.wording_nodes(note, options.get("alternative", ""))
        admonition += self.parse_to_nodes(self.content, self.content_offset)
        return [admonition]

    def parse_to_nodes(self, lines: StringList, offset: int) -> list[nodes.Node]:
        """*lines* parsed by the page's own parser, as nodes.

        ``state.nested_parse`` rather than Sphinx's ``nested_parse_to_nodes``
        and ``parse_content_to_nodes``, which Sphinx 7.2 does not have.
        """
        container = nodes.Element()
        self.state.nested_parse(lines, offset, container)
        return container.children[:]

    def drop_argument(self) -> None:
        """Warn about, and drop, text after ``::``.

        The directives take no argument, so docutils hands such text over as
        the first lines of the content; that text is almost always an
        operation's name, which belongs in ``:op:``.
        """
        if not self.content or self.content_offset != self.lineno - 1:
            return
        blank = next((i for i, line in enumerate(self.content) if not line.strip()), None)
        argument_lines = len(self.content) if blank is None else blank + 1
        warn(
            "argument",
            __("%s takes no argument (use :op: to name the operation): %s"),
            self.name,
            " ".join(self.content[:argument_lines]).strip(),
            location=self.get_location(),
        )
        self.content = self.content[argument_lines:]
        self.content_offset += argument_lines

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
        # Sphinx 9.1 types both as optional; a directive's own are always known.
        known_source, known_line = self.get_source_info()
        source, line = known_source or self.env.docname, known_line or self.lineno
        templates = wording_of(self.env)
        try:
            text = templates.template().render(
                backend=rst_escape(note.backend),
                affected_pass=note.affected_pass,
                operation=rst_escape(note.operation),
                reproducibility=f":doc:`/{self.config.reprodocs_reproducibility_doc}`",
                alternative=alternative,
            )
        except jinja2.TemplateError as error:
            warn(
                "template",
                __("%s: cannot render %s: %s"),
                self.name,
                # The template that failed: one it includes, or the note's own.
                getattr(error, "name", None) or templates.template_name,
                error,
                location=self.get_location(),
            )
            return []
        # Every line of the wording is located at the directive.
        lines = join_wide_sentences(text.splitlines())
        wording = StringList(lines, items=[(source, line - 1)] * len(lines))
        if isinstance(self.state, RSTState):
            # A reStructuredText page parses it like any note's content.
            return self.parse_to_nodes(wording, line - 1)
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
        return document.children[:]


class PresetDirective(NondeterministicDirective):
    """A preset: backend and pass are fixed, so only ``:op:`` and
    ``:alternative:`` are accepted."""

    option_spec: ClassVar[OptionSpec] = {
        "op": single_line,
        "alternative": single_line,
    }


class CudaDeterministicBackward(PresetDirective):
    """``.. cuda-deterministic-backward::`` -- PyTorch 1.4's backward-pass note."""

    defaults: ClassVar[dict[str, str]] = {"backend": "CUDA", "pass": "backward"}


class CudaDeterministic(PresetDirective):
    """``.. cuda-deterministic::`` -- PyTorch 1.4's forward note."""

    defaults: ClassVar[dict[str, str]] = {"backend": "CUDA", "pass": "forward"}


class CudnnDeterministic(PresetDirective):
    """``.. cudnn-deterministic::`` -- PyTorch 1.4's cuDNN algorithm note."""

    defaults: ClassVar[dict[str, str]] = {"backend": "cuDNN", "pass": "both"}
