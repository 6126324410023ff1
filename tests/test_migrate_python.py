"""reprodocs.migrate.python: only the text inside string literals of a
Python file is changed, with its lines as Python counts them."""

from __future__ import annotations

import io
import tokenize

import migrate_support
from migrate_support import run

# The fixtures these tests take, by their names.
tree = migrate_support.tree


def test_code_outside_string_literals_is_never_changed(tree, capsys):
    root = tree("pytorch-2")
    sources = {p: p.read_text() for p in root.rglob("*.py")}
    run(capsys, "--write", str(root))

    for path, old in sources.items():
        new = path.read_text()
        assert code_tokens(new) == code_tokens(old), path
    # A one-line string holding the 1.4 form is code, not documentation.
    root = tree("pytorch-1.4", to="old")
    run(capsys, "--write", str(root))
    functional = (root / "torch/nn/functional.py").read_text()
    assert 'NOTE_FILE = ".. include:: cuda_deterministic_backward.rst"' in functional
    assert "# The notes are pulled in with ``.. include:: cuda_deterministic_backward.rst``" in (
        functional
    )


def code_tokens(source: str) -> list[tuple[int, str]]:
    return [
        (token.type, token.string)
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type != tokenize.STRING
    ]


def test_a_form_feed_is_not_a_line_break(tmp_path, capsys):
    # str.splitlines() breaks lines at a form feed; Python does not.
    source = tmp_path / "paged.py"
    source.write_text(
        '\x0c\ndef f():\n    """Summary.\n\n    Note:\n        {cudnn_reproducibility_note}\n    """\n'
    )
    run(capsys, "--write", "--wording", "pytorch-2", str(source))
    assert (
        source.read_text() == '\x0c\ndef f():\n    """Summary.\n\n    .. cudnn-deterministic::\n'
        '       :runtime-text: {cudnn_reproducibility_note}\n    """\n'
    )


def test_a_file_nested_too_deep_for_python_s_parser_is_reported(tmp_path, capsys):
    """20,000 terms are too deep for Python's own parser, which raises
    RecursionError: migrate ended in its traceback, having written nothing;
    the file is now reported at its first line (exit status 2)."""
    source = tmp_path / "generated.py"
    text = '"""{backward_reproducibility_note}"""\nx = ' + " + ".join(["1"] * 20000) + "\n"
    source.write_text(text)
    status, out, err = run(capsys, "--write", str(source))
    assert (status, out) == (2, "")
    assert err == f"{source}:1: cannot migrate it: too deeply nested for Python's parser\n"
    assert source.read_text() == text
