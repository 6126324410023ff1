"""The index, published for the build: computed once, after reading
(``env-updated``), and kept for the build. When it differs from the index
the output directory's pages were written with (``reprodocs.base.written``),
the pages showing a table or a list are written again, and only those."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from reprodocs.base import written
from reprodocs.base.report import checked_setting
from reprodocs.base.state import build_state, new_build_state
from reprodocs.notes.collecting import collect
from reprodocs.notes.domain import notes_domain

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from reprodocs.notes.index_rows import Row


@dataclass
class Published:
    """Per build: the index the tables, the lists and the JSON show."""

    rows: tuple[Row, ...] = ()
    export_json: bool = True  #: ``reprodocs_export_json``, checked


@dataclass
class ShownValues:
    """Per build: the values of entries (their place and text) a table or a
    list has shown, each problem of which it reported the first time."""

    seen: set[tuple[str, int, str]] = field(default_factory=set)


def publish(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-updated``: keep the index for the build; the pages showing it,
    to be written again if the output's were written with another (Sphinx
    would only write again pages whose source changed)."""
    new_build_state(env, ShownValues)
    published = keep_index(app, env)
    digest = index_digest(published.rows)
    pages = pages_to_write_again(app, env, digest)
    written.record(app, "index", digest)
    return pages


def keep_index(app: Sphinx, env: BuildEnvironment) -> Published:
    """Keep the build's index, and whether it is exported (the setting
    checked, warned about once); return what is kept."""
    published = build_state(env, Published)
    published.rows = collect(app, env)
    published.export_json = checked_setting(
        app, "reprodocs_export_json", lambda value: isinstance(value, bool), "True or False", True
    )
    return published


def index_digest(rows: tuple[Row, ...]) -> str:
    """A digest of what the tables, the lists and the JSON show of *rows*."""
    return hashlib.sha256(repr([row.shown for row in rows]).encode()).hexdigest()


def pages_to_write_again(app: Sphinx, env: BuildEnvironment, digest: str) -> list[str]:
    """The pages showing the index, if the output's pages were written
    with another than *digest*; none if with this one."""
    if not written.differs(app, "index", digest):
        return []
    return sorted(notes_domain(env).index_pages)
