"""The alerts a source file raises: the calls of ATen's
``alertNotDeterministic("<name>")`` (C++, CUDA) and torch's
``alert_not_deterministic("<name>")`` (Python), or of the functions a
project configures (:mod:`~reprodocs.check_alerts.patterns`), read with one pass of a
regular expression over the text, not a parser per file.

A name is a string literal, several adjacent ones (joined, as the compiler
joins them), or an f-string: its placeholders make it a pattern
(``max_unpooling{dim}d_forward_out`` reads as ``max_unpooling*d_forward_out``).
A call whose name is none of those (a variable, a macro) is kept with its
text, so that it is reported, never dropped. Comments and string literals
are skipped, so is a function's definition or declaration."""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from reprodocs.check_alerts.patterns import ALERT_FUNCTIONS

if TYPE_CHECKING:
    from collections.abc import Iterator

#: The suffixes of the files read as Python; any other is read as C, C++ or CUDA.
PYTHON_SUFFIXES = (".py", ".pyi")

#: C, C++ and CUDA: comments, string and character literals (raw strings too).
_C_SKIPPED = (
    r"(?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))"
    r'|(?P<string>\bu8?R"(?P<delimiter>[^()\\\s]{0,16})\(.*?\)(?P=delimiter)"'
    r'|\bR"(?P<raw_delimiter>[^()\\\s]{0,16})\(.*?\)(?P=raw_delimiter)"'
    r"|(?:u8|[uUL])?\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*')"
)

#: Python: comments, string literals (with their prefixes).
_PYTHON_SKIPPED = (
    r"(?P<comment>#[^\n]*)"
    r"|(?P<string>(?i:[rbuf]{0,2})"
    r"(?:\"\"\"(?:\\.|.)*?\"\"\"|'''(?:\\.|.)*?'''|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'))"
)


@functools.lru_cache
def tokens(functions: tuple[str, ...], python: bool) -> re.Pattern[str]:
    """The comments, string literals and calls of *functions* (one at
    least) in Python's text, or in C, C++ and CUDA's."""
    call = rf"(?P<call>\b(?:{'|'.join(map(re.escape, functions))})\s*\()"
    return re.compile(f"{_PYTHON_SKIPPED if python else _C_SKIPPED}|{call}", re.DOTALL)


#: What separates adjacent literals: space, line ends (continued in Python), comments.
_C_GAP = re.compile(r"(?:\s|//[^\n]*|/\*.*?\*/)*", re.DOTALL)
_PYTHON_GAP = re.compile(r"(?:\s|\\\n|#[^\n]*)*")

#: Where a call's name ends a definition's or declaration's head: a word
#: before it (``def``, ``void``), its qualifiers (``Context::``) aside.
#: The word is on the same line: a statement's call may follow any word on
#: the line before.
_QUALIFIERS = re.compile(r"(?:\w+[ \t]*::[ \t]*)*$")
_WORD_BEFORE = re.compile(r"(\w+)[ \t]*$")
#: Words after which the name is still called.
_CALLING_WORDS = frozenset({"return", "else", "do", "await", "yield", "co_return", "and", "or"})

_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{[^{}]*\}")


@dataclass(frozen=True)
class AlertCall:
    """A call raising an alert: its line, and the name it gives (or the
    pattern an f-string gives, ``*`` for each placeholder); for a name that
    cannot be read, ``alert`` is None and ``text`` is the argument as written."""

    line: int
    alert: str | None
    pattern: bool = False
    text: str = ""


def alert_calls(
    text: str, python: bool, functions: tuple[str, ...] = ALERT_FUNCTIONS
) -> Iterator[AlertCall]:
    """The calls of *functions* (PyTorch's by default) in a file's *text*
    (Python's, or C, C++ and CUDA's)."""
    if not functions:
        return
    pattern, gap = tokens(functions, python), _PYTHON_GAP if python else _C_GAP
    for match in pattern.finditer(text):
        if match["call"] is None or _is_definition(text, match.start()):
            continue
        line = text.count("\n", 0, match.start()) + 1
        yield _read_name(text, match.end(), line, pattern, gap, python)


def file_alert_calls(
    data: bytes, suffix: str, functions: tuple[str, ...] = ALERT_FUNCTIONS
) -> list[AlertCall]:
    """The calls of *functions* in a file's bytes; [] at once for a file
    naming none of them. Undecodable bytes are replaced: a name is ASCII."""
    if not any(function.encode() in data for function in functions):
        return []
    text = data.decode("utf-8", errors="replace")
    return list(alert_calls(text, suffix in PYTHON_SUFFIXES, functions))


def _is_definition(text: str, start: int) -> bool:
    before = text[max(0, start - 200) : start]
    before = before[: len(before) - len(_QUALIFIERS.search(before)[0])]  # type: ignore[index]
    word = _WORD_BEFORE.search(before)
    return word is not None and word[1] not in _CALLING_WORDS


def _read_name(
    text: str, start: int, line: int, tokens: re.Pattern[str], gap: re.Pattern[str], python: bool
) -> AlertCall:
    """The name given by the call whose argument list starts at *start*."""
    parts: list[str] = []
    pattern = False
    position = gap.match(text, start).end()  # type: ignore[union-attr]
    while (literal := tokens.match(text, position)) and literal["string"]:
        value, placeholders = _literal_value(literal["string"], python)
        if value is None:
            break
        parts.append(value)
        pattern = pattern or placeholders
        position = gap.match(text, literal.end()).end()  # type: ignore[union-attr]
    if parts and text.startswith((")", ","), position):
        return AlertCall(line, "".join(parts), pattern)
    end = _argument_end(text, start)
    return AlertCall(line, None, text=" ".join(text[start:end].split()))


def _literal_value(literal: str, python: bool) -> tuple[str | None, bool]:
    """A string literal's value, and whether it has placeholders (an f-string's)."""
    if not python:
        body = literal[literal.index('"') + 1 : -1] if literal.endswith('"') else None
        if body is None or literal.lstrip("u8UL").startswith("R"):
            return (literal[literal.index("(") + 1 : literal.rindex(")")], False)
        return body.replace('\\"', '"').replace("\\\\", "\\"), False
    prefix = literal[: len(literal) - len(literal.lstrip("rRbBuUfF"))].lower()
    if "b" in prefix:
        return None, False  # bytes are no name
    if "f" not in prefix:
        return ast.literal_eval(literal), False
    body = ast.literal_eval(literal.replace("f", "", 1).replace("F", "", 1))
    placeholders = False

    def replace(match: re.Match[str]) -> str:
        nonlocal placeholders
        if match[0] in ("{{", "}}"):
            return match[0][0]
        placeholders = True
        return "*"

    return _PLACEHOLDER.sub(replace, body), placeholders


def _argument_end(text: str, start: int) -> int:
    """Where the argument list starting at *start* closes (or the line ends)."""
    depth = 0
    for index in range(start, min(len(text), start + 500)):
        character = text[index]
        if character in "([{":
            depth += 1
        elif character in ")]}":
            if depth == 0:
                return index
            depth -= 1
        elif character == "," and depth == 0:
            return index
    newline = text.find("\n", start)
    return newline if newline != -1 else len(text)
