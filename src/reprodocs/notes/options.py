"""The directives' option specs: the vocabulary's options
(:mod:`reprodocs.base.vocabulary`), each with the docutils converter that
reads its value."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils.parsers.rst import directives

from reprodocs.base.i18n import __
from reprodocs.base.vocabulary import (
    ANY_BACKEND,
    BACKEND_SPELLINGS,
    DETERMINISTIC_ALGORITHMS,
    FORMATS,
    LIST_OPTIONS,
    PASSES,
    SEPARATOR,
    note_options,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.util.typing import OptionSpec


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


#: Each option's converter; an option not named here is inline text.
CONVERTERS: dict[str, Callable[[str | None], object]] = {
    "backend": backend,
    "aliases": values,
    "alert": values,
    "cases": values,
    "pass": one_of(PASSES),
    "deterministic-algorithms": one_of(DETERMINISTIC_ALGORITHMS),
    "format": one_of(FORMATS),
}


def option_spec(names: tuple[str, ...]) -> OptionSpec:
    """The option spec of a directive taking the options *names*."""
    return {name: CONVERTERS.get(name, single_line) for name in names}


def note_option_spec(directive: str) -> OptionSpec:
    """The option spec of the note directive *directive*."""
    return option_spec(note_options(directive))


LIST_OPTION_SPEC = option_spec(LIST_OPTIONS)
