"""The notes' wording: Jinja templates rendered to reStructuredText, translated
through the ``reprodocs`` gettext catalog."""

from __future__ import annotations

import functools
import re
import weakref
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2
from sphinx.locale import get_translation, get_translator

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

CATALOG = "reprodocs"
LOCALE_DIR = Path(__file__).parent / "locale"
NOTE_TEMPLATE = "reprodocs/note.rst"

#: Messages shown in documents, and messages shown on the console.
_ = get_translation(CATALOG)
__ = get_translation(CATALOG, "console")


def templates_dir() -> Path:
    """The directory of reprodocs' own templates.

    A wheel carries them inside the package; a source checkout (editable
    install) keeps them at the top of the repository.
    """
    packaged = Path(__file__).parent / "templates"
    if packaged.is_dir():
        return packaged
    return Path(__file__).parents[2] / "templates"


_RST_SPECIAL = re.compile(r"([^\w\s])")


def rst_escape(text: str) -> str:
    """Make *text* read literally inside reStructuredText inline markup."""
    return _RST_SPECIAL.sub(r"\\\1", text)


def _gettext(message: str) -> str:
    # Looked up on every call: the catalog's language is the current
    # application's, and a process (a test session) may hold several.
    return get_translator(CATALOG).gettext(message)


def _ngettext(singular: str, plural: str, n: int) -> str:
    return get_translator(CATALOG).ngettext(singular, plural, n)


@functools.lru_cache(maxsize=16)
def template_environment(search_path: tuple[str, ...]) -> jinja2.Environment:
    """A Jinja environment that looks in the project's templates_path first."""
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader([*search_path, str(templates_dir())]),
        extensions=["jinja2.ext.i18n"],
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # the output is reStructuredText, escaped by rst_escape
        keep_trailing_newline=True,
    )
    # A method jinja2.ext.i18n adds to the environment, unknown to type checkers.
    environment.install_gettext_callables(_gettext, _ngettext, newstyle=True)  # type: ignore[attr-defined]
    return environment


#: The project's template directories, by environment (see remember_templates_path).
_project_templates: weakref.WeakKeyDictionary[BuildEnvironment, tuple[str, ...]] = (
    weakref.WeakKeyDictionary()
)


def remember_templates_path(app: Sphinx) -> None:
    """Resolve the project's ``templates_path`` (relative to the configuration
    directory, which directives cannot see) once the builder is set up."""
    _project_templates[app.env] = tuple(
        str(Path(app.confdir, path)) for path in app.config.templates_path
    )


def note_template(env: BuildEnvironment) -> jinja2.Template:
    """The note template, the project's own if it has one."""
    search_path = _project_templates.get(env, ())
    return template_environment(search_path).get_template(NOTE_TEMPLATE)
