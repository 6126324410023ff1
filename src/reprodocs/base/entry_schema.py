"""The schema of a registry entry's fields, written once: for each field,
the option that sets it, the attribute it fills, its key in the JSON
export, how its value is read, whether it takes several values, and which
directives and the registry file take it.

The directives' option specs, the registry file's keys, the entry built
from either, the index's table and lists, ``nondeterministic.json`` and its
schema file, check-alerts and migrate all take names and conversions from
``FIELDS``; adding a field is one row here, plus its documentation
(docs/architecture.rst, "A new field of an entry"). Plain data, without
docutils, which migrate and check-alerts read too; a column's heading is a
word of the catalog, translated when called."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from reprodocs.base.i18n import _

if TYPE_CHECKING:
    from collections.abc import Callable

#: The values of ``:pass:``.
PASSES = ("forward", "backward", "both")

#: The values of ``:deterministic-algorithms:``: under
#: ``torch.use_deterministic_algorithms(True)`` the operation throws a
#: RuntimeError, or uses a deterministic implementation.
RAISES, DETERMINISTIC = "raises", "deterministic"
DETERMINISTIC_ALGORITHMS = (RAISES, DETERMINISTIC)

#: How an option's value is read (:mod:`reprodocs.notes.options` holds the
#: converters): inline text on one line; several such values, separated by
#: commas; one backend or several, in their usual spelling; one of
#: ``choices``, in any case.
LINE, VALUES, BACKEND_NAMES, CHOICE = "line", "values", "backend", "choice"

#: Which directives take a field's option. The general note directive
#: (``nondeterministic``) takes every field's; the presets fix backend and
#: pass (``NOTE_ONLY``); ``REGISTRY`` fields are the registry's own
#: (the names an operation goes by, the one the lists show, the words of
#: its item beyond ``:when:``, its alerts); ``COMMON`` ones, every
#: note's. A note directive takes the first group's options, then the
#: second's, then the third's, each in table order.
NOTE_ONLY, COMMON, REGISTRY = "note-only", "common", "registry"


class Field(NamedTuple):
    """One field of a registry entry, or one option of its directives."""

    #: The option setting it (``:option:`` in a directive, ``option =`` in
    #: the registry file).
    option: str
    #: The attribute of the entry (:class:`reprodocs.notes.domain.Note`) it
    #: fills; "" for an option the entry does not keep (the note's wording
    #: alone reads it).
    attribute: str
    #: Its key in ``nondeterministic.json``; "" if it is not exported.
    json_key: str
    #: How its value is read: ``LINE``, ``VALUES``,
    #: ``BACKEND_NAMES`` or ``CHOICE``.
    converter: str = LINE
    #: Whether it takes several values, separated by commas (in the
    #: registry file, an array of strings too).
    several: bool = False
    #: The values a ``CHOICE`` takes.
    choices: tuple[str, ...] = ()
    #: Which note directives take it: ``NOTE_ONLY``, ``COMMON`` or ``REGISTRY``.
    group: str = COMMON
    #: Whether ``nondeterministic-entry`` and the registry file take it.
    entries: bool = True
    #: The heading of the index table's column showing it (translated when
    #: called, as a page is written), shown when an entry has a value; None
    #: for a field the table shows otherwise, or not.
    column: Callable[[], str] | None = None
    #: Whether ``nondeterministic.json`` has its key only where an entry
    #: has a value: a key added within a version of the format, so that
    #: the exports of projects not using it stay byte for byte the same.
    exported_when_set: bool = False

    def empty(self) -> object:
        """The value of the field where no option gives one."""
        return () if self.converter == VALUES else ""


OP = Field("op", "operation", "name")
#: What names an entry that is not an API object ("MoE token unpermute
#: (combine)"), in place of ``:op:``: shown as text, a hyperlink target
#: where the entry is written (:mod:`reprodocs.notes.labels`).
LABEL = Field("label", "label", "label", exported_when_set=True)
ALTERNATIVE = Field("alternative", "", "", entries=False)
BACKEND = Field("backend", "backend", "backend", BACKEND_NAMES, several=True, group=NOTE_ONLY)
PASS = Field("pass", "affected_pass", "pass", CHOICE, choices=PASSES, group=NOTE_ONLY)
ALGORITHMS = Field(
    "deterministic-algorithms",
    "deterministic_algorithms",
    "deterministic_algorithms",
    CHOICE,
    choices=DETERMINISTIC_ALGORITHMS,
)
WHEN = Field("when", "when", "when")
WORDING = Field("wording", "wording", "", entries=False)
ALIASES = Field("aliases", "aliases", "aliases", VALUES, several=True, group=REGISTRY)
LISTED_AS = Field("listed-as", "listed_as", "listed_as", group=REGISTRY)
WITH = Field("with", "with_condition", "with", group=REGISTRY)
CASES = Field("cases", "cases", "cases", VALUES, several=True, group=REGISTRY)
ALERT = Field(
    "alert", "alerts", "alerts", VALUES, several=True, group=REGISTRY, column=lambda: _("Alerts")
)

#: Every field, in the order the directives' options are documented.
FIELDS = (
    OP,
    LABEL,
    ALTERNATIVE,
    BACKEND,
    PASS,
    ALGORITHMS,
    WHEN,
    WORDING,
    ALIASES,
    LISTED_AS,
    WITH,
    CASES,
    ALERT,
)

#: The order of an operation's keys in ``nondeterministic.json``: the
#: fields', and (as strings) those the export adds, which say where the
#: entry is. A field not named here follows the others.
JSON_ORDER: tuple[Field | str, ...] = (
    OP,
    LABEL,
    "directive",
    BACKEND,
    PASS,
    "docname",
    "uri",
    ALGORITHMS,
    WHEN,
    WITH,
    CASES,
    ALIASES,
    LISTED_AS,
    ALERT,
    "renders",
    "registry_file",
)


#: The value kinds a project's field takes (``reprodocs_entry_fields``'
#: ``kind``): a line of inline text, or several, separated by commas.
DECLARED_KINDS = (LINE, VALUES)

#: The attributes an entry's record (``reprodocs.notes.domain.Note``) has
#: beyond its fields': where and how it is written. A project's field may
#: not take one as its name.
RECORD_ATTRIBUTES = (
    "directive",
    "docname",
    "line",
    "source",
    "conditions",
    "renders",
    "anchor",
    "more",
)


def declared(option: str, title: str, kind: str = LINE) -> Field:
    """A field a project declares (``reprodocs_entry_fields``): its option
    as written; its JSON key the option with underscores; kept in the
    entry's ``more`` under its option (a name no attribute of the entry
    has); a registry option, which every entry directive and the registry
    file take; its column headed *title* (the project's words, as given)."""
    return Field(
        option,
        option,
        option.replace("-", "_"),
        kind,
        several=kind == VALUES,
        group=REGISTRY,
        column=lambda: title,
    )


def fields(more: tuple[Field, ...] = ()) -> tuple[Field, ...]:
    """Every field, read when asked (a test adds one by adding a row),
    then *more*: the fields the project declares."""
    return (*FIELDS, *more)


def group_options(group: str) -> tuple[str, ...]:
    """The options of *group*'s fields, in table order."""
    return tuple(field.option for field in fields() if field.group == group)


def entry_option_names(more: tuple[Field, ...] = ()) -> tuple[str, ...]:
    """The options ``nondeterministic-entry`` and the registry file take
    (*more*: the project's fields, last)."""
    return tuple(field.option for field in fields(more) if field.entries)


def several_values(more: tuple[Field, ...] = ()) -> tuple[str, ...]:
    """The options taking several values, separated by commas."""
    return tuple(field.option for field in fields(more) if field.several)


def by_option(option: str, more: tuple[Field, ...] = ()) -> Field | None:
    """The field the option *option* sets; None for another option."""
    return next((field for field in fields(more) if field.option == option), None)


def kept(more: tuple[Field, ...] = ()) -> tuple[Field, ...]:
    """The fields an entry keeps (those with an attribute)."""
    return tuple(field for field in fields(more) if field.attribute)


def json_keys(more: tuple[Field, ...] = ()) -> tuple[Field | str, ...]:
    """The keys of an operation in ``nondeterministic.json``, in order:
    ``JSON_ORDER``, then the exported fields it does not name (the
    project's last)."""
    placed = {key for key in JSON_ORDER if isinstance(key, Field)}
    added = tuple(field for field in fields(more) if field.json_key and field not in placed)
    return (*JSON_ORDER, *added)
