"""The rows a table or a list shows: those its ``:backend:``, ``:pass:``
and ``:deterministic-algorithms:`` let through, with a value in each field
its ``:having:`` names (the value it names, if it names one). Also what a list's
``help()`` text is checked against (:mod:`reprodocs.notes.runtime_text`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reprodocs.base.entry_schema import ALGORITHMS, BACKEND, PASS, by_option
from reprodocs.base.runtime_text import words
from reprodocs.base.vocabulary import ANY_BACKEND, HAVING_OPTION, SEPARATOR

if TYPE_CHECKING:
    from collections.abc import Iterable

    from reprodocs.base.entry_schema import Field
    from reprodocs.notes.index_rows import Row
    from reprodocs.notes.nondeterministic_ops import nondeterministic_ops

#: The placeholder's attribute holding the values ``:having:`` asks its
#: fields for (``name=value``), by field; "" where any value is kept.
HAVING_VALUES = "having_values"


def chosen_rows(
    placeholder: nondeterministic_ops, rows: Iterable[Row], declared: tuple[Field, ...] = ()
) -> list[Row]:
    """The rows a table or list shows: those its filters let through
    (*declared*: the project's fields, which ``:having:`` may name)."""
    # .get: a placeholder pickled by reprodocs before ":format:" has no such keys.
    deterministic_algorithms = placeholder.get(ALGORITHMS.attribute, "")
    found = chosen(
        rows, placeholder[BACKEND.attribute], placeholder[PASS.attribute], deterministic_algorithms
    )
    having: tuple[str, ...] = placeholder.get(HAVING_OPTION, ())
    # .get: a placeholder pickled before ``name=value`` has names alone.
    wanted: tuple[str, ...] = placeholder.get(HAVING_VALUES, ("",) * len(having))
    return having_rows(found, having_fields(zip(having, wanted, strict=True), declared))


def having_fields(
    having: Iterable[tuple[str, str]], declared: tuple[Field, ...] = ()
) -> tuple[tuple[Field, str], ...]:
    """The fields ``:having:`` names (*having*: each name with the value
    asked, "" for any), those that are a field's, each with its value. Each
    field without its column's heading (a function), so that it pickles:
    a list's runtime text keeps them (:mod:`reprodocs.notes.runtime_text`)."""
    return tuple(
        (field._replace(column=None), value)
        for name, value in having
        if (field := by_option(name, declared))
    )


def having_rows(rows: Iterable[Row], fields: Iterable[tuple[Field, str]]) -> list[Row]:
    """The *rows* with a value in each of *fields* (the value given with it, if one)."""
    fields = tuple(fields)
    return [row for row in rows if all(has(row, field, value) for field, value in fields)]


def has(row: Row, field: Field, wanted: str) -> bool:
    """Whether *row* has a value in *field*: any value if *wanted* is "",
    else one whose words are *wanted*'s, markup and case aside."""
    value = row.note.value(field)
    if not wanted:
        return bool(value)
    values = (value,) if isinstance(value, str) else value
    return any(words(each).casefold() == words(wanted).casefold() for each in values)


def chosen(
    rows: Iterable[Row], backend: str, affected_pass: str, deterministic_algorithms: str
) -> list[Row]:
    """The *rows* of *backend*, *affected_pass* and *deterministic_algorithms*
    ("" for any of each)."""
    return [
        row
        for row in rows
        if of_backend(row, backend)
        and affected_pass in ("", row.note.affected_pass)
        and deterministic_algorithms in ("", row.note.deterministic_algorithms)
    ]


def of_backend(row: Row, backend: str) -> bool:
    """Whether *row* is about *backend* ("" for any): one of its
    backends, or every backend."""
    backends = row.note.backend.split(f"{SEPARATOR} ")
    return not backend or ANY_BACKEND in backends or backend in backends
