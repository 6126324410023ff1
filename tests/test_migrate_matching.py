"""reprodocs.migrate.matching: the lists' items matched to the notes; the
notes get what deterministic mode does and when; the report."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import migrate_support
from migrate_support import LISTS, reports, run
from reprodocs import migrate
from reprodocs.migrate.model import FoundNote, HandKeptList, Listing, ListItem, UnreadFile
from reprodocs.migrate.names import operation_words

# The fixtures these tests take, by their names.
tree = migrate_support.tree


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
    assert status == migrate.NOTHING_TO_MIGRATE

    conv = (root / "torch/nn/modules/conv.py").read_text()
    # torch.nn.Conv1d, as torch.nn re-exports torch.nn.modules.conv.Conv1d
    assert option_block(conv, "    .. cudnn-deterministic::") == [
        "    .. cudnn-deterministic::",
        "       :runtime-text: {cudnn_reproducibility_note}",
        "       :deterministic-algorithms: deterministic",
        "       :when: called on CUDA tensor",
    ]
    tensor_docs = (root / "torch/_tensor_docs.py").read_text()
    put, scatter_add = [
        option_block("\n".join(tensor_docs.splitlines()[start:]), ".. cuda-deterministic::")
        for start, line in enumerate(tensor_docs.splitlines())
        if line == ".. cuda-deterministic::"
    ][1:]
    # Of the three items of torch.Tensor.put_, its CUDA note fits the two of
    # the raises list; it goes to the one naming CUDA tensors. (The item on
    # CPU tensors fits no CUDA note.)
    assert put == [
        ".. cuda-deterministic::",
        "   :runtime-text: {forward_reproducibility_note}",
        "   :deterministic-algorithms: raises",
        "   :when: ``accumulate=True`` and called on a CUDA tensor",
    ]
    assert scatter_add == [
        ".. cuda-deterministic::",
        "   :runtime-text: {forward_reproducibility_note}",
        "   :deterministic-algorithms: deterministic",
        "   :when: called on a CUDA tensor",
    ]
    # A long condition is wrapped, as a field's body goes on; the modes the
    # item lists are its cases.
    functional = (root / "torch/nn/functional.py").read_text()
    assert (
        "    .. cuda-deterministic-backward::\n"
        "       :runtime-text: {backward_reproducibility_note}\n"
        "       :deterministic-algorithms: raises\n"
        "       :when: attempting to differentiate a CUDA tensor and one of the following modes\n"
        "          is used:\n"
        "       :cases: ``linear``, ``bilinear``\n"
        '    """\n'
    ) in functional
    # A note the list names by another of its names: that name, shown and known.
    assert (
        "    .. cuda-deterministic-backward::\n"
        "       :runtime-text: {backward_reproducibility_note}\n"
        "       :deterministic-algorithms: raises\n"
        "       :listed-as: torch.nn.CTCLoss\n"
        "       :when: attempting to differentiate a CUDA tensor\n"
        "       :aliases: torch.nn.CTCLoss\n"
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
        "      :wording: pytorch-1.4",
        "      :deterministic-algorithms: raises",
        "      :when: called on a CUDA tensor when dtype is floating point or complex",
    ]
    # The notes that are in neither list get no such option.
    for name in ("_torch_docs.py", "nn/functional.py"):
        notes = migrate.migrate_file(root / "torch" / name)[1].notes
        assert [n for n in notes if "deterministic-algorithms" not in n.options], name


def test_nothing_is_dropped(tree, capsys):
    # Every item of the lists is, after migration, said by one note or
    # entry (what its options say, under the name the list gives), and by
    # one only: nothing is kept by hand.
    root = tree(LISTS)
    before = migrate.migrate_file(root / "torch/__init__.py")[1].lists
    run(capsys, "--write", "--wording", "pytorch-2", str(root))

    said: Counter[tuple[str, Listing]] = Counter()
    for source in migrate.source_files([str(root)]):
        for note in migrate.migrate_file(source.path)[1].notes:
            if kind := note.options.get("deterministic-algorithms"):
                listing = Listing.of_options(kind, note.options)
                name = listing.listed_as or note.operations[0].replace(".modules.conv", "")
                said[name, replace(listing, listed_as="")] += 1
    items = [(i.operation, Listing.of_item(found.kind, i)) for found in before for i in found.items]
    assert said == Counter(items)
    assert len(items) == 15
    # The items stay as their list directives' content, what help() shows.
    assert (root / "torch/__init__.py").read_text().count("        * :") == len(items)


def test_items_without_a_note_and_notes_in_neither_list_are_reported(tree, capsys, monkeypatch):
    monkeypatch.chdir(tree(LISTS))

    status, out, err = run(capsys, "torch", "docs")

    assert status == migrate.LEGACY_NOTES_REMAIN
    assert "+++ torch/__init__.py" in out
    assert err.splitlines() == reports()


def test_a_list_no_note_is_in_gets_its_entries(tree, capsys):
    # No note says torch.gather's item, and no docstring of it is in the
    # tree: its entry takes its place, naming it.
    root = tree("pytorch-2")
    init = root / "torch/__init__.py"
    init.write_text(
        init.read_text() + '\n\ndef use_deterministic_algorithms(mode):\n    """Sets it.\n\n'
        "    The following normally-nondeterministic operations will act\n"
        "    deterministically when ``mode=True``:\n\n"
        "        * :func:`torch.gather` when called on a CUDA tensor that requires grad\n"
        '    """\n'
    )

    status, _, err = run(capsys, "--write", str(root))

    assert status == migrate.NOTHING_TO_MIGRATE
    assert init.read_text().endswith(
        "    .. nondeterministic-ops::\n"
        "       :format: list\n"
        "       :deterministic-algorithms: deterministic\n"
        "\n"
        "        * :func:`torch.gather` when called on a CUDA tensor that requires grad\n"
        "\n"
        "    .. nondeterministic-entry::\n"
        "       :op: torch.gather\n"
        "       :backend: CUDA\n"
        "       :pass: backward\n"
        "       :deterministic-algorithms: deterministic\n"
        "       :when: called on a CUDA tensor that requires grad\n"
        '    """\n'
    )
    assert (
        f"{init}:26: the list of operations that act deterministically: items from notes: 0, "
        "from entries added: 1, kept by hand: 0 (of 1)\n"
        f"{init}:33: torch.gather has no note: an entry naming it (:op:) takes its place in the "
        "list: no docstring of it in the files migrated can take one\n"
    ) in err
    # Its notes are in neither list.
    assert "in neither list: the cuda-deterministic-backward note of torch.bincount" in err


def test_a_list_whose_items_no_entry_can_say_stays_as_it_is(tmp_path, capsys):
    page = tmp_path / "ops.rst"
    page.write_text(
        "The following normally-nondeterministic operations will throw a\n"
        "RuntimeError when ``mode=True``:\n"
        "\n"
        "* :func:`ops.f` if called on a CUDA tensor\n"
    )
    before = page.read_text()

    status, out, err = run(capsys, "--write", str(page))

    assert (status, out, page.read_text()) == (migrate.LEGACY_NOTES_REMAIN, "", before)
    assert err.splitlines() == [
        (
            f"{page}:1: the list of operations that throw a RuntimeError stays as it is: no note "
            "or entry would be in it (kept by hand: 1)"
        ),
        (
            f"{page}:4: ops.f: its condition begins with neither “when” nor “with”: the item "
            "stays in the list, kept by hand"
        ),
    ]


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


def test_an_item_a_file_not_read_may_decide_is_held_back():
    ctc_loss = FoundNote(
        5, "cuda-deterministic-backward", ("torch.nn.functional.ctc_loss",), "CUDA", "backward"
    )
    ctc = ListItem(3, "CTCLoss", "torch.nn.CTCLoss", "attempting to differentiate a CUDA tensor")
    histc = ListItem(4, "histc", "torch.histc", "called on a CUDA tensor")
    lists = [HandKeptList(1, "raises", [ctc, histc], path=Path("init.py"))]
    # The file may hold a note on torch.nn.CTCLoss, in its function's form.
    functional = UnreadFile(Path("functional.py"), 9, operation_words("def ctc_loss(x):\n  x(\n"))

    outcome = migrate.match_lists([ctc_loss], lists, unread=[functional])

    # Its whole list is held (a later run migrates it as a clean one would):
    # torch.histc too, which the file does not name.
    assert outcome.kept == [(ctc, lists[0]), (histc, lists[0])]
    assert outcome.entries == []
    # Its note is given nothing, and is not said to be in neither list.
    assert all(not plan.options for plan in outcome.plans.values())
    assert outcome.unlisted == []
    (message,) = [r.message for r in outcome.reports if r.line == 3]
    assert message == (
        "torch.nn.CTCLoss: kept by hand for now: functional.py:9 could not be read or parsed, and "
        "may hold its docstring or a note on it (run migrate again once it can be)"
    )
    # Nothing of a file could be read: any item may depend on it. The list
    # stays as it is.
    unseen = UnreadFile(Path("dir"), None, None)
    outcome = migrate.match_lists([ctc_loss], lists, unread=[unseen])
    assert [item for item, _ in outcome.kept] == [ctc, histc]
    assert not any(outcome.plans.values())
