"""The theme's options (``html_theme_options``), checked.

Sphinx hands a theme's options to its templates as they are given: a value
of the wrong type stops the build in a template ("Theme error") or renders
garbage, and ``html_theme_options`` that is not a dict (a set, from
``{"logo"}``, or a list) stops it in Sphinx itself. So when the builder is
set up, every option the theme's templates read is checked; a wrong value is
one warning (``reprodocs.theme``, at conf.py's line assigning
``html_theme_options``) saying what the option expects, and the option keeps
its default (a wrong entry of a list is left out).

The checked options become the builder's own ``theme_options``, which Sphinx
passes to the templates (``builder.theme.get_options(builder.theme_options)``
gives ``theme_<name>``, the theme's defaults, from theme.toml or theme.conf,
for every option left out). The configuration itself is never changed: Sphinx
7.2 copies it into ``theme_options``, Sphinx 7.3 and later use the very dict,
which is replaced here, not edited. The one exception is a value that is no
container at all (None, a number), which Sphinx cannot use: it is replaced by
the default, ``{}`` (:func:`replace_by_default`). Sphinx 7.2 stops on it (and
on a string or a tuple) itself, copying it before it loads the theme.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from sphinx.builders.html import StandaloneHTMLBuilder

from reprodocs.base.i18n import __
from reprodocs.base.report import setting_location, shown, warn
from reprodocs.theme.context import uses_this_theme

if TYPE_CHECKING:
    from sphinx.application import Sphinx

SETTING = "html_theme_options"


class _Wrong(Exception):
    """A value a check refuses: what was expected, and the types it accepts
    (a value of one of those is shown itself, else its type's name)."""

    def __init__(self, expected: str, accepted: tuple[type, ...] = ()) -> None:
        super().__init__(expected)
        self.expected = expected
        self.accepted = accepted


class _ReadAnyway(_Wrong):
    """A value a check refuses but reads as sphinx_rtd_theme's templates
    would: warned about, and *used* in its place (not the default), so that
    the page is the one rtd gives."""

    def __init__(self, expected: str, accepted: tuple[type, ...], used: object) -> None:
        super().__init__(expected, accepted)
        self.used = used


class _LeftOut(Exception):
    """An entry that cannot be shown, already warned about."""


def string(value: object) -> str:
    if not isinstance(value, str):
        raise _Wrong(__("a string"))
    return value


#: The words Sphinx's ``tobool`` filter reads as true, in any case; the
#: others it reads as false (sphinx_rtd_theme's templates read their boolean
#: options with it, theme.conf and ``-D`` give strings).
TRUE_WORDS = frozenset({"true", "1", "yes", "on"})
#: The words meant as false, which pass without a warning.
FALSE_WORDS = frozenset({"false", "0", "no", "off"})


def boolean(value: object) -> bool:
    """True or False, 1 or 0, or a word for one of them as theme.conf and
    ``-D`` give it: "true"/"false", "1"/"0", "yes"/"no", "on"/"off", in any
    case, with the meaning sphinx_rtd_theme gives them. Anything else is
    refused but read as rtd reads it (``tobool``: another string is false,
    another value as Python's bool)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.lower() in TRUE_WORDS | FALSE_WORDS:
        return value.lower() in TRUE_WORDS
    used = False if isinstance(value, str) else bool(value)
    raise _ReadAnyway(
        __('True or False (or "true"/"false", "yes"/"no", "on"/"off", 1/0)'), (str,), used
    )


def integer(value: object) -> int:
    """An int, or a string of one (as theme.conf and ``-D`` give it)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            pass
    raise _Wrong(__("an integer"), (str,))


def buttons_location(value: object) -> str | None:
    """sphinx_rtd_theme's ``prev_next_buttons_location``; None draws no buttons."""
    if value is None:
        return None
    if isinstance(value, str) and value in {"bottom", "top", "both"}:
        return value
    raise _Wrong(__('"bottom", "top", "both" or None'), (str,))


def wrong(
    message: str, where: str, error: _Wrong, value: object, location: str | None, *more: object
) -> None:
    """The one warning for a wrong value: *where* must be *error.expected*,
    not *value* (or its type); *message* says what becomes of it, with *more*."""
    shown_value = shown(value, error.accepted)
    warn("theme", message, where, error.expected, shown_value, *more, location=location)


def read_anyway(where: str, error: _ReadAnyway, value: object, location: str | None) -> None:
    """The warning for a wrong value read as sphinx_rtd_theme reads it."""
    message = __("%s must be %s, not %s; %s is used, as sphinx_rtd_theme reads it")
    wrong(message, where, error, value, location, error.used)


def checked_value(check: Any, value: object, where: str, location: str | None) -> Any:
    """*value* as *check* reads it: a list without its wrong entries (each
    warned about), or a value refused but read as sphinx_rtd_theme reads it
    (warned about, and used). A value that cannot be used raises _Wrong."""
    if isinstance(check, Entries):
        return check.checked(value, where, location)
    try:
        return check(value)
    except _ReadAnyway as error:
        read_anyway(where, error, value, location)
        return error.used


def missing(where: str, fields: str, location: str | None, message: str | None = None) -> None:
    """The one warning for an entry without a field it needs."""
    warn("theme", message or __("%s has no %s; it is left out"), where, fields, location=location)


def empty(value: object) -> bool:
    """Whether a field is as good as absent: None, "" or an empty list."""
    return value is None or (isinstance(value, (str, list, tuple)) and len(value) == 0)


#: Whether an entry needs a field: always, never, or depending on the entry.
Needed = bool | Callable[[Mapping[Any, Any]], bool]


class Entries:
    """A list of dicts (a list option, or a list inside an entry), each with
    these fields: a check (or the Entries of a nested list) and whether the
    entry needs it. An entry that is not a dict, lacks a field it needs or
    has one of the wrong type is left out; a wrong optional field is left
    out of its entry. Other keys are kept, for templates that override ours."""

    def __init__(self, fields: dict[str, tuple[Check, Needed]]) -> None:
        self.fields = fields

    def checked(self, value: object, where: str, location: str | None) -> list[dict[Any, Any]]:
        """The entries of *value* that can be shown; raises _Wrong if it is not a list."""
        if not isinstance(value, (list, tuple)):
            raise _Wrong(__("a list"))
        kept = []
        for position, entry in enumerate(value):
            entry_where = f"{where}[{position}]"
            if not isinstance(entry, Mapping):
                message = __("%s must be %s, not %s; it is left out")
                wrong(message, entry_where, _Wrong(__("a dict")), entry, location)
                continue
            try:
                kept.append(self.entry(entry, entry_where, location))
            except _LeftOut:
                continue
        return kept

    def entry(self, entry: Mapping[Any, Any], where: str, location: str | None) -> dict[Any, Any]:
        """*entry* with its fields checked; raises _LeftOut if it cannot be shown."""
        checked = dict(entry)
        absent = []
        for field, (check, needs) in self.fields.items():
            needed = needs(entry) if callable(needs) else needs
            value = entry.get(field)
            if empty(value):
                checked.pop(field, None)
                if needed:
                    absent.append(field)
                continue
            field_where = f"{where}[{field!r}]"
            try:
                checked[field] = checked_value(check, value, field_where, location)
            except _Wrong as error:
                if needed:
                    message = __("%s must be %s, not %s; the entry is left out")
                    wrong(message, field_where, error, value, location)
                    raise _LeftOut from None
                message = __("%s must be %s, not %s; it is left out")
                wrong(message, field_where, error, value, location)
                del checked[field]
        if absent:
            missing(where, self.absent(absent), location)
            raise _LeftOut
        return checked

    def absent(self, fields: list[str]) -> str:
        """The fields an entry lacks, as a warning names them."""
        return ", ".join(fields)


class HeaderLinks(Entries):
    """header_links: a link needs a URL, a dropdown group its children."""

    def entry(self, entry: Mapping[Any, Any], where: str, location: str | None) -> dict[Any, Any]:
        checked = super().entry(entry, where, location)
        if empty(checked.get("children")) and empty(checked.get("url")):
            raise _LeftOut  # each of its children was wrong, and warned about
        return checked

    def absent(self, fields: list[str]) -> str:
        if "url" in fields and "children" in fields:
            fields = [field for field in fields if field != "children"]
            fields[fields.index("url")] = __("url (or children)")
        return super().absent(fields)


class Resources(Entries):
    """resources: a card without a URL shows its title, not as a link."""

    def entry(self, entry: Mapping[Any, Any], where: str, location: str | None) -> dict[Any, Any]:
        checked = super().entry(entry, where, location)
        if empty(entry.get("url")):  # (a wrong one was warned about)
            missing(where, "url", location, __("%s has no %s; its title is not a link"))
        return checked


#: A check takes a value and returns it as the templates get it, or raises _Wrong.
Check = Callable[[Any], Any] | Entries

LINK = Entries({"title": (string, True), "url": (string, True)})

#: Every option the theme's templates read (its own, and sphinx_rtd_theme's
#: that still apply), with its check.
OPTIONS: dict[str, Check] = {
    "logo": string,
    "header_links": HeaderLinks(
        {
            "title": (string, True),
            "url": (string, lambda entry: empty(entry.get("children"))),
            "current": (boolean, False),
            "children": (
                Entries(
                    {
                        "title": (string, True),
                        "url": (string, True),
                        "description": (string, False),
                        "current": (boolean, False),
                    }
                ),
                lambda entry: empty(entry.get("url")),
            ),
        }
    ),
    "repository_url": string,
    "repository_label": string,
    "version_url": string,
    "resources": Resources(
        {"title": (string, True), "url": (string, False), "text": (string, False)}
    ),
    "footer_columns": Entries(
        {"title": (string, True), "url": (string, False), "links": (LINK, False)}
    ),
    "social_links": Entries(
        {"name": (string, True), "url": (string, True), "icon": (string, False)}
    ),
    "titles_only": boolean,
    "navigation_depth": integer,
    "collapse_navigation": boolean,
    "includehidden": boolean,
    "prev_next_buttons_location": buttons_location,
    "style_external_links": boolean,
    "vcs_pageview_mode": string,
}


def checked_options(given: object, location: str | None) -> dict[Any, Any]:
    """*given* (``html_theme_options``) as the templates can use it: each
    wrong option warned about and left out (the theme's default applies),
    each list without the entries it cannot show. *given* is not changed."""
    default_used = __("%s must be %s, not %s; the default is used")
    if not isinstance(given, Mapping):
        wrong(default_used, SETTING, _Wrong(__("a dict")), given, location)
        return {}
    options = dict(given)
    for name, check in OPTIONS.items():
        if name not in options:
            continue
        where = f"{SETTING}[{name!r}]"
        value = options[name]
        try:
            options[name] = checked_value(check, value, where, location)
        except _Wrong as error:
            wrong(default_used, where, error, value, location)
            del options[name]
    return options


def check_theme_options(app: Sphinx) -> None:
    """Give the builder ``html_theme_options`` checked (at ``builder-inited``,
    before Sphinx reads them to write the first page)."""
    builder = app.builder
    if not isinstance(builder, StandaloneHTMLBuilder) or not uses_this_theme(builder):
        return
    # The epub builders take theirs from epub_theme_options.
    if builder.get_theme_config()[1] is not app.config.html_theme_options:
        return
    location = setting_location(app, SETTING)
    if not searchable(app.config.html_theme_options):
        replace_by_default(app, builder, location)
        return
    builder.theme_options = checked_options(builder.theme_options, location)


def searchable(value: object) -> bool:
    """Whether ``key in value`` works, as alabaster's ``html-page-context``
    handler, which Sphinx loads whatever the theme, asks of
    ``html_theme_options`` on every page."""
    return isinstance(value, (Container, Iterable))


def replace_by_default(app: Sphinx, builder: StandaloneHTMLBuilder, location: str | None) -> None:
    """Warn about ``html_theme_options`` that is no container at all (None,
    a number), and give Sphinx and the templates its default, ``{}``."""
    # The one configuration value rewritten in place: checked options are the
    # builder's own, but alabaster reads the configuration, and a value it
    # cannot look a key up in stops the build at the first page, with a
    # traceback, whatever reprodocs gives the templates. Here, not at
    # config-inited: Sphinx loads the theme (its entry point) when it sets the
    # builder up, after config-inited; builder-inited is before any page.
    given = app.config.html_theme_options
    wrong(
        __("%s must be %s, not %s; the default is used"),
        SETTING,
        _Wrong(__("a dict")),
        given,
        location,
    )
    app.config[SETTING] = builder.theme_options = {}  # Sphinx 7.2 types no attribute assignment
