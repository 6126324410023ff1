"""reprodocs.migrate.settings: the default wording is the extension's."""

from __future__ import annotations

from reprodocs import migrate


def test_the_default_wording_is_the_extensions():
    from reprodocs.notes.wording import DEFAULT_SET

    assert migrate.DEFAULT_WORDING == DEFAULT_SET
