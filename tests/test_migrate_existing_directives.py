"""reprodocs.migrate.existing_directives: a directive already there (a note, or an
entry that renders nothing) that says what an item said takes the item off
its list."""

from __future__ import annotations

from reprodocs import migrate


def test_an_entry_already_there_takes_its_item_off_the_list(tmp_path):
    # After migration, someone wrote torch.histc's entry by hand; the item
    # was kept in the list (it was added to it later): migrate takes it off.
    page = tmp_path / "torch.rst"
    page.write_text(
        "The following normally-nondeterministic operations will throw a\n"
        "RuntimeError when ``mode=True``:\n"
        "\n"
        ".. nondeterministic-ops::\n"
        "   :deterministic-algorithms: raises\n"
        "\n"
        "* :func:`torch.histc` when called on a CUDA tensor\n"
        "\n"
        ".. py:function:: torch.histc(input)\n"
        "\n"
        "   .. nondeterministic-entry::\n"
        "      :backend: XPU, CUDA\n"
        "      :pass: forward\n"
        "      :deterministic-algorithms: raises\n"
        "      :when: called on a CUDA tensor\n"
    )
    outcome = migrate.survey([str(page)])

    (entry,) = outcome.matched
    assert entry[1].directive == "nondeterministic-entry"
    assert (entry[1].backend, entry[1].affected_pass) == ("XPU, CUDA", "forward")
    assert outcome.entries == outcome.kept == []
    # The remainder goes: nothing is planned for the entry, which says it.
    plan = outcome.plans[page]
    assert (plan.kept, plan.options, plan.entries) == ({4: []}, {}, {})


#: A list directive, an item still kept by hand, and the entry migrate
#: wrote in the place of another item (whose file could not be written).
IN_LIST_PLACE = (
    ".. nondeterministic-ops::\n"
    "   :deterministic-algorithms: raises\n"
    "\n"
    "* :func:`torch.histc` when called on a CUDA tensor\n"
    "\n"
    ".. nondeterministic-entry::\n"
    "   :op: torch.median\n"
    "   :deterministic-algorithms: raises\n"
    "\n"
    "Text.\n"
    "\n"
    ".. nondeterministic-entry::\n"
    "   :op: torch.elsewhere\n"
    "   :deterministic-algorithms: raises\n"
)


def test_an_entry_in_a_list_s_place_is_known_and_leaves_it_when_released():
    found = migrate.rewrite_text(IN_LIST_PLACE, migrate.Settings())
    assert [(note.line, note.list_place) for note in found.notes] == [(6, "raises"), (12, "")]

    plan = migrate.Plan(released={6})
    released = migrate.rewrite_text(IN_LIST_PLACE, migrate.Settings(plan=plan))
    assert released.text == IN_LIST_PLACE.replace(
        "\n.. nondeterministic-entry::\n   :op: torch.median\n   :deterministic-algorithms: raises\n",
        "",
    )
