"""reprodocs.notes.nondeterministic_ops_render: an entry's value shown in a
table or a list and in no note's wording (a project's field, or any value of
an entry that renders nothing) has its problems said where the entry is
written, once: a note's wording says those of its own words."""

from __future__ import annotations

from sphinx.util.console import strip_colors

FIELDS = [{"option": "where", "title": "Where"}]

BODY = """\
.. nondeterministic-ops::
   :columns: operation, where

.. nondeterministic-ops::
   :format: list

.. nondeterministic-entry::
   :label: Entry
   :when: called with :func:`torch.nowhere_when`
   :where: ``unclosed

.. nondeterministic::
   :op: torch.Tensor.put_
   :when: called with :func:`torch.nowhere_note`
   :where: :nope:`x` and :func:`torch.nowhere_field`
"""


def warnings_of(app) -> list[str]:
    return strip_colors(app.warning.getvalue()).splitlines()


def typed(app, name: str) -> str:
    """A warning's type as the build prints it (Sphinx 7.2 prints none)."""
    return f" [{name}]" if getattr(app.config, "show_warning_types", False) else ""


def test_a_value_no_wording_shows_is_warned_about_once_at_its_entry(build_page):
    app = build_page(BODY, confoverrides={"reprodocs_entry_fields": FIELDS, "nitpicky": True})
    index = app.srcdir / "index.rst"
    entry, note = f"{index}:14", f"{index}:19"  # each directive's line
    literal = "an entry's value: Inline literal start-string without end-string."
    role = 'an entry\'s value: Unknown interpreted text role "nope".'
    markup, ref = typed(app, "reprodocs.markup"), typed(app, "ref.func")
    missing = "WARNING: py:func reference target not found"
    assert sorted(warnings_of(app)) == sorted(
        [
            f"{entry}: WARNING: {literal}{markup}",
            f"{entry}: {missing}: torch.nowhere_when{ref}",
            f"{note}: WARNING: {role}{markup}",
            f"{note}: {missing}: torch.nowhere_field{ref}",
            # The note's condition, said by its wording alone (not by the table).
            f"{note}: {missing}: torch.nowhere_note{ref}",
        ]
    )


def test_a_value_shown_by_a_table_of_default_columns_is_warned_about(build_page):
    body = ".. nondeterministic-ops::\n\n.. nondeterministic-entry::\n   :label: E\n   :where: *x\n"
    app = build_page(body, confoverrides={"reprodocs_entry_fields": FIELDS})
    emphasis = "an entry's value: Inline emphasis start-string without end-string."
    assert [line for line in warnings_of(app) if "an entry's value" in line] == [
        f"{app.srcdir / 'index.rst'}:10: WARNING: {emphasis}{typed(app, 'reprodocs.markup')}"
    ]


def test_a_reference_only_the_page_resolves_is_warned_about_a_link_is_not(build_page):
    body = (
        ".. nondeterministic-ops::\n\n.. nondeterministic-entry::\n   :label: E\n"
        "   :where: see [#]_, |sub| and `ref`_; `a link <https://example.org>`__ "
        "and `another <https://example.org/2>`_\n"
    )
    app = build_page(body, confoverrides={"reprodocs_entry_fields": FIELDS})
    at = f"{app.srcdir / 'index.rst'}:10"
    shown = "is a reference a table or a list shows as its text"
    assert warnings_of(app) == [
        f"{at}: WARNING: an entry's value: {reference!r} {shown}{typed(app, 'reprodocs.markup')}"
        for reference in ("[#]_", "|sub|", "`ref`_")
    ]
