"""The fields a project declares once, in conf.py (``reprodocs_entry_fields``,
as sphinx-needs' ``needs_extra_options``): each a row of the entry's schema
(:func:`reprodocs.base.entry_schema.declared`), so that the note
directives, ``nondeterministic-entry`` and the registry file take its
option, the index table shows its column and ``nondeterministic.json`` its
key. Each misuse of the setting is a warning naming it; the build goes on
with the fields declared rightly."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reprodocs.base.entry_schema import DECLARED_KINDS, LINE, declared
from reprodocs.base.i18n import __
from reprodocs.base.report import setting_location, shown, warn
from reprodocs.base.state import build_state
from reprodocs.base.vocabulary import OPTION_NAME, taken_names
from reprodocs.notes.directives import NOTE_DIRECTIVE_CLASSES

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from reprodocs.base.entry_schema import Field

#: The setting declaring them.
SETTING = "reprodocs_entry_fields"

#: The keys of one field's declaration: its option (required), the
#: heading of its column (the option if not given), its value's kind.
KEYS = ("option", "title", "kind")


@dataclass
class DeclaredFields:
    """Per build: the fields ``reprodocs_entry_fields`` declares rightly."""

    fields: tuple[Field, ...] = ()


def read_declarations(value: object) -> tuple[tuple[Field, ...], list[str]]:
    """The fields *value* declares rightly, and what is wrong with it (each
    a message naming the setting). Pure: the caller warns."""
    if value is None:
        return (), []
    if not isinstance(value, list | tuple):
        expected = __("a list of fields, each a dict with 'option' and 'title'")
        problem = __("%s must be %s, not %s; no field is declared")
        return (), [problem % (SETTING, expected, shown(value))]
    found: list[Field] = []
    problems: list[str] = []
    taken = taken_names()
    for index, declaration in enumerate(value):
        field, problem = read_declaration(declaration, taken, {f.option for f in found})
        where = f"{SETTING}[{index}]"
        if problem:
            problems.append(__("%s: %s; this field is left out") % (where, problem))
        if field is not None:
            found.append(field)
    return tuple(found), problems


def read_declaration(
    declaration: object, taken: frozenset[str], before: set[str]
) -> tuple[Field | None, str]:
    """The field one declaration makes, or None and why not (*taken*:
    reprodocs' own names; *before*: the options declared before it)."""
    if not isinstance(declaration, dict):
        return None, __("a field must be a dict, not %s") % shown(declaration)
    unknown = [key for key in declaration if key not in KEYS]
    if unknown:
        return None, __("unknown key %s (known: %s)") % (shown(unknown[0], (str,)), ", ".join(KEYS))
    option: Any = declaration.get("option")
    if not isinstance(option, str) or not OPTION_NAME.fullmatch(option):
        return None, __(
            "'option' must be an option's name (lower-case letters, digits and hyphens), not %s"
        ) % shown(option, (str,))
    json_key = option.replace("-", "_")
    if option in taken or json_key in taken:
        return None, __("%r is a name reprodocs' own fields or options have") % option
    if option in before:
        return None, __("%r is declared twice (the first is used)") % option
    title: Any = declaration.get("title", option)
    if not isinstance(title, str) or not title.strip():
        return None, __("'title' must be a non-empty string, not %s") % shown(title, (str,))
    kind: Any = declaration.get("kind", LINE)
    if kind not in DECLARED_KINDS:
        return None, __("'kind' must be one of %s, not %s") % (
            ", ".join(DECLARED_KINDS),
            shown(kind, (str,)),
        )
    return declared(option, title.strip(), kind), ""


def check_declared_fields(app: Sphinx) -> tuple[Field, ...]:
    """``builder-inited``, before the registry file is read: the fields the
    setting declares, kept for the build, each misuse warned about at the
    setting; the entry directives given their options. Returns the fields."""
    found, problems = read_declarations(getattr(app.config, SETTING))
    location = setting_location(app, SETTING)
    for problem in problems:
        warn("config", "%s", problem, location=location)
    build_state(app.env, DeclaredFields).fields = found
    if found:
        # The directives' option specs are the class's: each directive with
        # the project's fields is a subclass, registered in the base's place.
        for directive in NOTE_DIRECTIVE_CLASSES:
            with_fields = type(directive.__name__, (directive,), {"declared": found})
            app.add_directive(directive.directive_name, with_fields, override=True)
    return found


def declared_fields(env: BuildEnvironment) -> tuple[Field, ...]:
    """The fields the project declares, as checked for this build."""
    return build_state(env, DeclaredFields).fields
