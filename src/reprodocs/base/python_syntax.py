"""Python's parser, as migrate and check-alerts read source files: one
error for every source it cannot read."""

from __future__ import annotations

import ast

from reprodocs.base.i18n import __


def parse_python(source: str | bytes, filename: str = "<unknown>") -> ast.Module:
    """The syntax tree of *source*. SyntaxError, or ValueError for null
    bytes and for nesting too deep for Python's parser (which raises
    RecursionError there, an error of the interpreter, not of the file)."""
    try:
        return ast.parse(source, filename)
    except RecursionError:
        raise ValueError(__("too deeply nested for Python's parser")) from None
