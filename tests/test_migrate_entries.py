"""reprodocs.migrate.entries: the entries written for the items no note
says (items of torch 2.13.0's lists), their options, and where they go."""

from __future__ import annotations

from pathlib import Path

import pytest

from reprodocs import migrate
from reprodocs.migrate.docstrings import Docstring, ProseNote
from reprodocs.migrate.entries import entry_options, writable
from reprodocs.migrate.model import Listing, Plan
from reprodocs.migrate.settings import Settings

#: torch.nn.functional.interpolate's condition, before its list of modes.
MODES = "attempting to differentiate a CUDA tensor and one of the following modes is used:"


def docstring(prose: ProseNote | None = None, formatted: bool = False) -> Docstring:
    return Docstring(Path("ops.py"), 1, "torch.op", prose, True, formatted)


@pytest.mark.parametrize(
    ("listing", "prose", "expected"),
    [
        (
            Listing("deterministic", "called on a CPU or CUDA tensor"),
            None,
            [
                ("op", "torch.Tensor.index_copy"),
                ("backend", "CPU, CUDA"),
                ("pass", "forward"),
                ("deterministic-algorithms", "deterministic"),
                ("when", "called on a CPU or CUDA tensor"),
            ],
        ),
        (
            # No device, no pass: any backend, both passes.
            Listing("raises", "", "``accumulate=False``"),
            None,
            [
                ("op", "torch.Tensor.index_copy"),
                ("backend", "any"),
                ("pass", "both"),
                ("deterministic-algorithms", "raises"),
                ("with", "``accumulate=False``"),
            ],
        ),
        (
            # The note in prose says what the item does not.
            Listing("raises"),
            ProseNote(Path("ops.py"), 3, "CUDA", True),
            [
                ("op", "torch.Tensor.index_copy"),
                ("backend", "CUDA"),
                ("pass", "backward"),
                ("deterministic-algorithms", "raises"),
            ],
        ),
        (
            Listing("raises", MODES, cases=("``linear``", "``bilinear``")),
            ProseNote(Path("ops.py"), 3, "cuDNN", None),
            [
                ("op", "torch.Tensor.index_copy"),
                ("backend", "CUDA"),  # the item's device first
                ("pass", "backward"),
                ("deterministic-algorithms", "raises"),
                ("when", MODES),
                ("cases", "``linear``, ``bilinear``"),
            ],
        ),
    ],
)
def test_entry_options(listing, prose, expected):
    options = entry_options(listing, docstring(prose), "torch.Tensor.index_copy")
    assert options == expected


def test_an_entry_formatting_nothing_is_writable_in_a_formatted_string():
    plain = entry_options(Listing("raises", "called on a CUDA tensor"), None)
    braces = entry_options(Listing("raises", "called with ``{}``"), None)
    assert writable(docstring(formatted=True), plain)
    assert not writable(docstring(formatted=True), braces)
    assert writable(docstring(), braces)


ENTRY = [("op", "torch.histc"), ("deterministic-algorithms", "raises")]


def with_entries(source: str, line: int, path: str = "ops.py") -> str:
    plan = Plan(entries={line: [ENTRY, ENTRY]})
    return migrate.migrate_source(Path(path), source, Settings(plan=plan)).text


def test_entries_end_a_class_docstring_at_its_margin():
    source = 'class Histc:\n    """Histogram.\n\n    Example::\n\n        >>> histc()\n    """\n'
    assert with_entries(source, 2) == (
        'class Histc:\n    """Histogram.\n\n    Example::\n\n        >>> histc()\n'
        "\n"
        "    .. nondeterministic-entry::\n"
        "       :op: torch.histc\n"
        "       :deterministic-algorithms: raises\n"
        "\n"
        "    .. nondeterministic-entry::\n"
        "       :op: torch.histc\n"
        "       :deterministic-algorithms: raises\n"
        '    """\n'
    )


def test_entries_end_a_string_at_the_margin_and_keep_its_line_endings():
    # add_docstr(torch.histc, r"""...""") as torch/_torch_docs.py writes it.
    source = (
        'add_docstr(\r\n    torch.histc,\r\n    r"""\r\nhistc(input) -> Tensor\r\n""",\r\n)\r\n'
    )
    assert with_entries(source, 3) == (
        'add_docstr(\r\n    torch.histc,\r\n    r"""\r\nhistc(input) -> Tensor\r\n'
        "\r\n.. nondeterministic-entry::\r\n   :op: torch.histc\r\n"
        "   :deterministic-algorithms: raises\r\n"
        "\r\n.. nondeterministic-entry::\r\n   :op: torch.histc\r\n"
        '   :deterministic-algorithms: raises\r\n""",\r\n)\r\n'
    )


def test_entries_after_text_that_ends_on_the_quotes_line():
    source = 'def histc():\n    """Histogram.\n\n    Counts."""\n'
    assert with_entries(source, 2).splitlines()[3:] == [
        "    Counts.",
        "",
        "    .. nondeterministic-entry::",
        "       :op: torch.histc",
        "       :deterministic-algorithms: raises",
        "",
        "    .. nondeterministic-entry::",
        "       :op: torch.histc",
        "       :deterministic-algorithms: raises",
        '    """',
    ]
