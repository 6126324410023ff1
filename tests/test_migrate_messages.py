"""reprodocs.migrate.messages: migrate's diff, one small hunk per change even
in a large file of repeated lines, and a patch that makes the new text."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest

from reprodocs import migrate
from reprodocs.migrate.sources import migrate_source

FILLER = "This paragraph says the same thing as the others do, and says it at length.\n"
INCLUDE = ".. include:: cuda_deterministic.rst\n"
HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
#: A line as migrate reads it (a form feed ends none).
LINE = re.compile(r"[^\n\r]*(?:\r\n?|\n)|[^\n\r]+")


def patched(old: str, diff: str) -> str:
    """*old* with the unified *diff* applied, as patch(1) applies it."""
    lines = LINE.findall(old)
    new: list[str] = []
    taken = 0  # lines of *old* copied or replaced so far
    body = LINE.findall(diff)[2:]
    previous = ""
    for line in body:
        if hunk := HUNK.match(line):
            start, length = int(hunk[1]), int(hunk[2] or 1)
            first = start - 1 if length else start
            new += lines[taken:first]
            taken = first
        elif line.startswith("\\"):  # no line ending: the line before's, if new
            if previous in " +":
                new[-1] = new[-1].rstrip("\n")
        elif line[0] in " -":
            assert lines[taken] == line[1:] or lines[taken] == line[1:].rstrip("\n")
            taken += 1
            if line[0] == " ":
                new.append(lines[taken - 1])
        else:
            new.append(line[1:])
        previous = line[0]
    return "".join(new + lines[taken:])


def hunks(diff: str) -> list[tuple[int, int]]:
    """Each hunk's lines removed and added."""
    found = []
    for chunk in re.split(r"^@@.*\n", diff, flags=re.MULTILINE)[1:]:
        rows = chunk.splitlines()
        found.append((sum(r[:1] == "-" for r in rows), sum(r[:1] == "+" for r in rows)))
    return found


@pytest.mark.parametrize("suffix", [".rst", ".py"])
def test_a_large_file_of_repeated_lines_gets_one_small_hunk_per_change(suffix):
    # Over 200 lines, with lines repeated: difflib's junk heuristic made
    # the whole file one hunk. (docs/performance.rst: the 24 MB case.)
    block = (FILLER + "\n") * 20 + INCLUDE + "\n"
    if suffix == ".py":
        block = (
            'def f():\n    """Sum.\n\n    Note:\n        {cudnn_reproducibility_note}\n    """\n'
        )
        block += "    x = 1\n" * 30 + "\n\n"
    old = ("Page\n====\n\n" if suffix == ".rst" else '"""Page."""\n\n') + block * 100
    new = migrate_source(Path("page" + suffix), old)

    diff = migrate.unified_diff(Path("page"), old, new.text, new.moved)

    assert len(old.splitlines()) > 3_000
    # A .py note: its two lines, for the directive, :wording: and :runtime-text:.
    changes = [(1, 1)] if suffix == ".rst" else [(2, 3)]
    assert hunks(diff) == changes * 100
    assert patched(old, diff) == new.text


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("a\nb\nc\n", "a\nB\nc\n"),
        ("a\nb\nc", "a\nb\nC"),  # no line ending at the end
        ("a\nb\n", "x\na\nb\n"),  # added before the first line
        ("a\r\nb\fc\r\n", "a\r\nb\fC\r\n"),  # a form feed ends no line
    ],
)
def test_the_diff_is_difflib_s_where_difflib_s_is_small(old, new):
    expected = difflib.unified_diff(
        old.replace("\f", "\0").splitlines(keepends=True),
        new.replace("\f", "\0").splitlines(keepends=True),
        "x.rst",
        "x.rst",
    )
    assert migrate.unified_diff(Path("x.rst"), old, new).replace("\f", "\0") == "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
        for line in expected
    )
    assert patched(old, migrate.unified_diff(Path("x.rst"), old, new)) == new
