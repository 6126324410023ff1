"""The registry as check-alerts reads it (``reprodocs.check_alerts.registry``):
an entry named by a label is no operation's."""

from __future__ import annotations

from pathlib import Path

import pytest

from reprodocs.check_alerts.compare import stale
from reprodocs.check_alerts.registry import RegistryError, entry

LABELLED = {
    "name": None,
    "label": "MoE token unpermute (combine)",
    "directive": "nondeterministic-entry",
    "uri": "moe.html#nondeterministic-entry-moe-token-unpermute-combine",
    "alerts": ["unpermute"],
    "deterministic_algorithms": "raises",
}


def test_a_labelled_entry_has_no_name_and_is_called_by_its_label():
    read = entry(Path("nondeterministic.json"), 0, LABELLED)
    assert (read.name, read.label, read.title) == ("", LABELLED["label"], LABELLED["label"])
    assert read.docs == LABELLED["uri"]
    named = entry(Path("nondeterministic.json"), 1, {"name": "torch.one"})
    assert (named.label, named.title) == ("", "torch.one")


def test_a_label_that_is_not_a_string_is_a_registry_error():
    with pytest.raises(RegistryError, match=r"operations\[0\]: not an operation"):
        entry(Path("nondeterministic.json"), 0, {**LABELLED, "label": 3})


def test_a_finding_about_a_labelled_entry_names_its_label():
    [finding] = stale([], [entry(Path("nondeterministic.json"), 0, LABELLED)])
    assert finding.message.startswith(f"{LABELLED['label']} is documented to throw")


def test_the_places_are_read_from_the_project_s_fields():
    """The keys reprodocs' schema does not have are the project's fields
    (no conf.py is read): their values' paths are the entry's places."""
    declared = {
        **LABELLED,
        "where": "``megatron/core/inference/engines/dynamic_engine.py``, ``megatron/rl/rl_utils.py``",
        "status": None,
        "owners": ["``megatron/core/ssm/`` team"],
        # reprodocs' own keys are no project's field, whatever their value.
        "docname": "megatron/core/not_a_place.py",
    }
    read = entry(Path("nondeterministic.json"), 0, declared)
    assert read.places == (
        "megatron/core/inference/engines/dynamic_engine.py",
        "megatron/rl/rl_utils.py",
        "megatron/core/ssm/",
    )
    assert entry(Path("nondeterministic.json"), 0, LABELLED).places == ()


def test_a_field_that_is_not_text_is_a_registry_error():
    with pytest.raises(
        RegistryError, match=r"operations\[2\]: its field 'where' must be a string or an array"
    ):
        entry(Path("nondeterministic.json"), 2, {**LABELLED, "where": {"file": "a.py"}})
