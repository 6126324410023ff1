"""The directives' option specs: the vocabulary's options
(:mod:`reprodocs.base.vocabulary`), each with the docutils converter that
reads its value, as the entry's schema names it
(:mod:`reprodocs.base.entry_schema`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils.parsers.rst import directives

from reprodocs.base.entry_schema import BACKEND_NAMES, CHOICE, LINE, VALUES, by_option
from reprodocs.base.i18n import __
from reprodocs.base.vocabulary import (
    ANY_BACKEND,
    BACKEND_SPELLINGS,
    COLUMNS_OPTION,
    FORMATS,
    HAVING_OPTION,
    LIST_OPTIONS,
    SEPARATOR,
    note_options,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.util.typing import OptionSpec

    from reprodocs.base.entry_schema import Field


def single_line(argument: str | None) -> str:
    """A required option value, its whitespace collapsed (it becomes inline text)."""
    # docutils passes None for an option without a value, which
    # unchanged_required rejects with its usual message (its stub says str).
    return " ".join(directives.unchanged_required(argument).split())  # type: ignore[arg-type]


def values(argument: str | None) -> tuple[str, ...]:
    """Several values, separated by commas, each one line; none empty."""
    found = tuple(" ".join(value.split()) for value in single_line(argument).split(SEPARATOR))
    if not all(found):
        raise ValueError(__("a value is empty (two commas, or one at an end)"))
    return found


def backend(argument: str | None) -> str:
    """One backend or several, each in its usual spelling (``any``: all)."""
    names = (BACKEND_SPELLINGS.get(name.lower(), name) for name in values(argument))
    return f"{SEPARATOR} ".join(
        ANY_BACKEND if name.lower() == ANY_BACKEND else name for name in names
    )


def one_of(values: tuple[str, ...]) -> Callable[[str | None], str]:
    """A converter accepting one of *values*, in any case."""

    def choice(argument: str | None) -> str:
        return directives.choice(single_line(argument).lower(), values)

    return choice


#: The converters of the entry's fields, by :attr:`Field.converter
#: <reprodocs.base.entry_schema.Field.converter>` (a choice's is made of its
#: values).
FIELD_CONVERTERS: dict[str, Callable[[str | None], object]] = {
    LINE: single_line,
    VALUES: values,
    BACKEND_NAMES: backend,
}

#: The converters of the options that fill no field of an entry.
OTHER_CONVERTERS: dict[str, Callable[[str | None], object]] = {
    "format": one_of(FORMATS),
    COLUMNS_OPTION: values,
    HAVING_OPTION: values,
}


def converter(option: str, more: tuple[Field, ...] = ()) -> Callable[[str | None], object]:
    """The converter reading the value of *option* (*more*: the project's
    fields); inline text for an option the schema does not name."""
    field = by_option(option, more)
    if field is None:
        return OTHER_CONVERTERS.get(option, single_line)
    if field.converter == CHOICE:
        return one_of(field.choices)
    return FIELD_CONVERTERS[field.converter]


def option_spec(names: tuple[str, ...], more: tuple[Field, ...] = ()) -> OptionSpec:
    """The option spec of a directive taking the options *names* (*more*:
    the project's fields, whose converters it reads)."""
    return {name: converter(name, more) for name in names}


def note_option_spec(directive: str, more: tuple[Field, ...] = ()) -> OptionSpec:
    """The option spec of the note directive *directive*, with the
    project's fields *more* last."""
    return option_spec((*note_options(directive), *(field.option for field in more)), more)


class NoteOptionSpec:
    """A note directive's ``option_spec``, made from the entry's schema
    when docutils asks for it (a field added there is an option at once),
    and the project's fields the directive's class holds (``declared``)."""

    def __get__(self, instance: object, owner: Any) -> OptionSpec:
        return note_option_spec(owner.directive_name, owner.declared)


LIST_OPTION_SPEC = option_spec(LIST_OPTIONS)
