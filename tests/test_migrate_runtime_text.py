"""reprodocs.migrate.runtime_text: a list directive's content, what help()
shows, brought in line with the registry by ``migrate --write`` (issue 39):
an edited entry changes its item only; a second run changes nothing."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import migrate_support
from migrate_support import LISTS, run, snapshot
from reprodocs import migrate
from reprodocs.migrate.model import Listing
from reprodocs.migrate.runtime_text import refreshed

tree = migrate_support.tree

CONTENT = [
    "    * :class:`torch.nn.AvgPool3d` when attempting to differentiate a CUDA tensor",
    "    * :func:`torch.nn.functional.interpolate` when attempting to differentiate a CUDA",
    "      tensor and one of the following modes is used:",
    "",
    "      - ``linear``",
    "      - ``bilinear``",
    "",
    "    * :meth:`torch.Tensor.put_` when ``accumulate=False``",
]
EXPECTED = [
    ("torch.nn.AvgPool3d", Listing("raises", "attempting to differentiate a CUDA tensor")),
    (
        "torch.nn.functional.interpolate",
        Listing(
            "raises",
            "attempting to differentiate a CUDA tensor and one of the following modes is used:",
            cases=("``linear``", "``bilinear``"),
        ),
    ),
    ("torch.Tensor.put_", Listing("raises", "``accumulate=False``")),
]


def test_content_in_line_is_left_as_written():
    # Words as written, markup and line breaks aside.
    assert refreshed(CONTENT, EXPECTED) is None
    assert refreshed(CONTENT, list(reversed(EXPECTED))) is None


def test_an_item_that_says_otherwise_is_rewritten_in_its_place_with_its_role():
    expected = [*EXPECTED[:2], ("torch.Tensor.put_", Listing("raises", "called on XPU"))]
    assert refreshed(CONTENT, expected) == [
        *CONTENT[:-1],
        "    * :meth:`torch.Tensor.put_` when called on XPU",
    ]


def test_cases_changed_rewrite_the_nested_list():
    cases = Listing("raises", EXPECTED[1][1].when, cases=("``linear``", "``bicubic``"))
    new = refreshed(CONTENT, [EXPECTED[0], (EXPECTED[1][0], cases), EXPECTED[2]])
    assert new == [
        CONTENT[0],
        (
            "    * :func:`torch.nn.functional.interpolate` when attempting to differentiate a "
            "CUDA tensor and one of the following modes is used:"
        ),
        "",
        "      - ``linear``",
        "      - ``bicubic``",
        "",
        CONTENT[-1],
    ]


def test_an_item_no_entry_says_goes_and_one_the_registry_adds_comes_last():
    added = ("torch.nn.MaxUnpool1d", Listing("raises"))
    assert refreshed(CONTENT, [EXPECTED[0], EXPECTED[2], added]) == [
        CONTENT[0],
        CONTENT[-1],
        "    * :class:`torch.nn.MaxUnpool1d`",
    ]


def test_what_precedes_the_items_stays_and_they_stay_in_the_directive():
    # A sentence before the first item is no item: kept as written, the
    # items after it (it used to be dropped with the first edit).
    expected = [*EXPECTED[:2], ("torch.Tensor.put_", Listing("raises", "called on XPU"))]
    assert refreshed(["    Operations:", "", *CONTENT], expected) == [
        "    Operations:",
        "",
        *CONTENT[:-1],
        "    * :meth:`torch.Tensor.put_` when called on XPU",
    ]
    # Content with no item at all: the items come after it, at its indent,
    # in the directive (they were written at column 0, out of it).
    added = ("torch.nn.MaxUnpool1d", Listing("raises"))
    assert refreshed(["    Every operation of the registry."], [added]) == [
        "    Every operation of the registry.",
        "",
        "    * :class:`torch.nn.MaxUnpool1d`",
    ]


def test_a_paragraph_after_the_items_stays_after_them():
    # At the items' indent, it ends the list: no item's (it was the last
    # item's, and went with it when that item was rewritten).
    after = ["", "    Each raises only under deterministic mode."]
    expected = [*EXPECTED[:2], ("torch.Tensor.put_", Listing("raises", "called on XPU"))]
    assert refreshed([*CONTENT, *after], expected) == [
        *CONTENT[:-1],
        "    * :meth:`torch.Tensor.put_` when called on XPU",
        *after,
    ]
    assert refreshed([*CONTENT, *after], EXPECTED) is None


def test_an_edited_entry_changes_its_item_only(tree, capsys):
    root = tree(LISTS)
    run(capsys, "--write", "--wording", "pytorch-2", str(root))
    docs = root / "torch/_torch_docs.py"
    text = docs.read_text()
    entry = "   :op: torch.histc\n"
    assert entry in text
    at = text.index(entry)
    when = text.index(":when: called on a CUDA tensor", at)
    docs.write_text(text[:when] + ":when: called on an XPU tensor" + text[when + 30 :])
    before = snapshot(root)

    status, out, _ = run(capsys, "--write", "--wording", "pytorch-2", str(root))

    after = snapshot(root)
    assert status == migrate.NOTHING_TO_MIGRATE
    assert out == f"rewrote {root / 'torch/__init__.py'}\n"
    changed = [
        (old, new)
        for old, new in zip(
            before["torch/__init__.py"].decode().splitlines(),
            after["torch/__init__.py"].decode().splitlines(),
            strict=True,
        )
        if old != new
    ]
    assert changed == [
        (
            "        * :func:`torch.histc` when called on a CUDA tensor",
            "        * :func:`torch.histc` when called on an XPU tensor",
        )
    ]
    assert {name for name in after if after[name] != before[name]} == {"torch/__init__.py"}
    # Idempotent.
    assert run(capsys, "--write", "--wording", "pytorch-2", str(root))[:2] == (
        migrate.NOTHING_TO_MIGRATE,
        "",
    )
    assert snapshot(root) == after


def test_nothing_is_brought_in_line_while_a_file_cannot_be_read(tree, capsys):
    root = tree(LISTS)
    run(capsys, "--write", "--wording", "pytorch-2", str(root))
    functional = Path(root, "torch/nn/functional.py")
    functional.write_text(functional.read_text() + "\ndef broken(:\n")
    docs = root / "torch/_torch_docs.py"
    docs.write_text(docs.read_text().replace("   :op: torch.histc\n", "   :op: torch.histogram\n"))
    before = snapshot(root)["torch/__init__.py"]

    status, _, _ = run(capsys, "--write", "--wording", "pytorch-2", str(root))

    assert status == migrate.FILE_ERROR
    assert snapshot(root)["torch/__init__.py"] == before


#: Every docstring of a stand-in torch package, imported with reprodocs
#: out of reach (torch may not import it), as JSON.
DOCSTRINGS = """
import json, sys
sys.modules["reprodocs"] = None  # importing it fails
import torch, torch.nn, torch.nn.functional
found = {}
for module in (torch, torch.nn, torch.nn.functional, torch.Tensor):
    for name in dir(module):
        doc = getattr(getattr(module, name), "__doc__", None)
        if isinstance(doc, str):
            found[f"{module.__name__}.{name}"] = " ".join(doc.split())
print(json.dumps(found))
"""


def docstrings(root: Path) -> dict[str, str]:
    result = subprocess.run(
        [sys.executable, "-c", DOCSTRINGS], cwd=root, capture_output=True, text=True, check=True
    )
    return json.loads(result.stdout)


def test_help_shows_every_sentence_and_item_it_showed(tree, capsys):
    original = tree(LISTS, to="original")
    migrated = tree(LISTS, to="migrated")
    run(capsys, "--write", "--wording", "pytorch-2", str(migrated))
    before, after = docstrings(original), docstrings(migrated)

    sentences = re.compile(r"(?:This operation|In some circumstances)[^.]*\.")
    noted = {name: sentences.findall(doc) for name, doc in before.items() if sentences.search(doc)}
    assert len(noted) >= 5
    for name, said in noted.items():
        assert all(sentence in after[name] for sentence in said), name
    lists = before["torch.use_deterministic_algorithms"]
    items = re.findall(r"\* (.*?)(?= \* | The following| Note that|$)", lists)
    assert len(items) == 15
    assert all(item in after["torch.use_deterministic_algorithms"] for item in items)
