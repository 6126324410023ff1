"""What migrate is asked to rewrite a text with, in one frozen object."""

from __future__ import annotations

from dataclasses import dataclass, field

from reprodocs.migrate.model import Catalog, Plan

#: The site's wording when ``--wording`` does not name it: the extension's
#: default (``reprodocs.notes.wording.DEFAULT_SET``, not imported: migrate
#: needs neither Sphinx's HTML nor Jinja).
DEFAULT_WORDING = "pytorch-1.4"


@dataclass(frozen=True)
class Settings:
    """The site's wording set (``--wording``, its ``reprodocs_wording``): a
    legacy note whose words were another set's gets ``:wording:``; and, for
    one file, the lists' plan (the options its notes get, the items its
    lists keep). Without a plan the lists are read and left as they are.
    *catalog*: what the Markdown catalog tables of the run's earlier files
    took (their labels, their fields' titles)."""

    wording: str = DEFAULT_WORDING
    plan: Plan | None = None
    catalog: Catalog = field(default_factory=Catalog)


#: The settings of a run on a site of the default wording, lists left as they are.
DEFAULT_SETTINGS = Settings()
