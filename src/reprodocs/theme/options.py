"""The theme's options (``html_theme_options``), checked."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from reprodocs.base.i18n import __
from reprodocs.base.report import warn

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: The options that are lists of entries, and the keys each entry needs.
#: The templates skip an entry that is not a mapping; these warnings say why.
LIST_OPTIONS: dict[str, tuple[str, ...]] = {
    "header_links": ("title",),
    "resources": ("title", "url"),
    "footer_columns": ("title",),
    "social_links": ("name", "url"),
}


def check_theme_options(app: Sphinx) -> None:
    """Warn about entries of the list options that the templates cannot show."""
    if app.config.html_theme != "reprodocs":
        return
    options = app.config.html_theme_options
    for option, required in LIST_OPTIONS.items():
        value = options.get(option, [])
        if not isinstance(value, (list, tuple)):
            warn(
                "theme",
                __("html_theme_options[%r] must be a list, not %s"),
                option,
                type(value).__name__,
            )
            continue
        for position, entry in enumerate(value):
            where = f"html_theme_options[{option!r}][{position}]"
            if not isinstance(entry, Mapping):
                warn(
                    "theme",
                    __("%s must be a dict, not %s; it is left out"),
                    where,
                    type(entry).__name__,
                )
                continue
            missing = [key for key in required if not entry.get(key)]
            if option == "header_links" and not entry.get("url") and not entry.get("children"):
                missing.append(__("url (or children)"))
            if missing:
                warn("theme", __("%s has no %s"), where, ", ".join(missing))
