"""check-alerts' patterns as a project configures them: PyTorch's alert
functions by default, a library's switches (Megatron-LM's), and a message
naming the file and key for each wrong value."""

from __future__ import annotations

import pytest

from reprodocs.check_alerts.patterns import (
    ALERT_FUNCTIONS,
    ConfigError,
    Patterns,
    Switch,
    patterns,
    switch,
)

WHERE = "pyproject.toml [tool.reprodocs.check-alerts]"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "torch.are_deterministic_algorithms_enabled()",
            Switch(
                "torch.are_deterministic_algorithms_enabled()",
                ("torch", "are_deterministic_algorithms_enabled"),
                True,
            ),
        ),
        (
            "config.deterministic_mode",
            Switch("config.deterministic_mode", ("config", "deterministic_mode"), False),
        ),
        (" deterministic_mode ", Switch("deterministic_mode", ("deterministic_mode",), False)),
        ("torch.use_deterministic_algorithms(True)", None),  # an argument
        ("f(x=1)", None),
        ("config['deterministic_mode']", None),
        ("a.b()()", None),
        ("a or b", None),
        ("if x:", None),
        ("", None),
        # Too deep for Python's parser (RecursionError: a traceback before).
        ("a." * 20000 + "b", None),
    ],
    ids=lambda value: value[:40] if isinstance(value, str) else None,
)
def test_a_switch_is_a_dotted_name_or_its_call(text, expected):
    assert switch(text) == expected


def test_without_a_table_the_patterns_are_pytorch_s():
    assert patterns(None, WHERE) == Patterns(ALERT_FUNCTIONS, ())
    assert patterns({}, WHERE) == Patterns(ALERT_FUNCTIONS, ())
    assert patterns({"ignore": []}, WHERE).alert_functions == ALERT_FUNCTIONS


def test_megatron_s_switches_and_no_alert_function():
    table = {
        "alert-functions": [],
        "switches": [
            "torch.are_deterministic_algorithms_enabled()",
            "config.deterministic_mode",
            "config.deterministic_mode",  # a repeat is read once
        ],
    }
    read = patterns(table, WHERE)
    assert read.alert_functions == ()
    assert [s.text for s in read.switches] == [
        "torch.are_deterministic_algorithms_enabled()",
        "config.deterministic_mode",
    ]


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (3, f"{WHERE}: must be a table"),
        (
            {"switch": ["a"]},
            f"{WHERE}: unknown keys: switch (known: alert-functions, switches, ignore)",
        ),
        ({"switches": "config.deterministic_mode"}, f"{WHERE}.switches: must be a list of strings"),
        ({"switches": [1]}, f"{WHERE}.switches: must be a list of strings"),
        (
            {"switches": ["ok", "f(1)"]},
            f"{WHERE}.switches[1]: 'f(1)' is neither a dotted name nor its call without arguments",
        ),
        ({"alert-functions": "alertNotDeterministic"}, f"{WHERE}.alert-functions: must be a list"),
        (
            {"alert-functions": ["at::alert"]},
            f"{WHERE}.alert-functions[0]: 'at::alert' is not a function's name",
        ),
    ],
)
def test_a_wrong_value_is_named_by_file_and_key(table, message):
    with pytest.raises(ConfigError) as raised:
        patterns(table, WHERE)
    assert str(raised.value).startswith(message)
