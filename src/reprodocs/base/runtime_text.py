"""The runtime text: what ``help()`` shows of a note or a list that the
build generates from the registry. A docstring is read at run time more
than on the web, so a directive standing where PyTorch's sentences were
carries them (a note its ``:runtime-text:``, a list its items as content),
and the build checks that they say what the registry says. Text is
compared by its words, markup aside (``:func:`torch.bmm``` reads as
``torch.bmm``, and so does MyST's ``{func}`torch.bmm```). Plain text to
text: the notes' check and migrate share it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

#: A role or interpreted text: ``:role:`text```, ``:role:`title <target>```, ```text```;
#: MyST's role, ``{role}`text```.
_INTERPRETED = re.compile(r"(?::[\w:.+-]+:|\{[\w:.+-]+\})?`([^`]+)`_?_?")
_LITERAL = re.compile(r"``(.+?)``")
_STRONG = re.compile(r"\*\*(\S(?:.*?\S)?)\*\*")
_EMPHASIS = re.compile(r"(?<![\w*])\*(\S(?:.*?\S)?)\*(?![\w*])")
_TITLED = re.compile(r"^(.*\S)\s*<[^<>]+>$", re.DOTALL)
_BULLET = re.compile(r"([*+-])\s+(.*)$")


def words(text: str) -> str:
    """*text*'s words, its inline reStructuredText markup aside, each run of
    whitespace one space."""
    text = _LITERAL.sub(lambda match: match[1], text)

    def interpreted(match: re.Match[str]) -> str:
        inner = match[1]
        titled = _TITLED.match(inner)
        return (titled[1] if titled else inner).lstrip("~!")

    text = _INTERPRETED.sub(interpreted, text)
    text = _STRONG.sub(lambda match: match[1], text)
    text = _EMPHASIS.sub(lambda match: match[1], text)
    text = re.sub(r"\\(.)", r"\1", text)
    return " ".join(text.split())


def item_words(name: str, with_words: str, when: str, cases: Iterable[str]) -> str:
    """The words of a list's item as the build generates it: the name shown,
    "with …", "when …", then the cases of its nested list."""
    parts = [name]
    if with_words:
        parts += ["with", with_words]
    if when:
        parts += ["when", when]
    parts += cases
    return words(" ".join(parts))


def list_items(lines: Iterable[str]) -> list[str]:
    """The words of each item of the bullet list *lines* hold (a list
    directive's content): its own text, then that of the list nested in it.
    Lines before the first bullet belong to no item and are passed over,
    and so are those from where the list ends: a line at its items' indent
    that is no item (a paragraph after the list)."""
    items: list[list[str]] = []
    indent: int | None = None
    for line in lines:
        stripped = line.strip()
        if not stripped:
            continue
        depth = len(line) - len(line.lstrip())
        bullet = _BULLET.match(stripped)
        if bullet and (indent is None or depth <= indent):
            indent = depth
            items.append([bullet[2]])
        elif indent is not None and depth <= indent:
            break
        elif items:
            items[-1].append(bullet[2] if bullet else stripped)
    return [words(" ".join(item)) for item in items]
