"""``nondeterministic.json``: the index, exported at the root of HTML
output (its version and schema: :mod:`reprodocs.notes.nondeterministic_ops`).
Each operation's keys are the entry's fields the schema exports
(:mod:`reprodocs.base.entry_schema`), and where the entry is."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from sphinx.builders.html import StandaloneHTMLBuilder

from reprodocs.base.entry_schema import Field, json_keys
from reprodocs.base.files import replace_file
from reprodocs.base.state import build_state
from reprodocs.base.vocabulary import JSON_NAME
from reprodocs.notes.declared_fields import declared_fields
from reprodocs.notes.nondeterministic_ops import JSON_VERSION
from reprodocs.notes.publishing import Published

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from reprodocs.notes.index_rows import Row


def export_json(app: Sphinx, exception: Exception | None) -> None:
    """Write ``nondeterministic.json`` at the root of HTML output."""
    builder = app.builder
    published = build_state(app.env, Published)
    if (
        exception is not None
        or not isinstance(builder, StandaloneHTMLBuilder)  # html, dirhtml, singlehtml
        or not published.export_json
    ):
        return
    document = {
        "version": JSON_VERSION,
        "project": app.config.project,
        "operations": [operation(builder, row, declared_fields(app.env)) for row in published.rows],
    }
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    path = app.outdir / JSON_NAME
    # Left alone when unchanged, so that an incremental build changes no file;
    # else replaced whole, so that a reader never sees it half-written.
    try:
        unchanged = path.read_text(encoding="utf-8") == text
    except (OSError, ValueError):
        unchanged = False
    if not unchanged:
        replace_file(path, text)


def operation(
    builder: StandaloneHTMLBuilder, row: Row, declared: tuple[Field, ...] = ()
) -> dict[str, object]:
    """*row*'s object in ``operations``: its keys in the schema's order,
    the project's fields (*declared*) last."""
    place = where(builder, row)
    found: dict[str, object] = {}
    for key in json_keys(declared):
        if isinstance(key, Field):
            value = row.note.value(key)
            if value or not key.exported_when_set:
                found[key.json_key] = exported(value)
        else:
            found[key] = place[key]
    return found


def exported(value: object) -> object:
    """A field's value as JSON has it: several values as an array, an
    empty value as null."""
    if isinstance(value, tuple):
        return list(value)
    return value or None


def where(builder: StandaloneHTMLBuilder, row: Row) -> dict[str, object]:
    """The keys the export adds to the entry's fields: which directive made
    it, where it is written, where its operation is documented."""
    note = row.note
    return {
        "directive": note.directive,
        "docname": note.docname or None,
        "uri": output_uri(builder, row) if row.target.doc else None,
        "renders": note.renders,
        "registry_file": registry_file_key(row),
    }


def registry_file_key(row: Row) -> dict[str, object] | None:
    """Where an entry of the registry file is written; None for another entry."""
    if row.registry_file is None:
        return None
    path, line = row.registry_file
    return {"path": path, "line": line}


def output_uri(builder: StandaloneHTMLBuilder, row: Row) -> str:
    """The row's address relative to the output root, anchor included."""
    page, _, fragment = builder.get_target_uri(row.target.doc).partition("#")
    # singlehtml has one page, the root document, and pages as "#document-NAME".
    page = page or builder.config.root_doc + builder.out_suffix
    fragment = row.target.anchor or fragment
    return f"{page}#{fragment}" if fragment else page
