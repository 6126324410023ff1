"""reprodocs.migrate.directives: a directive already there that says what
an item said takes the item off its list."""

from __future__ import annotations

import migrate_support
from migrate_support import LISTS, MIGRATED_INIT, run
from reprodocs import migrate

# The fixtures these tests take, by their names.
tree = migrate_support.tree


def test_an_item_whose_note_is_written_later_leaves_the_list(tree, capsys):
    # After migration, someone writes torch.histc's note with what its item
    # said: migrate takes the item off the list kept by hand.
    root = tree(LISTS)
    run(capsys, "--write", str(root))
    torch_rst = root / "docs/source/torch.rst"
    torch_rst.write_text(
        torch_rst.read_text().replace(
            ".. autofunction:: histc\n",
            ".. autofunction:: histc\n\n"
            "   .. cuda-deterministic::\n"
            "      :deterministic-algorithms: raises\n"
            "      :when: called on a CUDA tensor\n",
        )
    )
    torch_rst_written = torch_rst.read_text()

    status, _, err = run(capsys, "--write", str(root))

    assert status == migrate.LEGACY_NOTES_REMAIN  # the other items kept by hand
    init = (root / "torch/__init__.py").read_text()
    assert ":func:`torch.histc`" not in init
    assert (
        MIGRATED_INIT.replace("        * :func:`torch.histc` when called on a CUDA tensor\n", "")
        in init
    )
    assert torch_rst.read_text() == torch_rst_written  # the note already said it
    assert "items from notes: 1, kept by hand: 4 (of 5)" in err
    assert "torch.histc" not in err
