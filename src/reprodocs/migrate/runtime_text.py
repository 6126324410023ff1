"""A list directive's content -- its items as ``help()`` shows them -- in
line with the registry migrate reads: each entry's listing (what its
options say), from the notes and entries of the files migrated and those
the run plans. The build checks the same (``reprodocs.notes.runtime_text``)
with the same words (``reprodocs.base.runtime_text``).

An item in line is kept, byte for byte; an item whose operation says
otherwise now is rewritten in its place, with the role it had; an item no
entry says is dropped; an item the registry adds comes last. So editing
one entry's condition changes that item only. What precedes the first item
(a sentence, not an item) is kept as written, and the items are written at
the content's indent, in the directive."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from reprodocs.base.runtime_text import item_words, list_items
from reprodocs.base.vocabulary import DETERMINISTIC_ALGORITHMS
from reprodocs.migrate.model import (
    ALGORITHMS_OPTION,
    LISTED_AS_OPTION,
    OP_OPTION,
    FoundNote,
    Listing,
    Options,
    Plan,
)
from reprodocs.migrate.names import names_match

#: Names an item (``* :class:`torch.nn.AvgPool3d` when ...``): its role.
_ROLE = re.compile(r"[*+-]\s+:((?:py:)?\w+):`")
_BULLET = re.compile(r"\s*[*+-](\s|$)")


def listings(
    notes: Iterable[FoundNote], plans: Mapping[Path, Plan]
) -> dict[str, list[tuple[str, Listing]]]:
    """Each list's items (by kind), once each, in the order met: the notes
    and entries already there with the options planned for them, then the
    entries the plans add."""
    said: list[dict[str, str]] = []
    for note in notes:
        planned = plans.get(note.path, Plan()).options.get(note.line, [])
        options = {**note.options, **dict(planned)}
        if note.operations and not options.get(OP_OPTION):
            options[OP_OPTION] = note.operations[0]
        said.append(options)
    for plan in plans.values():
        entries: list[Options] = [o for added in plan.entries.values() for o in added]
        said += [dict(options) for options in [*entries, *plan.item_entries.values()]]
    found: dict[str, list[tuple[str, Listing]]] = {kind: [] for kind in DETERMINISTIC_ALGORITHMS}
    for options in said:
        kind = options.get(ALGORITHMS_OPTION, "").strip().lower()
        name = options.get(LISTED_AS_OPTION, "").strip() or options.get(OP_OPTION, "").strip()
        if kind not in found or not name:
            continue
        item = (name, Listing.of_options(kind, options))
        if item not in found[kind]:
            found[kind].append(item)
    return found


def item_lines(name: str, listing: Listing, indent: str, role: str) -> list[str]:
    """An item of a list, as PyTorch writes one, at *indent*: its cases a
    nested list."""
    text = f"{indent}* :{role}:`{name}`"
    if listing.with_words:
        text += f" with {listing.with_words}"
    if listing.when:
        text += f" when {listing.when}"
    return [
        text,
        *([""] + [f"{indent}  - {case}" for case in listing.cases] if listing.cases else []),
    ]


def role_of(name: str) -> str:
    """PyTorch's role for an operation: a class's name is capitalised."""
    return "class" if name.rpartition(".")[2][:1].isupper() else "func"


def refreshed(content: list[str], expected: list[tuple[str, Listing]]) -> list[str] | None:
    """The content lines of a list directive, its items brought in line
    with *expected*; None where they are."""
    preamble, items, postamble = _split(content)
    written = [list_items(lines)[0] for lines, _ in items]
    # An item may name the operation where a package re-exports it
    # (torch.nn.Conv1d for torch.nn.modules.conv.Conv1d): its name, then.
    names = [said.partition(" ")[0] for said in written]
    expected = [
        (next((n for n in names if names_match(n, name)), name), listing)
        for name, listing in expected
    ]
    wanted = [item_words(name, lst.with_words, lst.when, lst.cases) for name, lst in expected]
    if sorted(written) == sorted(set(wanted)):
        return None
    first = items[0][0][0] if items else next((line for line in content if line.strip()), "")
    indent = first[: len(first) - len(first.lstrip())]
    missing = [i for i, item in enumerate(wanted) if item not in written]
    kept: list[tuple[list[str], list[str]]] = []
    seen: set[str] = set()
    for (lines, blanks), said in zip(items, written, strict=True):
        if said in wanted and said not in seen:
            seen.add(said)
            kept.append((lines, blanks))
            continue
        name = said.partition(" ")[0]
        index = next((i for i in missing if expected[i][0] == name), None)
        if index is None:
            continue  # no entry says it now
        missing.remove(index)
        role = _ROLE.match(lines[0].strip())
        new = item_lines(name, expected[index][1], indent, role[1] if role else role_of(name))
        kept.append((new, blanks))
    for index in missing:
        name = expected[index][0]
        kept.append((item_lines(name, expected[index][1], indent, role_of(name)), []))
    return _joined(preamble, kept, postamble)


def _joined(
    preamble: list[str], kept: list[tuple[list[str], list[str]]], postamble: list[str]
) -> list[str]:
    """The content again: what is not an item, before the items and after
    them, as written (help() shows it), a blank line apart from them."""
    result = [*preamble, *([""] if preamble and preamble[-1].strip() and kept else [])]
    for number, (lines, blanks) in enumerate(kept):
        result += lines
        if number + 1 < len(kept):
            # A nested list ends with a blank line before the next item.
            result += blanks or ([""] if lines[-1].strip().startswith("- ") else [])
    if postamble and result and result[-1].strip():
        result.append("")
    return result + postamble


def _split(content: list[str]) -> tuple[list[str], list[tuple[list[str], list[str]]], list[str]]:
    """A list directive's *content*: the lines before its first item, its
    items (each its lines, and the blank lines after it), and the lines
    from where the list ends (a line at its items' indent that is no item:
    a paragraph after the list), as :func:`reprodocs.base.runtime_text.list_items`
    reads them."""
    first = next(
        (n for n, line in enumerate(content) if line.strip() and _BULLET.match(line)), len(content)
    )
    items: list[tuple[list[str], list[str]]] = []
    depth: int | None = None
    for number in range(first, len(content)):
        line = content[number]
        indent = len(line) - len(line.lstrip())
        if not line.strip():
            items[-1][1].append(line)
        elif _BULLET.match(line) and (depth is None or indent <= depth):
            depth = indent
            items.append(([line], []))
        elif depth is not None and indent <= depth:
            return content[:first], items, content[number:]
        else:
            items[-1][0].extend([*items[-1][1], line])
            items[-1][1].clear()
    return content[:first], items, []
