"""The two lists hand-kept in ``torch.use_deterministic_algorithms``'
docstring: the operations that "will act deterministically" and those that
"will throw a RuntimeError" when ``mode=True``. Each is read, item by item
(its operation, and the words after "with" and "when" and of a nested
list), and replaced as the lists' plan says: by a list directive
generating it from the registry, followed by the items still kept by hand
(those whose words no entry can say) and the entries standing in the
place of items whose operation has no docstring to hold them
(:mod:`reprodocs.migrate.matching` decides)."""

from __future__ import annotations

import re

from reprodocs.base.i18n import __
from reprodocs.base.vocabulary import DETERMINISTIC, LIST_DIRECTIVE, RAISES
from reprodocs.migrate.entries import entry_lines
from reprodocs.migrate.model import (
    ALGORITHMS_OPTION,
    FORMAT_OPTION,
    LIST_FORMAT,
    HandKeptList,
    ListItem,
    collapse,
)
from reprodocs.migrate.text import EXPLICIT_MARKUP, Lines, Rewriting

_BULLET = re.compile(r"([*+-])(?:\s+(.*))?$")
#: An item of the lists: ``:class:`torch.nn.AvgPool3d` when ...``.
_ITEM = re.compile(r":(?:py:)?(\w+):`([^`]+)`(.*)$", re.DOTALL)
_DETERMINISTIC_INTRO = re.compile(r"\bact\s+deterministically\b.*:$", re.DOTALL)
_RAISES_INTRO = re.compile(
    r"\bthrow\s+an?\s+(?::[\w:]+:)?`*~?(?:builtins\.)?RuntimeError\b.*:$", re.DOTALL
)
#: An item's condition: "when ...", or "with ..." and maybe "when ..." after.
_WHEN = re.compile(r"when\s+(.*)$", re.DOTALL)
_WITH = re.compile(r"with\s+(.*?)(?:\s+when\s+(.*))?$", re.DOTALL)
_DETERMINISTIC_WORDS = re.compile(r"act\s+deterministically")
_RAISES_WORDS = re.compile(r"throw\s+an?\s+\S*RuntimeError")


def marked(text: str) -> bool:
    """*text* may hold one of the lists (or is not worth reading for them)."""
    return ("deterministically" in text and bool(_DETERMINISTIC_WORDS.search(text))) or (
        "RuntimeError" in text and bool(_RAISES_WORDS.search(text))
    )


def hand_kept_list(rewriting: Rewriting, i: int) -> int | None:
    """One of the hand-kept lists, starting on line *i*: read, and replaced
    as the plan says (by the list directive and the items it keeps), or
    kept; the next line to read. None where line *i* starts no such list."""
    lines, out = rewriting.lines, rewriting.out
    found = _list_kind(rewriting, i)
    if found is None:
        return None
    kind, begins, remainder = found
    rewriting.list_directive = None
    spans = _bullet_items(lines, i)
    place = rewriting.list_place
    rewriting.list_place = place._replace(last=spans[-1][1]) if remainder and place else None
    items = [_list_item(lines, start, end) for start, end in spans]
    list_line = rewriting.line_number(begins)
    rewriting.found.lists.append(HandKeptList(list_line, kind, items, remainder))
    end = spans[-1][1]
    kept = rewriting.plan.kept.get(list_line)
    if kept is None:  # no plan: as it is
        out.keep(i, end)
        return end + 1
    said = [s for s in spans if rewriting.line_number(s[0]) not in kept]
    if not (said or remainder):  # no entry says any: the list stays as written
        out.keep(i, end)
        return end + 1
    indent = lines.leading(i)
    new: list[str] = []
    if not remainder:
        # The directive, its content the items it generates as help() shows
        # them (its runtime text), as written: at the introduction's indent
        # when the items are indented below it (so their lines are kept);
        # else at theirs, the items indented under it.
        if lines.indents[i] > lines.indents[begins]:
            indent = lines.leading(begins)
        new = _directive(indent, kind)
        new += _item_lines(rewriting, said, new, _under(lines, i, indent))
    kept_spans = [s for s in spans if rewriting.line_number(s[0]) in kept]
    new += _item_lines(rewriting, kept_spans, new, indent)
    for start, _ in spans:  # the items whose entries take their place
        options = rewriting.plan.item_entries.get(rewriting.line_number(start))
        if options is not None:
            new += [""] * bool(new) + entry_lines(indent, options)
    if new:
        out.emit(new, end)
    else:  # a remainder whose items all have notes now: gone
        out.drop_blank_lines_at_end()
    return end + 1


def _directive(indent: str, kind: str) -> list[str]:
    """The list directive generating the list *kind* from the notes."""
    return [
        f"{indent}.. {LIST_DIRECTIVE}::",
        f"{indent}   :{FORMAT_OPTION}: {LIST_FORMAT}",
        f"{indent}   :{ALGORITHMS_OPTION}: {kind}",
    ]


def _under(lines: Lines, i: int, indent: str) -> str:
    """The indentation of items starting on line *i* under a directive at
    *indent*: their own where it is deeper, else three spaces more."""
    return lines.leading(i) if lines.indents[i] > len(indent) else indent + "   "


def _item_lines(
    rewriting: Rewriting, spans: list[tuple[int, int]], before: list[str], indent: str
) -> list[str]:
    """The lines of the items (by their first and last lines), as written
    but indented at *indent*, after *before* (the directive, if any) and a
    blank line."""
    lines, new = rewriting.lines, []
    for number, (start, stop) in enumerate(spans):
        if before and number == 0:
            new.append("")
        offset = len(before) + len(new)
        shift = len(indent) - lines.indents[start]
        for j in range(start, stop + 1):
            rewriting.out.move(j, offset + j - start)
            line = lines.contents[j]
            if shift and line.strip():
                line = " " * (lines.indents[j] + shift) + line.lstrip()
            new.append(line)
        if number + 1 < len(spans):  # the blank lines that followed it
            new += [""] * (lines.next_non_blank(stop + 1) - stop - 1)
    return new


def _list_kind(rewriting: Rewriting, i: int) -> tuple[str, int, bool] | None:
    """The list a bullet list starting on line *i* is, where it begins
    (its introduction, or the list directive it is the remainder of), and
    whether it is a remainder; None for any other list."""
    lines = rewriting.lines
    if not _BULLET.match(lines.stripped(i)) or not lines.blank(i - 1):
        return None
    end = lines.previous_non_blank(i - 1)
    seen = rewriting.list_directive
    if seen and (seen.last, seen.indent) == (end, lines.indents[i]):
        return seen.kind, seen.first, True
    if end < 0 or lines.indents[end] > lines.indents[i]:
        return None
    start = end
    while not lines.blank(start - 1) and lines.indents[start - 1] == lines.indents[end]:
        start -= 1
    if EXPLICIT_MARKUP.match(lines.stripped(start)):
        return None
    intro = collapse(" ".join(lines.contents[start : end + 1]))
    if _DETERMINISTIC_INTRO.search(intro):
        return DETERMINISTIC, start, False
    if _RAISES_INTRO.search(intro):
        return RAISES, start, False
    return None


def _bullet_items(lines: Lines, i: int) -> list[tuple[int, int]]:
    """The items of the bullet list starting on line *i*: each one's first
    and last non-blank lines."""
    indent, bullet = lines.indents[i], lines.stripped(i)[0]
    items = []
    start = i
    while True:
        end = start
        j = start + 1
        while j < len(lines) and (lines.blank(j) or lines.indents[j] > indent):
            if not lines.blank(j):
                end = j
            j += 1
        items.append((start, end))
        start = lines.next_non_blank(end + 1)
        if not (
            start < len(lines)
            and lines.indents[start] == indent
            and lines.stripped(start).startswith(bullet)
            and _BULLET.match(lines.stripped(start))
        ):
            return items


def _list_item(lines: Lines, start: int, end: int) -> ListItem:
    """The item on lines *start* to *end*: its operation and condition."""
    first = _BULLET.match(lines.stripped(start))
    paragraph = [first[2] if first and first[2] else ""]
    j = start + 1
    while j <= end and not lines.blank(j) and not _BULLET.match(lines.stripped(j)):
        paragraph.append(lines[j].strip())
        j += 1
    text = collapse(" ".join(paragraph))
    nested = [lines[k].strip() for k in range(j, end + 1) if not lines.blank(k)]
    item = ListItem(lines.first_line + start, collapse(" ".join([text, *nested])))
    match = _ITEM.match(text)
    target = match[2].split("<")[-1].rstrip(">").lstrip("~!").removesuffix("()") if match else ""
    if not match or not re.fullmatch(r"[\w.]+", target):
        item.condition, item.problem = None, str(__("it names no operation"))
        return item
    item.operation = target
    rest = match[3].strip()
    words = [_BULLET.match(line) for line in nested]
    if nested and (not rest.endswith(":") or not all(word and word[2] for word in words)):
        item.condition = None
        item.problem = str(__("its condition is more than a line of text and a list of words"))
        return item
    # A list of words inside the condition ("one of the following modes is
    # used:" and the modes) is its cases.
    item.cases = tuple(collapse(word[2]) for word in words if word and word[2])
    said = _with_and_when(rest)
    if said is None:
        item.condition = None
        item.problem = str(__("its condition begins with neither “when” nor “with”"))
        return item
    item.with_words, item.condition = said
    return item


def _with_and_when(rest: str) -> tuple[str, str] | None:
    """The words after "with" and after "when" of an item's condition
    *rest* ("with ``accumulate=True`` when called on a CPU tensor"); None
    when it begins with neither."""
    if not rest:
        return "", ""
    if when := _WHEN.match(rest):
        return "", collapse(when[1])
    if with_words := _WITH.match(rest):
        return collapse(with_words[1]), collapse(with_words[2] or "")
    return None
