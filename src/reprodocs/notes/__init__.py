"""The notes extension: ``extensions = ["reprodocs"]`` (or ``"reprodocs.notes"``).

It adds the reproducibility note directives, keeps every note in the
``reprodocs`` domain, and generates the index of them: the
``nondeterministic-ops`` table, ``nondeterministic.json``, and the drift check
against ``reprodocs_known_ops``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reprodocs.base import __version__
from reprodocs.base.i18n import add_catalog
from reprodocs.base.vocabulary import LIST_DIRECTIVE
from reprodocs.notes.autodoc2 import mark_summaries
from reprodocs.notes.conditions import record_conditions
from reprodocs.notes.declared_fields import SETTING as ENTRY_FIELDS
from reprodocs.notes.declared_fields import check_declared_fields
from reprodocs.notes.directives import NOTE_DIRECTIVE_CLASSES
from reprodocs.notes.domain import ReproducibilityDomain, check_notes_agree
from reprodocs.notes.drift import check_known_ops, read_known_ops
from reprodocs.notes.json_export import export_json
from reprodocs.notes.labels import check_labels_unique
from reprodocs.notes.nondeterministic_ops import NondeterministicOpsDirective, nondeterministic_ops
from reprodocs.notes.nondeterministic_ops_render import RenderIndex, reported_with_the_note
from reprodocs.notes.publishing import publish
from reprodocs.notes.registry_file import SETTING as REGISTRY_FILE
from reprodocs.notes.registry_file import load_registry_file
from reprodocs.notes.rendering import forget_wording
from reprodocs.notes.rereading import reread_when_wording_changes
from reprodocs.notes.runtime_text import check_runtime_texts
from reprodocs.notes.unread import UnreadNotes
from reprodocs.notes.wording import (
    DEFAULT_REPRODUCIBILITY_DOC,
    DEFAULT_SET,
    check_reproducibility_doc,
    choose_wording,
)

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

#: Version of the data reprodocs keeps in the environment; bump it when the
#: shape of :class:`~reprodocs.notes.domain.ReproducibilityDomain`'s data changes.
ENV_VERSION = ReproducibilityDomain.data_version


def setup(app: Sphinx) -> ExtensionMetadata:
    """What Sphinx calls for ``extensions = ["reprodocs"]``."""
    # What notes were written with, per output directory (reprodocs.base.written).
    app.setup_extension("reprodocs.base.written")
    add_catalog(app)
    # Each value is checked where it is read, with a warning naming it
    # (types=Any: Sphinx's own check would warn about it a second time).

    # The wording: a set of templates, the project's templates, the catalog,
    # the page linked to. The pages holding notes are re-read when it
    # changes, and only they: so a new set re-reads no other page.
    app.add_config_value("reprodocs_wording", DEFAULT_SET, "", types=Any)
    app.add_config_value(
        "reprodocs_reproducibility_doc", DEFAULT_REPRODUCIBILITY_DOC, "", types=Any
    )
    app.connect("builder-inited", choose_wording)
    app.connect("env-get-outdated", reread_when_wording_changes)
    app.connect("env-before-read-docs", forget_wording)
    app.connect("env-updated", check_reproducibility_doc)

    # The notes, with the fields the project declares ("env": changing them re-reads all)
    app.add_config_value(ENTRY_FIELDS, None, "env", types=Any)
    app.connect("builder-inited", check_declared_fields)  # before the registry file
    app.add_domain(ReproducibilityDomain)
    for directive in NOTE_DIRECTIVE_CLASSES:
        app.add_directive(directive.directive_name, directive)
    app.connect("builder-inited", mark_summaries)  # read once: not in autodoc2's summaries
    # Those docutils could not read (a wrong option): not in the registry, said so
    app.add_transform(UnreadNotes)
    # The only/ifconfig conditions each note is shown under
    app.connect("doctree-read", record_conditions)
    # Notes across pages that repeat or contradict each other, on every build
    app.connect("env-updated", check_notes_agree)
    app.connect("env-updated", check_labels_unique)

    # The index of them
    app.add_node(nondeterministic_ops)
    app.add_directive(LIST_DIRECTIVE, NondeterministicOpsDirective)
    app.add_config_value("reprodocs_export_json", True, "", types=Any)
    # The registry file's entries, read on every build: editing it re-reads nothing.
    app.add_config_value(REGISTRY_FILE, None, "", types=Any)
    app.connect("builder-inited", load_registry_file)
    app.connect("env-updated", publish)
    # What help() shows (runtime text) against the registry, on every build
    app.connect("env-updated", check_runtime_texts)
    app.add_post_transform(RenderIndex)
    app.connect("warn-missing-reference", reported_with_the_note)
    app.connect("build-finished", export_json)

    # The drift check, on every build: changing the list re-reads nothing.
    app.add_config_value("reprodocs_known_ops", None, "", types=Any)
    app.connect("builder-inited", read_known_ops)
    app.connect("env-updated", check_known_ops)

    return {
        "version": __version__,
        "env_version": ENV_VERSION,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
