"""The tests that tie an operation to the alert it raises: torch's
``test_nondeterministic_alert_<operation>`` tests, each calling
``self.check_nondeterministic_alert(fn, "<alert name>", should_alert)``.

Only files holding such a test are parsed (Python's ``ast``: a few test
files, against the bytes pass that reads the sources)."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from reprodocs.base.python_syntax import parse_python

#: The tests' names begin so; the rest names the operation (and a case:
#: ``interpolate_bilinear``, ``EmbeddingBag_max``).
TEST_PREFIX = "test_nondeterministic_alert_"
#: The assertion the tests call, and where it takes the alert's name.
CHECK = "check_nondeterministic_alert"
CHECK_NAME_POSITION, CHECK_NAME_KEYWORD = 1, "caller_name"


@dataclass(frozen=True)
class Tie:
    """A test's operation, as its name gives it, and an alert it expects
    (a pattern for an f-string, ``*`` for each placeholder); None where
    the alert's name cannot be read."""

    test: str
    line: int
    alert: str | None
    pattern: bool = False
    text: str = ""  #: the argument as written, where the name cannot be read

    @property
    def operation(self) -> str:
        return self.test.removeprefix(TEST_PREFIX)


def file_ties(data: bytes, filename: str) -> list[Tie]:
    """The ties of a test file's bytes; [] for a file without such tests.
    A file that is not Python raises SyntaxError, or ValueError (null
    bytes, nesting too deep for Python's parser)."""
    if TEST_PREFIX.encode() not in data:
        return []
    ties = []
    for node in ast.walk(parse_python(data, filename)):
        if isinstance(node, ast.FunctionDef) and node.name.startswith(TEST_PREFIX):
            ties += [tie(node.name, call) for call in checks(node)]
    return sorted(ties, key=lambda tie: tie.line)


def checks(test: ast.FunctionDef) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(test)
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Attribute) and node.func.attr == CHECK)
            or (isinstance(node.func, ast.Name) and node.func.id == CHECK)
        )
    ]


def tie(test: str, call: ast.Call) -> Tie:
    """The tie a check call makes: the alert its name argument gives."""
    argument = next((k.value for k in call.keywords if k.arg == CHECK_NAME_KEYWORD), None)
    if argument is None and len(call.args) > CHECK_NAME_POSITION:
        argument = call.args[CHECK_NAME_POSITION]
    parts = name_parts(argument) if argument is not None else None
    if not parts or all(part is None for part in parts):
        text = ast.unparse(argument) if argument is not None else ""
        return Tie(test, call.lineno, None, text=text)
    name = "".join("*" if part is None else part for part in parts)
    return Tie(test, call.lineno, name, pattern=None in parts)


def name_parts(node: ast.expr) -> list[str | None] | None:
    """The parts of a name built of literals: each literal's text, None for
    each expression among them (an f-string's placeholder, a ``+``'s operand:
    ``"avg_pool3d_backward_" + torch.device(device).type``); None if it is
    built otherwise."""
    if isinstance(node, ast.Constant):
        return [node.value] if isinstance(node.value, str) else None
    if isinstance(node, ast.JoinedStr):
        return [str(part.value) if isinstance(part, ast.Constant) else None for part in node.values]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = name_parts(node.left), name_parts(node.right)
        if left is None and right is None:
            return None
        return [*(left or [None]), *(right or [None])]
    return None
