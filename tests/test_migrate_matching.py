"""reprodocs.migrate.matching: the lists' items matched to the notes; the
notes get what deterministic mode does and when; the report."""

from __future__ import annotations

import re

import migrate_support
from migrate_support import LISTS, TREES, reports, run
from reprodocs import migrate

# The fixtures these tests take, by their names.
tree = migrate_support.tree


def test_names_match_exactly_or_where_a_package_re_exports_them():
    assert migrate.names_match("torch.histc", "torch.histc") == 2
    assert migrate.names_match("torch.nn.Conv1d", "torch.nn.modules.conv.Conv1d") == 1
    assert migrate.names_match("torch.nn.Conv1d.forward", "torch.nn.modules.conv.Conv1d.forward")
    assert not migrate.names_match("torch.index_add", "torch.Tensor.index_add_")
    assert not migrate.names_match("torch.nn.CTCLoss", "torch.nn.functional.ctc_loss")
    assert not migrate.names_match("torch.nn.Conv1d", "torch.nn.Conv1d.forward")
    assert not migrate.names_match("torch.nn.Conv1d", "torchvision.nn.Conv1d")


def option_block(text: str, directive_line: str) -> list[str]:
    """The directive line and its options, as they are in *text*."""
    lines = text.splitlines()
    start = lines.index(directive_line)
    end = start + 1
    while end < len(lines) and lines[end].strip().startswith(":"):
        end += 1
        while end < len(lines) and lines[end].startswith(" " * (len(directive_line) + 3)):
            end += 1  # an option's value goes on
    return lines[start:end]


def test_matched_notes_get_what_deterministic_mode_does_and_when(tree, capsys):
    root = tree(LISTS)
    status, _, _ = run(capsys, "--write", "--wording", "pytorch-2", str(root))
    assert status == migrate.LEGACY_NOTES_REMAIN  # items kept by hand

    conv = (root / "torch/nn/modules/conv.py").read_text()
    # torch.nn.Conv1d, as torch.nn re-exports torch.nn.modules.conv.Conv1d
    assert option_block(conv, "    .. cudnn-deterministic::") == [
        "    .. cudnn-deterministic::",
        "       :deterministic-algorithms: deterministic",
        "       :when: called on CUDA tensor",
    ]
    tensor_docs = (root / "torch/_tensor_docs.py").read_text()
    put, scatter_add = [
        option_block("\n".join(tensor_docs.splitlines()[start:]), ".. cuda-deterministic::")
        for start in (28, 45)
    ]
    # Of the three items of torch.Tensor.put_, its CUDA note fits the two of
    # the raises list; it goes to the one naming CUDA tensors. (The item on
    # CPU tensors fits no CUDA note.)
    assert put == [
        ".. cuda-deterministic::",
        "   :deterministic-algorithms: raises",
        "   :when: ``accumulate=True`` and called on a CUDA tensor",
    ]
    assert scatter_add == [
        ".. cuda-deterministic::",
        "   :deterministic-algorithms: deterministic",
        "   :when: called on a CUDA tensor",
    ]
    # A long condition is wrapped, as a field's body goes on.
    functional = (root / "torch/nn/functional.py").read_text()
    assert (
        "    .. cuda-deterministic-backward::\n"
        "       :deterministic-algorithms: raises\n"
        "       :when: attempting to differentiate a CUDA tensor and one of the following modes\n"
        "          is used: ``linear``, ``bilinear``\n"
        '    """\n'
    ) in functional
    # Directives already there get the options after their own.
    nn = (root / "docs/source/nn.rst").read_text()
    assert option_block(nn, "   .. cuda-deterministic-backward::") == [
        "   .. cuda-deterministic-backward::",
        "      :deterministic-algorithms: raises",
        "      :when: attempting to differentiate a CUDA tensor",
    ]
    # An item without a condition: no :when:.
    assert nn.endswith(
        ".. nondeterministic::\n"
        "   :op: torch.nn.MaxUnpool1d\n"
        "   :pass: forward\n"
        "   :deterministic-algorithms: raises\n"
    )
    # An include, as a placeholder, becomes a directive with the options.
    assert option_block(
        (root / "docs/source/torch.rst").read_text(), "   .. cuda-deterministic::"
    ) == [
        "   .. cuda-deterministic::",
        "      :deterministic-algorithms: raises",
        "      :when: called on a CUDA tensor when dtype is floating point or complex",
        "      :wording: pytorch-1.4",
    ]
    # The notes that are in neither list get no such option.
    for name in ("_torch_docs.py", "_tensor_docs.py", "nn/functional.py"):
        text = (root / "torch" / name).read_text()
        migrated = re.findall(r"\.\. (?:cuda|cudnn)-deterministic(?:-backward)?::", text)
        assert text.count(":deterministic-algorithms:") < len(migrated), name


def test_nothing_is_dropped(tree, capsys):
    # Every item of the lists is, after migration, either a note's
    # (:deterministic-algorithms: and :when: as the item said) or still in
    # the list by hand, in its own words.
    root = tree(LISTS)
    before = migrate.migrate_file(root / "torch/__init__.py")[1].lists
    run(capsys, "--write", "--wording", "pytorch-2", str(root))

    said = set()
    for source in migrate.source_files([str(root)]):
        for note in migrate.migrate_file(source.path)[1].notes:
            if "deterministic-algorithms" in note.options:
                said.add(
                    (
                        note.operations[0].replace(".modules.conv", ""),
                        note.options["deterministic-algorithms"],
                        note.options.get("when", ""),
                    )
                )
    original = (TREES / LISTS / "torch/__init__.py").read_text().splitlines()
    after = (root / "torch/__init__.py").read_text()
    kept = [line for found in before for line in (i.line for i in found.items)]
    for found in before:
        for item in found.items:
            noted = (item.operation, found.kind, item.condition) in said
            by_hand = original[item.line - 1] in after.splitlines()
            assert noted != by_hand, item
            if by_hand:
                kept.remove(item.line)
    assert len(said) == 7
    assert len(kept) == 7  # the noted items


def test_items_without_a_note_and_notes_in_neither_list_are_reported(tree, capsys, monkeypatch):
    monkeypatch.chdir(tree(LISTS))

    status, out, err = run(capsys, "torch", "docs")

    assert status == migrate.LEGACY_NOTES_REMAIN
    assert "+++ torch/__init__.py" in out
    assert err.splitlines() == reports()


def test_a_list_no_note_would_be_in_stays_as_it_is(tree, capsys):
    # Replaced by its directive, the list would show no operation (only the
    # items kept by hand, after "no operation is noted").
    root = tree("pytorch-2")
    init = root / "torch/__init__.py"
    init.write_text(
        init.read_text() + '\n\ndef use_deterministic_algorithms(mode):\n    """Sets it.\n\n'
        "    The following normally-nondeterministic operations will act\n"
        "    deterministically when ``mode=True``:\n\n"
        "        * :func:`torch.gather` when called on a CUDA tensor that requires grad\n"
        '    """\n'
    )
    before = init.read_text()

    status, _, err = run(capsys, "--write", str(root))

    assert init.read_text() == before
    assert status == migrate.LEGACY_NOTES_REMAIN
    assert (
        f"{init}:26: the list of operations that act deterministically stays as it is: "
        "no note would be in it (kept by hand: 1)\n"
        f"{init}:29: torch.gather has no note: the item stays in the list, kept by hand\n"
    ) in err
    # Its notes are in neither list.
    assert "in neither list: the cuda-deterministic-backward note of torch.bincount" in err


def test_two_notes_that_fit_equally_are_left_to_a_person(tmp_path, capsys):
    page = tmp_path / "ops.rst"
    page.write_text(
        "The following normally-nondeterministic operations will throw a\n"
        "RuntimeError when ``mode=True``:\n"
        "\n"
        "* :func:`ops.f` when called on a CUDA tensor\n"
        "\n"
        ".. py:function:: ops.f()\n"
        "\n"
        "   .. nondeterministic::\n"
        "\n"
        "   .. nondeterministic::\n"
        "      :backend: ROCm\n"
    )
    before = page.read_text()

    status, out, err = run(capsys, "--write", str(page))

    assert (status, out, page.read_text()) == (migrate.LEGACY_NOTES_REMAIN, "", before)
    assert (
        f"{page}:4: ops.f has several notes that fit its condition equally (nondeterministic): "
        "the item stays in the list, kept by hand\n"
    ) in err
