"""reprodocs.migrate.lists: the two lists of
torch.use_deterministic_algorithms read item by item, and replaced by their
directives and the items kept by hand, rendering the same items."""

from __future__ import annotations

from pathlib import Path

import migrate_support
from conftest import parse_html
from migrate_support import LISTS, MIGRATED_INIT, run
from reprodocs import migrate

# The fixtures these tests take, by their names.
build_docs = migrate_support.build_docs
build_html = migrate_support.build_html
tree = migrate_support.tree


def items_of(found) -> list[tuple[int, str, str | None]]:
    return [(item.line, item.operation, item.condition) for item in found.items]


def test_the_two_lists_are_read_from_the_docstring(tree):
    root = tree(LISTS)
    _, migration, _ = migrate.migrate_file(root / "torch/__init__.py")

    deterministic, raises = migration.lists
    # Each list is known by its introduction, on line 33 and 43.
    assert (deterministic.kind, deterministic.line) == ("deterministic", 33)
    assert (raises.kind, raises.line) == ("raises", 43)
    assert items_of(deterministic) == [
        (36, "torch.nn.Conv1d", "called on CUDA tensor"),
        (37, "torch.nn.ConvTranspose1d", "called on CUDA tensor"),
        # "with ``accumulate=True``" goes to :with:, the rest to :when:.
        (38, "torch.Tensor.put_", "called on a CPU tensor"),
        (40, "torch.Tensor.scatter_add_", "called on a CUDA tensor"),
        (41, "torch.index_add", "called on CUDA tensor"),
    ]
    assert items_of(raises) == [
        (46, "torch.nn.AvgPool3d", "attempting to differentiate a CUDA tensor"),
        (47, "torch.nn.MaxUnpool1d", ""),  # always
        # Wrapped, with a list of modes: its cases.
        (
            48,
            "torch.nn.functional.interpolate",
            "attempting to differentiate a CUDA tensor and one of the following modes is used:",
        ),
        (54, "torch.nn.CTCLoss", "attempting to differentiate a CUDA tensor"),
        (55, "torch.Tensor.put_", "``accumulate=False``"),  # :meth:
        (56, "torch.Tensor.put_", "``accumulate=True`` and called on a CUDA tensor"),
        (58, "torch.histc", "called on a CUDA tensor"),
        (59, "torch.bincount", "called on a CUDA tensor and ``weights`` tensor is given"),
        (61, "torch.cumsum", "called on a CUDA tensor when dtype is floating point or complex"),
        (62, "torch.median", "called on a CUDA tensor"),
    ]
    said = {
        item.line: (item.with_words, item.cases) for item in (*deterministic.items, *raises.items)
    }
    assert said[38] == ("``accumulate=True``", ())
    assert said[48] == ("", ("``linear``", "``bilinear``"))
    assert said[62] == ("indices output", ())
    assert said[47] == ("", ())


def test_list_items_in_every_form_of_cross_reference():
    migration = migrate.rewrite_text(
        "The following normally-nondeterministic operations will throw a\n"
        ":class:`RuntimeError` when ``mode=True``:\n"
        "\n"
        "- :py:func:`~torch.histc` when called on a CUDA tensor\n"
        "- :meth:`put <torch.Tensor.put_>`\n"
        "  when ``accumulate=False``\n"
        "- ``torch.median`` when called on a CUDA tensor\n"
        "- :func:`torch.cumsum` when called on a CUDA tensor:\n"
        "\n"
        "  A paragraph, not a list.\n"
        "\n"
        "- :func:`torch.bmm` if called on sparse-dense CUDA tensors\n"
    )
    (found,) = migration.lists
    assert items_of(found) == [
        (4, "torch.histc", "called on a CUDA tensor"),
        (5, "torch.Tensor.put_", "``accumulate=False``"),
        (7, "", None),
        (8, "torch.cumsum", None),
        (12, "torch.bmm", None),
    ]
    assert [item.problem for item in found.items] == [
        "",
        "",
        "it names no operation",
        "its condition is more than a line of text and a list of words",
        "its condition begins with neither “when” nor “with”",
    ]


def test_no_other_list_is_read():
    migration = migrate.rewrite_text(
        "The following operations are fast:\n"
        "\n"
        "* :func:`torch.add`\n"
        "\n"
        "Operations that act deterministically::\n"
        "\n"
        "  * :func:`torch.sub` when called on a CUDA tensor\n"
    )
    assert migration.lists == []


def test_the_lists_become_directives_and_the_items_without_a_note_stay(tree, capsys):
    root = tree(LISTS)
    run(capsys, "--write", str(root))

    assert MIGRATED_INIT in (root / "torch/__init__.py").read_text()


def test_a_remainder_whose_items_all_have_notes_goes(tmp_path, capsys):
    source = tmp_path / "mode.py"
    source.write_text(
        "def use_deterministic_algorithms(mode):\n"
        '    """Sets it.\n'
        "\n"
        "    The following normally-nondeterministic operations will throw a\n"
        "    :class:`RuntimeError` when ``mode=True``:\n"
        "\n"
        "        .. nondeterministic-ops::\n"
        "           :format: list\n"
        "           :deterministic-algorithms: raises\n"
        "\n"
        "        * :func:`mode.histc` when called on a CUDA tensor\n"
        "\n"
        "    Args:\n"
        "        mode (bool): on or off\n"
        '    """\n'
        "\n"
        "\n"
        "def histc():\n"
        '    """Histogram.\n'
        "\n"
        "    .. cuda-deterministic::\n"
        '    """\n'
    )

    status, _, err = run(capsys, "--write", str(source))

    assert status == migrate.NOTHING_TO_MIGRATE
    assert source.read_text().splitlines()[6:12] == [
        "        .. nondeterministic-ops::",
        "           :format: list",
        "           :deterministic-algorithms: raises",
        "",
        "    Args:",
        "        mode (bool): on or off",
    ]
    assert source.read_text().splitlines()[18:22] == [
        "    .. cuda-deterministic::",
        "       :deterministic-algorithms: raises",
        "       :when: called on a CUDA tensor",
        '    """',
    ]
    assert err == (
        f"{source}:7: the list of operations that throw a RuntimeError: "
        "items from notes: 1, from entries added: 0, kept by hand: 0 (of 1)\n"
        f"{source}:7: mode.histc: from its cuda-deterministic note in {source}\n"
    )


def list_items(page: Path) -> list[list[tuple[str, list[str]]]]:
    """The items of use_deterministic_algorithms' lists, each list's items
    with their links: each bullet list not in an item (by hand, in a block
    quote; generated, at the docstring's margin)."""
    soup = parse_html(page)
    body = soup.find(id="torch.use_deterministic_algorithms").find_next_sibling("dd")
    return [
        [
            (" ".join(item.get_text().split()), [a["href"] for a in item.find_all("a")])
            for item in bullets.find_all("li", recursive=False)
        ]
        for bullets in body.find_all("ul")
        if bullets.find_parent("li") is None  # not the list of modes in an item
    ]


def test_the_lists_render_the_same_items_after_migration(tree, capsys, build_docs, build_html):
    original = tree(LISTS, to="original")
    migrated = tree(LISTS, to="migrated")
    run(capsys, "--write", "--wording", "pytorch-2", str(migrated))

    before = list_items(build_html(original, reprodocs_wording="pytorch-2") / "torch.html")
    after = list_items(build_html(migrated, reprodocs_wording="pytorch-2") / "torch.html")

    # Item for item the same words and links, in another order: the
    # generated items, sorted by the name each shows. The modes interpolate's
    # item lists are its cases, a nested list as before. torch.median is
    # documented nowhere here: its item names it as PyTorch's does, with a
    # role's parentheses, and links nowhere, as before.
    median = ("torch.median() with indices output when called on a CUDA tensor", [])
    assert median in before[1]
    assert sorted(after[0]) == sorted(before[0])
    assert sorted(after[1]) == sorted(before[1])
    # Sorted by the name each item shows (torch.index_add, not the
    # torch.Tensor.index_add_ whose note it is, comes after torch.Tensor.*).
    shown = [text.partition(" ")[0].removesuffix("()") for text, _ in after[0]]
    assert shown == sorted(shown)
    assert "torch.index_add() when called on CUDA tensor" in [text for text, _ in after[0]]
    # And each note is the same, but for what it now says of deterministic mode.
    notes_before, prose_before = build_docs(original, reprodocs_wording="pytorch-2")
    notes_after, prose_after = build_docs(migrated, reprodocs_wording="pytorch-2")
    assert set(notes_after) == set(notes_before)
    listed = {
        "torch.nn.Conv1d",
        "torch.Tensor.put_",
        "torch.Tensor.scatter_add_",
        "torch.nn.functional.interpolate",
        "torch.nn.AvgPool3d",
        "nn.html",  # torch.nn.MaxUnpool1d's, written on the page
        "torch.cumsum",
        # The notes the lists name by another name (torch.index_add, torch.nn.CTCLoss).
        "torch.Tensor.index_add_",
        "torch.nn.functional.ctc_loss",
    }
    for name, notes in notes_before.items():
        if name not in listed:
            assert notes_after[name] == notes, name
    assert {name for name in prose_before if prose_after[name] != prose_before[name]} == {
        "torch.use_deterministic_algorithms"
    }
