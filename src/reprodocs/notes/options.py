"""The directives' option specs: the vocabulary's options
(:mod:`reprodocs.base.vocabulary`), each with the docutils converter that
reads its value."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils.parsers.rst import directives

from reprodocs.base.vocabulary import (
    BACKEND_SPELLINGS,
    DETERMINISTIC_ALGORITHMS,
    FORMATS,
    LIST_OPTIONS,
    PASSES,
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


def backend(argument: str | None) -> str:
    name = single_line(argument)
    return BACKEND_SPELLINGS.get(name.lower(), name)


def one_of(values: tuple[str, ...]) -> Callable[[str | None], str]:
    """A converter accepting one of *values*, in any case."""

    def choice(argument: str | None) -> str:
        return directives.choice(single_line(argument).lower(), values)

    return choice


#: Each option's converter; an option not named here is inline text.
CONVERTERS: dict[str, Callable[[str | None], str]] = {
    "backend": backend,
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
