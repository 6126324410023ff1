"""The reproducibility note directives: one general form, three presets."""

from __future__ import annotations

from typing import Any, ClassVar

import jinja2
from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from reprodocs.base.entry_schema import (
    ALGORITHMS,
    ALTERNATIVE,
    BACKEND,
    LABEL,
    OP,
    PASS,
    WHEN,
    WITH,
    WORDING,
    Field,
)
from reprodocs.base.i18n import __
from reprodocs.base.report import warn
from reprodocs.base.vocabulary import (
    CUDA_DETERMINISTIC,
    CUDA_DETERMINISTIC_BACKWARD,
    CUDNN_DETERMINISTIC,
    ENTRY_DIRECTIVE,
    ENTRY_DIRECTIVES,
    NOTE_DIRECTIVE,
    RUNTIME_TEXT_OPTION,
    Preset,
)
from reprodocs.notes.autodoc2 import in_summary
from reprodocs.notes.conditions import MARK
from reprodocs.notes.domain import Note, new_note, notes_domain, python_objects
from reprodocs.notes.labels import anchor_of, placed_targets, warn_misnamed
from reprodocs.notes.options import NoteOptionSpec
from reprodocs.notes.parsing import (
    argument_lines,
    as_location,
    enclosing_object,
    page_source,
    parse_content,
    written_at,
)
from reprodocs.notes.rendering import parsed_wording, rendered_lines
from reprodocs.notes.runtime_text import record_note_text
from reprodocs.notes.unread import warn_options_at_own_indent, warn_options_unread_by_myst
from reprodocs.notes.wording import rst_escape, wording_of


class NondeterministicDirective(SphinxDirective):
    """``.. nondeterministic::`` -- a "Note" admonition saying that the enclosing
    operation (or the page) may behave nondeterministically on a backend, with a
    link to the Reproducibility page; the directive's content follows the text."""

    has_content = True
    directive_name: ClassVar[str] = NOTE_DIRECTIVE
    option_spec = NoteOptionSpec()
    #: The fields the project declares (``reprodocs_entry_fields``): a
    #: subclass holding them stands for the directive where there are some
    #: (:mod:`reprodocs.notes.declared_fields`).
    declared: ClassVar[tuple[Field, ...]] = ()
    #: Whether the entry renders a note where it stands.
    renders: ClassVar[bool] = True

    @property
    def preset(self) -> Preset:
        """The backend and pass where no option gives them (the presets fix them)."""
        return ENTRY_DIRECTIVES[self.directive_name]

    def run(self) -> list[nodes.Node]:
        if in_summary(self.env):  # read again where the object is described
            return []
        note, recorded, options = self.recorded_note()
        admonition = nodes.note()
        self.set_source_info(admonition)
        if recorded:  # its place among the page's notes, for reprodocs.notes.conditions
            admonition[MARK] = len(notes_domain(self.env).notes_by_doc[self.env.docname]) - 1
        admonition += self.wording_nodes(
            note, options.get(ALTERNATIVE.option, ""), written_at(self)
        )
        if RUNTIME_TEXT_OPTION in options:  # checked on every build, not rendered
            values = self.wording_values(note, options.get(ALTERNATIVE.option, ""))
            record_note_text(self.env, note, self.location, values, options[RUNTIME_TEXT_OPTION])
        if self.content:
            admonition += parse_content(self, self.content, self.content_offset)
        return [*placed_targets(self.state.document, note, recorded), admonition]

    def recorded_note(self) -> tuple[Note, bool, dict[str, Any]]:
        """The directive's entry; whether it is recorded in the registry (not
        where it repeats one of the page, which is warned about); its options."""
        self.drop_argument()
        preset = {BACKEND.option: self.preset.backend, PASS.option: self.preset.affected_pass}
        options = {**preset, **self.options}
        note = self.note(options)
        if (
            warn_options_at_own_indent(self, note)
            or warn_options_unread_by_myst(self, note)
            or warn_misnamed(self.name, options, self.location)
        ):
            return note, False, options
        if earlier := notes_domain(self.env).add_note(note):
            warn_duplicate(self.name, note, earlier)
            return note, False, options
        return note, True, options

    def note(self, options: dict[str, Any]) -> Note:
        """The entry the directive's *options* make: named by a label, it
        has no operation (not the enclosing object's either), and an
        anchor where it is written."""
        source, line = written_at(self)
        label = options.get(LABEL.option, "")
        return new_note(
            options,
            self.declared,
            operation=options.get(OP.option) or ("" if label else self.enclosing_operation()),
            anchor=anchor_of(label, self.state.document.ids) if label else "",
            directive=self.name,
            docname=self.env.docname,
            line=line,
            source="" if source == page_source(self) else source,
            when=self.condition(options.get(WHEN.option, "")),
            wording=self.chosen_wording(options.get(WORDING.option, "")),
            renders=self.renders,
        )

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

    @property
    def location(self) -> str:
        """Where the directive is written, as Sphinx's warnings take it."""
        return as_location(*written_at(self))

    def drop_argument(self) -> None:
        """Warn about, and drop, text after the directive's name.

        The directives take no argument, so the parsers hand such text over as
        the first line(s) of the content; that text is almost always an
        operation's name, which belongs in ``:op:``.
        """
        lines, offset_lines = argument_lines(self)
        if not lines:
            return
        warn(
            "argument",
            __("%s takes no argument (use :op: to name the operation): %s"),
            self.name,
            " ".join(self.content[:lines]).strip(),
            location=self.location,
        )
        self.content = self.content[lines:]
        self.content_offset += offset_lines

    def enclosing_operation(self) -> str:
        """The fully-qualified name of the object description the directive is
        in (``py:function``, ``py:method``, autodoc output...), or ""."""
        name = enclosing_object(self)
        if not name:
            return ""
        module = self.env.ref_context.get("py:module")
        if module and f"{module}.{name}" in python_objects(self.env):
            return f"{module}.{name}"
        return name

    def wording_values(self, note: Note, alternative: str) -> dict[str, str]:
        """The values the wording's templates read of *note*: its fields', by
        the entry's attribute names, and the link and alternative."""
        return {
            BACKEND.attribute: rst_escape(note.backend),
            PASS.attribute: note.affected_pass,
            OP.attribute: rst_escape(note.operation),
            "reproducibility": f":doc:`/{wording_of(self.env).reproducibility_doc}`",
            ALTERNATIVE.option: alternative,
            ALGORITHMS.attribute: note.deterministic_algorithms,
            WHEN.attribute: with_cases(note.when, note.cases),
            WITH.attribute: note.with_condition,
        }

    def wording_nodes(self, note: Note, alternative: str, at: tuple[str, int]) -> list[nodes.Node]:
        """The rendered wording, parsed as reStructuredText whatever the page's
        parser, located *at* the directive (:func:`written_at`)."""
        templates = wording_of(self.env)
        template_name = templates.template_for(note.wording)
        values = self.wording_values(note, alternative)
        try:
            lines = rendered_lines(self.env, template_name, values)
        except jinja2.TemplateError as error:
            warn(
                "template",
                __("%s: cannot render %s: %s"),
                self.name,
                # The template that failed: one it includes, or the note's own.
                getattr(error, "name", None) or template_name,
                error,
                location=self.location,
            )
            return []
        source, line = at
        return parsed_wording(
            self, lines, source, line or 1
        )  # unknown: the wording needs some line


def warn_duplicate(directive: str, note: Note, earlier: Note) -> None:
    """Warn that *note*, of *directive*, repeats *earlier*, a note of the same page."""
    if earlier.place == note.place:
        warn(
            "duplicate",
            __("%s: %s already carries this note (line %d)"),
            directive,
            note.operation or note.label or __("this page"),
            earlier.line,
            location=note.location,
        )
    else:  # one of them is in an included file or a docstring
        warn(
            "duplicate",
            __("%s: %s already carries this note (in %s, line %d)"),
            directive,
            note.operation or note.label or __("this page"),
            earlier.place,
            earlier.line,
            location=note.location,
        )


def with_cases(when: str, cases: tuple[str, ...]) -> str:
    """``:when:`` followed by its cases, as a note's sentence names them (a
    list shows them as a nested list): "… is used: ``linear``, ``bicubic``"."""
    if not (when and cases):
        return when
    return f"{when}{' ' if when.endswith(':') else ', '}{', '.join(cases)}"


class PresetDirective(NondeterministicDirective):
    """A preset: backend and pass are fixed, so every option but ``:backend:``
    and ``:pass:`` is accepted."""


class CudaDeterministicBackward(PresetDirective):
    """``.. cuda-deterministic-backward::`` -- PyTorch 1.4's backward-pass note."""

    directive_name: ClassVar[str] = CUDA_DETERMINISTIC_BACKWARD


class CudaDeterministic(PresetDirective):
    """``.. cuda-deterministic::`` -- PyTorch 1.4's forward note."""

    directive_name: ClassVar[str] = CUDA_DETERMINISTIC


class CudnnDeterministic(PresetDirective):
    """``.. cudnn-deterministic::`` -- PyTorch 1.4's cuDNN algorithm note."""

    directive_name: ClassVar[str] = CUDNN_DETERMINISTIC


class NondeterministicEntry(NondeterministicDirective):
    """``.. nondeterministic-entry::`` -- an entry of the registry that renders
    nothing where it stands: for an operation whose documentation carries no
    note, listed, tabled, exported and checked as a note is."""

    has_content = False
    directive_name: ClassVar[str] = ENTRY_DIRECTIVE
    renders: ClassVar[bool] = False

    def run(self) -> list[nodes.Node]:
        if in_summary(self.env):  # read again where the object is described
            return []
        note, recorded, _options = self.recorded_note()
        # Nothing rendered: a comment marks its place, for the only and
        # ifconfig around it (reprodocs.notes.conditions removes it).
        mark = nodes.comment()
        if recorded:
            mark[MARK] = len(notes_domain(self.env).notes_by_doc[self.env.docname]) - 1
        return [*([mark] if recorded else []), *placed_targets(self.state.document, note, recorded)]


#: Every directive recording an entry of the registry, the notes' first.
NOTE_DIRECTIVE_CLASSES = (
    NondeterministicDirective,
    CudaDeterministicBackward,
    CudaDeterministic,
    CudnnDeterministic,
    NondeterministicEntry,
)
