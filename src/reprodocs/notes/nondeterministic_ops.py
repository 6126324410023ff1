"""The ``nondeterministic-ops`` directive, and the node standing for its
table or list until the page is written.

The registry's index is generated from the registry's entries (the notes,
the entries that render nothing, the registry file's) and kept true in
incremental and parallel builds: its rows (``index_rows``), collected
(``collecting``) and published for the build (``publishing``); the rows a
table or list shows (``filtering``); the tables and lists, made as a page
is written (``nondeterministic_ops_render``); ``nondeterministic.json``
(``json_export``), whose format's version and schema are public here.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from reprodocs.base.entry_schema import ALGORITHMS, BACKEND, PASS
from reprodocs.base.i18n import __
from reprodocs.base.report import warn
from reprodocs.base.runtime_text import list_items
from reprodocs.base.vocabulary import COLUMNS_OPTION, FORMATS, HAVING_OPTION
from reprodocs.base.vocabulary import JSON_NAME as JSON_NAME  # noqa: PLC0414 (public here too)
from reprodocs.notes.declared_fields import declared_fields
from reprodocs.notes.domain import RuntimeText, notes_domain
from reprodocs.notes.filtering import HAVING_VALUES, having_fields
from reprodocs.notes.index_table import column_names, field_names
from reprodocs.notes.options import LIST_OPTION_SPEC
from reprodocs.notes.parsing import as_location, written_at

if TYPE_CHECKING:
    from sphinx.util.typing import OptionSpec

#: The version of the registry's export (base.vocabulary.JSON_NAME)'s format, the ``version`` key; bumped on incompatible changes.
JSON_VERSION = 3
#: The JSON Schema of ``nondeterministic.json``, shipped with the package.
JSON_SCHEMA = Path(__file__).with_name("nondeterministic.schema.json")
#: The placeholder's attribute holding the headings ``:columns:`` gives its
#: columns (``name=Heading``), by column; "" where none is given.
HEADINGS = "headings"


class nondeterministic_ops(nodes.General, nodes.Element):  # docutils names nodes so
    """Stands for a table or list until the page is written (:class:`RenderIndex`)."""


class NondeterministicOpsDirective(SphinxDirective):
    """``.. nondeterministic-ops::`` -- the table (or, with ``:format: list``,
    the bullet list) of every note of the project, optionally only those of one
    ``:backend:``, ``:pass:`` or ``:deterministic-algorithms:``."""

    option_spec: ClassVar[OptionSpec] = LIST_OPTION_SPEC
    #: The items as ``help()`` shows them, checked, not rendered
    #: (:mod:`reprodocs.notes.runtime_text`).
    has_content = True

    def run(self) -> list[nodes.Node]:
        notes_domain(self.env).note_index_page(self.env.docname)
        backend, affected_pass, algorithms = (
            self.options.get(field.option, "") for field in (BACKEND, PASS, ALGORITHMS)
        )
        filters = (backend, affected_pass, algorithms)
        placeholder = nondeterministic_ops(
            **{BACKEND.attribute: backend, PASS.attribute: affected_pass},
            **{ALGORITHMS.attribute: algorithms},
            format=self.options.get("format", FORMATS[0]),
        )
        self.set_source_info(placeholder)
        if COLUMNS_OPTION in self.options:
            columns = self.columns()
            placeholder[COLUMNS_OPTION] = tuple(name for name, _ in columns)
            placeholder[HEADINGS] = tuple(given for _, given in columns)
        having = self.having() if HAVING_OPTION in self.options else []
        if having:
            placeholder[HAVING_OPTION] = tuple(name for name, _ in having)
            placeholder[HAVING_VALUES] = tuple(value for _, value in having)
        if self.content:
            written = tuple(list_items(self.content))
            fields = having_fields(having, declared_fields(self.env))
            notes_domain(self.env).add_runtime_text(
                RuntimeText(
                    self.name,
                    as_location(*written_at(self)),
                    written,
                    filters=filters,
                    having=fields,
                )
            )
        return [placeholder]

    def columns(self) -> list[tuple[str, str]]:
        """The columns ``:columns:`` gives, each a name and the heading
        given it (``name=Heading``; "" for its own), those whose name is a
        column's: a heading given empty is a warning, the column's own used."""
        pairs = self.named_pairs(
            COLUMNS_OPTION, __("%s: :%s: %r gives the column %r no heading; its own is used")
        )
        columns: list[tuple[str, str]] = []
        for name, given in pairs:
            if any(name == chosen for chosen, _ in columns):
                warn(
                    "option",
                    __("%s: :%s: names the column %r twice; it is shown once, first"),
                    self.name,
                    COLUMNS_OPTION,
                    name,
                    location=as_location(*written_at(self)),
                )
            else:
                columns.append((name, given))
        return columns

    def having(self) -> list[tuple[str, str]]:
        """The fields ``:having:`` names, each with the value a row must
        have there (``name=value``; "" for any value), those whose name is
        a field's: a value given empty is a warning, any value then kept."""
        return self.named_pairs(
            HAVING_OPTION, __("%s: :%s: %r gives the field %r no value; any value is kept")
        )

    def named_pairs(self, option: str, empty: str) -> list[tuple[str, str]]:
        """The items of *option*, each ``name`` or ``name=text``, as (name,
        text) pairs, those whose name *option* knows; *empty* is said of a
        ``name=`` with no text."""
        pairs = []
        for item in self.options[option]:
            name, equals, given = (part.strip() for part in item.partition("="))
            pairs.append((name, given))
            if equals and not given:
                warn(
                    "option",
                    empty,
                    self.name,
                    option,
                    item,
                    name,
                    location=as_location(*written_at(self)),
                )
        known = set(self.known_names(option, tuple(name for name, _ in pairs)))
        return [(name, given) for name, given in pairs if name in known]

    def known_names(self, option: str, given: tuple[str, ...]) -> tuple[str, ...]:
        """The names *given* to *option* (``:columns:``, ``:having:``) that
        are a column's or a field's; each other one a warning at the
        directive, left out."""
        declared = declared_fields(self.env)
        known = column_names(declared) if option == COLUMNS_OPTION else field_names(declared)
        for name in given:
            if name not in known:
                warn(
                    "option",
                    __("%s: :%s: %r is not a column or field name (known: %s); it is left out"),
                    self.name,
                    option,
                    name,
                    ", ".join(known),
                    location=as_location(*written_at(self)),
                )
        return tuple(name for name in given if name in known)
