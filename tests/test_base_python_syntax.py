"""reprodocs.base.python_syntax: what Python's parser cannot read is a
SyntaxError or a ValueError, never the interpreter's RecursionError."""

from __future__ import annotations

import ast

import pytest

from reprodocs.base.python_syntax import parse_python


def test_a_source_is_parsed():
    assert isinstance(parse_python("x = 1\n").body[0], ast.Assign)


@pytest.mark.parametrize(
    ("source", "error"),
    # 100,000 terms: too deep for the parser, whose RecursionError is the interpreter's.
    [("def f(:\n", SyntaxError), ("x = " + "+".join(["1"] * 100_000), ValueError)],
)
def test_what_the_parser_cannot_read_is_one_error_of_two(source, error):
    with pytest.raises(error):
        parse_python(source)
