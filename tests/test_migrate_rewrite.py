"""reprodocs.migrate.rewrite: the pass over a text leaves literal blocks,
comments and unrelated includes alone, and what it cannot rewrite safely."""

from __future__ import annotations

import migrate_support
from migrate_support import TREES, run
from reprodocs import migrate

# The fixtures these tests take, by their names.
tree = migrate_support.tree


def test_unrelated_includes_literal_blocks_and_comments_are_untouched(tree, capsys):
    root = tree("pytorch-1.4")
    run(capsys, "--write", str(root))
    tensors = (root / "docs/source/tensors.rst").read_text()

    assert ".. include:: _includes/tensor_intro.rst" in tensors
    assert tensors.count(".. include:: cuda_deterministic.rst") == 2  # literal block, comment
    assert tensors.count(".. cuda-deterministic::") == 1
    for name in migrate.INCLUDED_NOTES:
        note_file = root / "docs/source" / name
        assert note_file.read_bytes() == (TREES / "pytorch-1.4/docs/source" / name).read_bytes()


def test_what_cannot_be_rewritten_safely_is_reported_and_left(tmp_path, capsys):
    source = tmp_path / "notes.py"
    source.write_text(
        "def f():\n"
        '    """Summary.\n'
        "\n"
        "    Note:\n"
        "        Text, then {backward_reproducibility_note}\n"
        "\n"
        "    {cudnn_reproducibility_note}\n"
        "    and more text in the same paragraph.\n"
        "\n"
        "    .. include:: cuda_deterministic.rst\n"
        "       :start-line: 2\n"
        "\n"
        "    A paragraph, then\n"
        "    .. include:: cuda_deterministic.rst\n"
        "\n"
        "    {{backward_reproducibility_note}} is a literal brace.\n"
        '    """\n'
        "\n"
        "\n"
        'ESCAPED = "Note:\\n    {forward_reproducibility_note}\\n"\n'
        'ESCAPED_DOC = """Summary.\\n\\n.. include:: cuda_deterministic.rst\\n"""\n'
        'ONE_LINE = """{backward_reproducibility_note}"""  # code, not prose\n'
    )
    before = source.read_bytes()

    status, out, err = run(capsys, "--write", str(source))

    assert (status, out) == (migrate.LEGACY_NOTES_REMAIN, "")
    assert source.read_bytes() == before
    assert err.splitlines() == [
        f"{source}:5: left as is: {{backward_reproducibility_note}} is not a paragraph of its own",
        f"{source}:7: left as is: {{cudnn_reproducibility_note}} is not a paragraph of its own",
        f"{source}:10: left as is: this include has options or content",
        f"{source}:14: left as is: this include is part of a paragraph",
        f"{source}:21: left as is: this string's escape sequences change its lines",
    ]
