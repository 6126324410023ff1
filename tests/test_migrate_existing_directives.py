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
