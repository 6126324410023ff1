"""A registry file (``reprodocs_registry_file``): entries read from TOML with
the directive's own converters, each wrong key or value a problem at its
entry's line. The entries are items of torch 2.13.0's lists."""

from __future__ import annotations

import pytest

from reprodocs.notes.registry_file import read_registry_file

GOOD = """\
# The items of torch.use_deterministic_algorithms' lists without a note.

[[entry]]
op = "torch.nn.MaxUnpool1d"
deterministic-algorithms = "raises"
alert = ["max_unpooling2d_forward_out"]

[[entry]]
op = "torch.Tensor.index_copy"
deterministic-algorithms = "Deterministic"
backend = ["cpu", "CUDA"]
when = "called on a CPU or CUDA tensor"

[[entry]]
op = "torch.Tensor.index_put"
deterministic-algorithms = "deterministic"
backend = "any"
with = "``accumulate=False``"
"""


def read(tmp_path, text: str | bytes):
    path = tmp_path / "registry.toml"
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return read_registry_file(path)


def test_entries_with_the_directive_s_values(tmp_path):
    found = read(tmp_path, GOOD)
    assert found.problems == []
    assert [(entry.line, entry.options) for entry in found.entries] == [
        (3, {"op": "torch.nn.MaxUnpool1d", "deterministic-algorithms": "raises",
             "alert": ("max_unpooling2d_forward_out",)}),
        (8, {"op": "torch.Tensor.index_copy", "deterministic-algorithms": "deterministic",
             "backend": "CPU, CUDA", "when": "called on a CPU or CUDA tensor"}),
        (14, {"op": "torch.Tensor.index_put", "deterministic-algorithms": "deterministic",
              "backend": "any", "with": "``accumulate=False``"}),
    ]  # fmt: skip


def test_a_bom_is_read(tmp_path):
    assert read(tmp_path, "\ufeff" + GOOD).problems == []


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ('deterministic-algorithms = "raises"', "an entry must name its operation (op)"),
        ('op = ""', "an entry must name its operation (op)"),
        ('op = "x"\nmode = "raises"', "x is not in the registry: unknown option 'mode' (known: op, label, backend, pass"),
        ('op = "x"\ndeterministic-algorithms = "sometimes"', 'x is not in the registry: deterministic-algorithms: "sometimes" unknown'),
        ('op = "x"\npass = 2', "x is not in the registry: pass must be a string"),
        ('op = "x"\nalert = [1]', "x is not in the registry: alert must be a string, or an array of strings"),
        ('op = "x"\nalert = "a,,b"', "x is not in the registry: alert: a value is empty"),
        ('op = "x"\nwhen = ["a"]', "x is not in the registry: when must be a string"),
    ],
)  # fmt: skip
def test_a_wrong_entry_is_a_problem_at_its_line(tmp_path, entry, problem):
    """An entry with a wrong option is left out, as a directive with one is;
    the problem names its operation (issue 40)."""
    found = read(tmp_path, f'[[entry]]\nop = "first"\n\n[[entry]]\n{entry}\n')
    [(line, message)] = found.problems
    assert line == 4
    assert message.startswith(problem), message
    assert [entry.options for entry in found.entries] == [{"op": "first"}]


def test_each_wrong_option_of_an_entry_is_a_problem(tmp_path):
    found = read(tmp_path, '[[entry]]\nop = "x"\npass = "up"\nmode = "raises"\n')
    assert [message.partition(": ")[::2] for _, message in found.problems] == [
        ("x is not in the registry", 'pass: "up" unknown; choose from "forward", "backward", or "both"'),
        ("x is not in the registry", "unknown option 'mode' (known: op, label, backend, pass, deterministic-algorithms, when, aliases, listed-as, with, cases, alert)"),
    ]  # fmt: skip
    assert found.entries == []


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (b"\xff\xfe[[entry]]", "not UTF-8"),
        ("[[entry]\nop = 'x'\n", "not TOML: "),
        ("entry = 3\n", "'entry' must be an array of tables ([[entry]])"),
        ("entry = [3]\n", "an entry must be a table"),
        ('[[entries]]\nop = "x"\n', "unknown key 'entries' (the entries are [[entry]] tables)"),
    ],
)
def test_a_wrong_file_is_a_problem(tmp_path, text, problem):
    found = read(tmp_path, text)
    assert found.entries == []
    assert next(message for _, message in found.problems).startswith(problem)
    assert all(line >= 1 for line, _ in found.problems)  # located (issue 40)


def test_a_missing_file_is_a_problem(tmp_path):
    found = read_registry_file(tmp_path / "missing.toml")
    assert found.problems == [(0, "cannot read it: No such file or directory")]
