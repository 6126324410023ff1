"""The runtime text checked against the registry, on every build.

A note's ``:runtime-text:`` is what ``help()`` shows in its place: the
note's own sentences, as its wording words them without what the registry
adds (what deterministic mode does, and when: a list's item says that). A
list directive's content is its items as ``help()`` shows them. Both are
recorded as their directive is read, in the ``reprodocs`` domain, and
compared with the registry at ``env-updated``: so a build that reads no
page, or reads only another page's entry, says so as a fresh one does, and
``-W`` fails either (docs/migration.rst, "What help() shows").
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import jinja2

from reprodocs.base.entry_schema import ALGORITHMS, WHEN, WITH
from reprodocs.base.i18n import __
from reprodocs.base.report import warn
from reprodocs.base.runtime_text import item_words, words
from reprodocs.base.state import build_state
from reprodocs.notes.domain import RuntimeText, notes_domain
from reprodocs.notes.filtering import chosen, having_rows
from reprodocs.notes.publishing import Published
from reprodocs.notes.wording import template_environment, wording_of

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from reprodocs.notes.domain import Note
    from reprodocs.notes.index_rows import Row

#: The subtype of the warnings: ``reprodocs.runtime-text``.
SUBTYPE = "runtime-text"


@lru_cache(maxsize=4)
def untranslated(search_path: tuple[str, ...]) -> jinja2.Environment:
    """The wording's templates without the site's catalog: docstrings are
    read at run time in the language they are written in."""
    return template_environment(search_path, translated=False)


def record_note_text(
    env: BuildEnvironment, note: Note, location: str, values: dict[str, str], written: str
) -> None:
    """Keep *note*'s ``:runtime-text:`` (*written*) and the words of its own
    text: its template (which reads *values*), untranslated, without what
    the registry adds. Nothing where the template cannot render: the note
    itself says so."""
    wording = wording_of(env)
    # What the registry adds, by the names the templates read (the entry's attributes).
    own = {**values, **{field.attribute: "" for field in (ALGORITHMS, WHEN, WITH)}}
    try:
        template = untranslated(wording.search_path).get_template(
            wording.template_for(note.wording)
        )
        expected = words(template.render(own))
    except jinja2.TemplateError:
        return
    notes_domain(env).add_runtime_text(
        RuntimeText(note.directive, location, (words(written),), (expected,))
    )


def check_runtime_texts(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-updated``, after the index is published: every runtime text
    that says otherwise than the registry, warned about at its directive."""
    entries = build_state(env, Published).rows
    domain = notes_domain(env)
    for docname in sorted(domain.runtime_texts):
        for text in domain.runtime_texts[docname]:
            if text.expected:
                check_note(text)
            else:
                rows = having_rows(chosen(entries, *text.filters), text.having)
                check_list(text, generated_items(rows))


def check_note(text: RuntimeText) -> None:
    if text.written != text.expected:
        warn(
            SUBTYPE,
            __("%s: its :runtime-text: is not the note's text (what help() shows is stale): %s"),
            text.directive,
            text.expected[0],
            location=text.location,
        )


def check_list(text: RuntimeText, generated: list[str]) -> None:
    check_repeats(text)
    written, expected = set(text.written), set(generated)
    if written == expected:
        return
    missing = [item for item in generated if item not in written]
    extra = [item for item in text.written if item not in expected]
    warn(
        SUBTYPE,
        __(
            "%s: its content (what help() shows) is not the list the registry "
            "generates: %d to add (%s), %d not in the registry (%s)"
        ),
        text.directive,
        len(missing),
        "; ".join(missing) or "-",
        len(extra),
        "; ".join(extra) or "-",
        location=text.location,
    )


def check_repeats(text: RuntimeText) -> None:
    """A list's content that says an item twice or more: ``help()`` shows
    it so, where the list the registry generates says each item once."""
    repeated = [item for number, item in enumerate(text.written) if item in text.written[:number]]
    if repeated:
        warn(
            SUBTYPE,
            __(
                "%s: its content (what help() shows) repeats what the registry's list says once: %s"
            ),
            text.directive,
            "; ".join(dict.fromkeys(repeated)),
            location=text.location,
        )


def generated_items(rows: Iterable[Row]) -> list[str]:
    """The words of each item a list of *rows* shows, once each."""
    items: list[str] = []
    for row in rows:
        name, _target = row.listed
        item = item_words(name, row.note.with_condition, row.note.when, row.note.cases)
        if item not in items:
            items.append(item)
    return items
