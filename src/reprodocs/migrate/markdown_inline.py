"""A Markdown (MyST, CommonMark) table cell's inline markup as inline
reStructuredText, which is how the registry reads every option's value in
both syntaxes (docs/registry.rst): code spans, emphasis, strong emphasis,
links to URLs, backslash escapes and character references are converted;
the characters reStructuredText reads as markup in plain text are escaped.

What cannot be converted faithfully (raw HTML, images, footnote
references, MyST roles and substitutions, reference-style and relative
links, markup nested in a link or an emphasis) makes
:class:`Unconvertible`: the caller leaves the Markdown as it is. Pure text
to text: CommonMark's emphasis rules are approximated by flanking runs of
one or two delimiters, the forms a catalog's cells hold."""

from __future__ import annotations

import html
import re
from typing import NamedTuple

from reprodocs.base.i18n import __

#: ASCII punctuation, which a backslash escapes in CommonMark.
_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
#: A character reference (``&amp;``, ``&#38;``, ``&#x26;``).
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
#: A link's destination and nothing else: ``(url)``, ``(<url>)``.
_DESTINATION = re.compile(r"\(\s*(?:<([^<>\n]*)>|([^\s()<>]+))\s*\)")
#: An autolink: ``<https://example.org>``.
_AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>`]*)>")
#: A URL the converted link may point to: absolute (relative ones are
#: documents to MyST, and would not be to reStructuredText).
_ABSOLUTE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{1,31}:\S+")
#: What may stand right before inline markup's start in reStructuredText.
_BEFORE = frozenset(" \t-:/'\"<([{")
#: What may stand right after inline markup's end.
_AFTER = frozenset(" \t-.,:;!?\\/'\")]}>")


class Unconvertible(Exception):
    """Markup of a cell that has no faithful reStructuredText form."""


class _Piece(NamedTuple):
    """Converted text: reStructuredText, and whether it is one inline
    markup construct (so it needs room around it)."""

    text: str
    markup: bool = False


def to_rst(markdown: str) -> str:
    """*markdown*, one line of inline Markdown, as inline reStructuredText
    showing the same words with the same markup. :class:`Unconvertible`
    when it holds markup that has none."""
    return _joined(_Converter(markdown).pieces(nested=False))


def plain_text(markdown: str) -> str:
    """The words *markdown* shows, without its markup (a label's)."""
    return " ".join(_Converter(markdown, plain=True).text_only().split())


def _joined(pieces: list[_Piece]) -> str:
    """*pieces* joined, an escaped space (which shows nothing) between a
    construct and a character reStructuredText would not let it touch."""
    out = ""
    for index, piece in enumerate(pieces):
        if piece.markup and out and out[-1] not in _BEFORE:
            out += "\\ "
        out += piece.text
        after = pieces[index + 1].text[:1] if index + 1 < len(pieces) else ""
        if piece.markup and after and after not in _AFTER:
            out += "\\ "
    return out


def escape(text: str) -> str:
    """Plain *text* with what reStructuredText reads as inline markup
    escaped: ``\\``, ``*``, ````` and ``|`` always, ``_`` where it is not
    followed by a letter or digit (``name_`` is a reference)."""
    out = []
    for index, char in enumerate(text):
        following = text[index + 1 : index + 2]
        if char in "\\*`|" or (char == "_" and not following.isalnum()):
            out.append("\\")
        out.append(char)
    return "".join(out)


def literal(code: str) -> str:
    """*code* as a reStructuredText literal: ``\\`\\`code\\`\\``` where it
    can be, else the ``:literal:`` role, whose text takes escapes (code
    holding backticks or ending in a backslash)."""
    if not code.strip() or code != code.strip():
        raise Unconvertible(__("code with spaces at an end: %r") % code)
    if "`" in code or code.endswith("\\"):
        return ":literal:`" + re.sub(r"([`\\])", r"\\\1", code) + "`"
    return f"``{code}``"


class _Converter:
    """One line of inline Markdown, read from its start."""

    def __init__(self, text: str, plain: bool = False) -> None:
        self.text = text
        self.at = 0
        self.plain = plain

    def text_only(self) -> str:
        """The words shown, each construct's content without its markup."""
        return "".join(piece.text for piece in self.pieces(nested=False))

    def pieces(self, nested: bool) -> list[_Piece]:
        """The pieces of the text; *nested*: inside a link or an emphasis,
        where only plain text may be."""
        found: list[_Piece] = []
        plain: list[str] = []

        def flush() -> None:
            if plain:
                words = "".join(plain)
                found.append(_Piece(words if self.plain else escape(words)))
                plain.clear()

        text = self.text
        while self.at < len(text):
            construct = self._construct()
            if construct is None:
                char = text[self.at]
                if char == "\\" and text[self.at + 1 : self.at + 2] in _PUNCTUATION:
                    self.at += 1
                    char = text[self.at]
                plain.append(char)
                self.at += 1
                continue
            if isinstance(construct, str):
                plain.append(construct)
                continue
            if nested and not self.plain:
                raise Unconvertible(__("markup inside a link or an emphasis: %r") % text)
            flush()
            found.append(construct)
        flush()
        return found

    def _construct(self) -> _Piece | str | None:
        """The construct starting here, consumed: converted (a piece), or
        plain text it stands for (a character reference); None if none."""
        text, at = self.text, self.at
        char = text[at]
        if char == "`":
            return self._code()
        if char == "&" and (entity := _ENTITY.match(text, at)):
            decoded = html.unescape(entity[0])
            if decoded != entity[0]:
                self.at = entity.end()
                return decoded
            return None
        if char == "<" and (link := _AUTOLINK.match(text, at)):
            self.at = link.end()
            url = link[1]
            return _Piece(url if self.plain else f"`{escape(url)} <{url}>`__", True)
        if char == "<" and re.match(r"<[A-Za-z/!?]", text[at:]):
            raise Unconvertible(__("raw HTML: %r") % text)
        if text.startswith("![", at):
            raise Unconvertible(__("an image: %r") % text)
        if text.startswith("[^", at):
            raise Unconvertible(__("a footnote reference: %r") % text)
        if text.startswith("{{", at) or re.match(r"\{[\w:.+-]+\}`", text[at:]):
            raise Unconvertible(__("a MyST role or substitution: %r") % text)
        if char == "[":
            return self._link()
        if char in "*_":
            return self._emphasis()
        return None

    def _code(self) -> _Piece | str:
        """A code span (any number of backticks); a run of backticks that
        opens none is plain text."""
        text, at = self.text, self.at
        run = re.match(r"`+", text[at:])
        assert run is not None
        ticks = run[0]
        closing = re.compile(rf"(?<!`){ticks}(?!`)")
        end = closing.search(text, at + len(ticks))
        if end is None:
            self.at = at + len(ticks)
            return ticks
        code = text[at + len(ticks) : end.start()]
        if code.startswith(" ") and code.endswith(" ") and code.strip():
            code = code[1:-1]
        self.at = end.end()
        return _Piece(code if self.plain else literal(code), True)

    def _link(self) -> _Piece | str:
        """An inline link to an absolute URL; brackets that open none are
        plain text."""
        text, at = self.text, self.at
        depth, end = 0, at
        while end < len(text):
            char = text[end]
            if char == "\\":
                end += 2
                continue
            depth += {"[": 1, "]": -1}.get(char, 0)
            if depth == 0:
                break
            end += 1
        destination = _DESTINATION.match(text, end + 1) if end < len(text) else None
        if destination is None:
            if text.startswith("[", end + 1) or text.startswith("(", end + 1):
                raise Unconvertible(__("a link this cannot convert: %r") % text)
            self.at += 1
            return "["
        url = destination[1] if destination[1] is not None else destination[2]
        if not _ABSOLUTE.fullmatch(url) or "`" in url:
            raise Unconvertible(__("a link to a relative address: %r") % text)
        inner = _Converter(text[at + 1 : end], self.plain)
        words = _joined(inner.pieces(nested=True))
        if not words.strip():
            raise Unconvertible(__("a link without words: %r") % text)
        self.at = destination.end()
        if self.plain:
            return _Piece(words, True)
        return _Piece(f"`{words.replace('<', chr(92) + '<')} <{url}>`__", True)

    def _emphasis(self) -> _Piece | str:
        """Emphasis (one ``*`` or ``_``) or strong emphasis (two), whose
        delimiters flank their content; any other run is plain text."""
        text, at = self.text, self.at
        char = text[at]
        run = re.match(rf"\{char}+", text[at:])
        assert run is not None
        size = len(run[0])
        after = text[at + size : at + size + 1]
        before = text[at - 1 : at] if at else ""
        opens = after and not after.isspace() and not (char == "_" and before.isalnum())
        if opens and size > 2 and self._closer(char, size, at + size) is not None:
            raise Unconvertible(__("emphasis and strong emphasis at once: %r") % text)
        close = self._closer(char, size, at + size) if opens and size <= 2 else None
        if close is None:
            self.at += size
            return run[0]
        inner = _Converter(text[at + size : close], self.plain)
        words = _joined(inner.pieces(nested=True))
        self.at = close + size
        if self.plain:
            return _Piece(words, True)
        mark = "*" * size
        return _Piece(f"{mark}{words}{mark}", True)

    def _closer(self, char: str, size: int, start: int) -> int | None:
        """Where the run of *size* delimiters *char* closing one opened
        before *start* is; None if none."""
        text = self.text
        pattern = re.compile(rf"(?<![\\{char}])\{char}{{{size}}}(?!\{char})")
        for found in pattern.finditer(text, start):
            before = text[found.start() - 1]
            after = text[found.end() : found.end() + 1]
            if before.isspace() or found.start() == start:
                continue
            if char == "_" and after.isalnum():
                continue
            return found.start()
        return None
