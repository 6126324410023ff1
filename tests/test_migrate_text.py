"""reprodocs.migrate.text: a docstring's margin, and a directive written
from a legacy note keeps its words where the site has others."""

from __future__ import annotations

import re

import pytest

import migrate_support
from migrate_support import LISTS, run

# The fixtures these tests take, by their names.
tree = migrate_support.tree


def test_a_docstring_first_line_is_at_the_docstring_margin(tmp_path, capsys):
    # The first line follows the quotes; read as unindented, its "::" would make
    # the whole docstring a literal block.
    source = tmp_path / "example.py"
    source.write_text(
        "def f():\n"
        '    """Example::\n'
        "\n"
        "        >>> f()\n"
        "\n"
        "    .. include:: cuda_deterministic.rst\n"
        '    """\n'
    )
    run(capsys, "--write", str(source))
    assert source.read_text().splitlines()[5] == "    .. cuda-deterministic::"


def wordings(text: str) -> list[str]:
    return re.findall(r":wording: (\S+)", text)


@pytest.mark.parametrize(
    ("site", "include", "placeholders"),
    [
        ("pytorch-1.4", [], ["pytorch-2"] * 9),  # the default
        ("pytorch-2", ["pytorch-1.4"], []),
        ("ours", ["pytorch-1.4"], ["pytorch-2"] * 9),
    ],
)
def test_a_note_keeps_its_words_where_the_site_has_others(
    tree, capsys, site, include, placeholders
):
    root = tree(LISTS)
    arguments = ["--wording", site] if site != "pytorch-1.4" else []
    run(capsys, "--write", *arguments, str(root))

    assert wordings((root / "docs/source/torch.rst").read_text()) == include
    python = [path.read_text() for path in sorted((root / "torch").rglob("*.py"))]
    assert [w for text in python for w in wordings(text)] == placeholders
    # A directive already there keeps the site's wording.
    assert wordings((root / "docs/source/nn.rst").read_text()) == []
