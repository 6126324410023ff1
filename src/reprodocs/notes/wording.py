"""The notes' wording: Jinja templates rendered to reStructuredText, translated
through the ``reprodocs`` gettext catalog.

The templates of a wording set (``reprodocs_wording``) are
``reprodocs/wording/NAME.rst``; a project's ``templates_path`` is searched
first, so it can replace a set, add one, or replace every set's wording with
its own ``reprodocs/note.rst``.
"""

from __future__ import annotations

import gettext
import hashlib
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2
import jinja2.meta

from reprodocs.base import __version__
from reprodocs.base.i18n import CATALOG, __
from reprodocs.base.i18n import gettext as catalog_gettext
from reprodocs.base.i18n import ngettext as catalog_ngettext
from reprodocs.base.paths import LOCALE_DIR, templates
from reprodocs.base.report import checked_setting, setting_location, warn
from reprodocs.base.state import build_state
from reprodocs.notes.domain import notes_domain

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

#: A project's own wording, used whatever the set.
NOTE_TEMPLATE = "reprodocs/note.rst"
SETS_DIR = "reprodocs/wording/"
DEFAULT_SET = "pytorch-1.4"
#: The page the notes link to unless ``reprodocs_reproducibility_doc`` names another.
DEFAULT_REPRODUCIBILITY_DOC = "notes/randomness"


_RST_SPECIAL = re.compile(r"([^\w\s])")


def rst_escape(text: str) -> str:
    """Make *text* read literally inside reStructuredText inline markup."""
    return _RST_SPECIAL.sub(r"\\\1", text)


#: Sentence ends of Chinese and Japanese, which put no space after them.
_WIDE_SENTENCE_ENDS = "。！？"
_SPACE_AFTER_WIDE_SENTENCE = re.compile(rf"(?<=[{_WIDE_SENTENCE_ENDS}])[ \t]+(?=\S)")


def join_wide_sentences(lines: list[str]) -> list[str]:
    """The wording's lines, with no space or line break between a Chinese or
    Japanese sentence and the next: those scripts put none there, and a
    browser shows a line break in a paragraph as a space (Chromium does not
    apply CSS Text 3's rule that would drop it). Only after a fullwidth
    sentence end and before an East Asian wide character (Korean, which
    ends sentences with ".", keeps its spaces); lines indented differently
    are left apart, as there the break is structure."""
    joined: list[str] = []
    for line in map(_drop_spaces_after_wide_sentences, lines):
        if joined and joined[-1].endswith(tuple(_WIDE_SENTENCE_ENDS)):
            previous = joined[-1]
            indent = previous[: len(previous) - len(previous.lstrip())]
            if line.startswith(indent) and _is_wide(line[len(indent) : len(indent) + 1]):
                joined[-1] = previous + line[len(indent) :]
                continue
        joined.append(line)
    return joined


def _drop_spaces_after_wide_sentences(line: str) -> str:
    return _SPACE_AFTER_WIDE_SENTENCE.sub(
        lambda space: "" if _is_wide(line[space.end()]) else space.group(), line
    )


def _is_wide(character: str) -> bool:
    return character != "" and unicodedata.east_asian_width(character) in {"W", "F"}


def template_environment(
    search_path: tuple[str, ...], translated: bool = True
) -> jinja2.Environment:
    """A Jinja environment that looks in *search_path* (the project's
    ``templates_path``) first, then in reprodocs' templates; its words
    translated through the site's catalog, or (*translated* False) as the
    templates write them."""
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader([*search_path, str(templates())]),
        extensions=["jinja2.ext.i18n"],
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # the output is reStructuredText, escaped by rst_escape
        keep_trailing_newline=True,
    )
    # Methods jinja2.ext.i18n adds to the environment, unknown to type checkers.
    if translated:
        environment.install_gettext_callables(catalog_gettext, catalog_ngettext, newstyle=True)  # type: ignore[attr-defined]
    else:
        environment.install_null_translations(newstyle=True)  # type: ignore[attr-defined]
    return environment


def loader(environment: jinja2.Environment) -> jinja2.BaseLoader:
    """The loader template_environment gave *environment* (typed as optional)."""
    assert environment.loader is not None
    return environment.loader


def project_templates(app: Sphinx) -> tuple[str, ...]:
    """The project's ``templates_path``, resolved against the configuration
    directory (which directives cannot see)."""
    return tuple(str(Path(app.confdir, path)) for path in app.config.templates_path)


def set_template(name: str) -> str:
    return f"{SETS_DIR}{name}.rst"


def wording_sets(environment: jinja2.Environment) -> list[str]:
    """The names of the wording sets the project can choose."""
    return sorted(
        name.removeprefix(SETS_DIR).removesuffix(".rst")
        for name in environment.list_templates(extensions=["rst"])
        if name.startswith(SETS_DIR) and "/" not in name.removeprefix(SETS_DIR)
    )


@dataclass(frozen=True)
class Wording:
    """The templates a build words its notes with."""

    environment: jinja2.Environment  #: finds the project's templates, then reprodocs'
    template_name: str  #: the template in use: the project's note.rst, or the set's
    reproducibility_doc: str = DEFAULT_REPRODUCIBILITY_DOC  #: the page the notes link to
    sets: tuple[str, ...] = ()  #: the wording sets, which a note can name with ``:wording:``
    #: The project's ``templates_path``, resolved (the environment looks there first).
    search_path: tuple[str, ...] = ()

    def template_for(self, wording: str = "") -> str:
        """The template of a note worded with set *wording* ("" for the site's)."""
        return set_template(wording) if wording else self.template_name

    def template(self, wording: str = "") -> jinja2.Template:
        return self.environment.get_template(self.template_for(wording))


@dataclass
class WordingState:
    """Per build: the wording chosen once the builder is set up."""

    wording: Wording | None = None


def choose_wording(app: Sphinx) -> None:
    """``builder-inited``: choose the template in use, where directives and
    the dependency check find it: the project's own ``note.rst``, else the
    set ``reprodocs_wording`` names, else (with a warning at its line in
    conf.py) the default set."""
    search_path = project_templates(app)
    environment = template_environment(search_path)
    sets = wording_sets(environment)
    try:
        loader(environment).get_source(environment, NOTE_TEMPLATE)
        template = NOTE_TEMPLATE
    except jinja2.TemplateNotFound:
        template = set_template(chosen_set(app, sets))
    reproducibility_doc = checked_setting(
        app,
        "reprodocs_reproducibility_doc",
        lambda value: isinstance(value, str) and value.strip("/ ") != "",
        __("a document name, such as 'notes/randomness'"),
        DEFAULT_REPRODUCIBILITY_DOC,
    )
    build_state(app.env, WordingState).wording = Wording(
        environment, template, reproducibility_doc.strip("/ "), tuple(sets), search_path
    )


def chosen_set(app: Sphinx, known: list[str]) -> str:
    """The set ``reprodocs_wording`` names, or the default one if it names none."""
    name = app.config.reprodocs_wording
    if isinstance(name, str) and name in known:
        return name
    warn(
        "wording",
        __("reprodocs_wording: there is no wording set %r (the sets are %s); using %r"),
        name,
        ", ".join(known),
        DEFAULT_SET,
        location=setting_location(app, "reprodocs_wording"),
    )
    return DEFAULT_SET


def wording_of(env: BuildEnvironment) -> Wording:
    """The wording chosen for *env*'s build (the default set's where no
    builder chose one)."""
    state = build_state(env, WordingState)
    if state.wording is None:
        environment = template_environment(())
        state.wording = Wording(
            environment, set_template(DEFAULT_SET), sets=tuple(wording_sets(environment))
        )
    return state.wording


def wording_fingerprint(env: BuildEnvironment) -> str:
    """A digest of everything the notes' wording is made of: the name of the
    template in use, the sources of every template a note may use (the one in
    use and every wording set, which a note names with ``:wording:``) and of
    the templates they name, the catalog files of the language, the page the
    notes link to, and reprodocs' own version (the code that renders them).
    Equal bytes give an equal digest, whatever the files' times."""
    wording = wording_of(env)
    parts = [("reprodocs", __version__.encode())]
    parts.append(("template", wording.template_name.encode()))
    names = [wording.template_name, *map(set_template, wording.sets)]
    parts += [
        (name, source.encode()) for name, source in template_sources(wording.environment, *names)
    ]
    parts.append(("reprodocs_reproducibility_doc", wording.reproducibility_doc.encode()))
    # The files Sphinx's locale.init loads for the catalog (the language, then its parents).
    for path in gettext.find(CATALOG, str(LOCALE_DIR), [env.config.language], all=True):
        parts.append((str(Path(path).relative_to(LOCALE_DIR)), Path(path).read_bytes()))
    digest = hashlib.sha256()
    for name, content in parts:
        digest.update(b"%d:%s%d:" % (len(name), name.encode(), len(content)) + content)
    return digest.hexdigest()


def template_sources(environment: jinja2.Environment, *names: str) -> list[tuple[str, str]]:
    """The sources of templates *names* and of every template they include,
    import or extend by a constant name, recursively; "" for a missing one."""
    sources: dict[str, str] = {}
    pending = list(names)
    while pending:
        name = pending.pop()
        if name in sources:
            continue
        try:
            sources[name] = loader(environment).get_source(environment, name)[0]
            tree = environment.parse(sources[name])
        except jinja2.TemplateNotFound:
            sources[name] = ""
            continue
        except jinja2.TemplateSyntaxError:
            continue
        pending += [ref for ref in jinja2.meta.find_referenced_templates(tree) if ref]
    return sorted(sources.items())


def check_reproducibility_doc(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-updated``: warn when the page the notes link to is missing (their
    links would each warn too, but not say which setting names the page)."""
    page = wording_of(env).reproducibility_doc
    if page in env.found_docs or not notes_domain(env).notes_by_doc:
        return
    warn(
        "reproducibility_doc",
        __(
            "reprodocs_reproducibility_doc: the notes link to %r, which is not a document "
            "of this project: write that page, or name another"
        ),
        page,
        location=setting_location(app, "reprodocs_reproducibility_doc"),
    )
