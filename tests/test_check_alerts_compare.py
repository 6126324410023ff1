"""check-alerts' comparison: how an alert is matched (patterns) and how a
test is tied to an entry (its name as torch's tests spell it)."""

from __future__ import annotations

import pytest

from reprodocs.check_alerts.compare import (
    STALE,
    Finding,
    Ignore,
    Located,
    compare,
    matches,
    tied_entries,
)
from reprodocs.check_alerts.registry import Entry
from reprodocs.check_alerts.scan import AlertCall
from reprodocs.check_alerts.ties import Tie


@pytest.mark.parametrize(
    ("raised", "pattern", "alert", "expected"),
    [
        ("scatter_add_cuda", False, "scatter_add_cuda", True),
        ("scatter_add_cuda", False, "scatter_add", False),
        ("max_unpooling*d_forward_out", True, "max_unpooling3d_forward_out", True),
        ("max_unpooling*d_forward_out", True, "max_unpooling3d_backward_out", False),
        ("median * with indices output", True, "median CUDA with indices output", True),
        # A name's own "*", "." or "[" are no pattern unless an f-string made it.
        ("a*b", False, "axb", False),
        ("a.b[*]", True, "a.b[x]", True),
        ("a.b[*]", True, "axb[x]", False),
    ],
)
def test_a_pattern_matches_an_alert(raised, pattern, alert, expected):
    assert matches(AlertCall(1, raised, pattern), alert) is expected
    assert matches(Tie("test_nondeterministic_alert_x", 1, raised, pattern), alert) is expected


def test_an_unreadable_call_matches_nothing():
    assert not matches(AlertCall(1, None, text="name"), "name")


@pytest.mark.parametrize(
    ("test", "entry", "aliases", "expected"),
    [
        ("AvgPool3d", "torch.nn.AvgPool3d", (), True),
        ("interpolate_bilinear", "torch.nn.functional.interpolate", (), True),
        ("EmbeddingBag_max", "torch.nn.EmbeddingBag", (), True),
        ("put", "torch.Tensor.put_", (), True),
        ("put_accumulate", "torch.Tensor.put_", (), True),
        ("index_add", "torch.Tensor.index_add_", (), True),
        ("AvgPool3d", "torch.nn.AvgPool2d", (), False),
        ("ctc_loss", "torch.nn.CTCLoss", ("torch.nn.functional.ctc_loss",), True),
    ],
)
def test_a_test_is_tied_to_an_entry_by_name(test, entry, aliases, expected):
    tie = Tie(f"test_nondeterministic_alert_{test}", 1, "x")
    entries = [Entry(entry, "raises", "docs", aliases=aliases)]
    assert tied_entries(tie, entries) == (entries if expected else [])


def test_a_test_is_tied_to_the_entry_naming_the_most_of_it():
    scatter, scatter_add = (
        Entry(f"torch.Tensor.{n}", "raises", "d") for n in ("scatter_", "scatter_add_")
    )
    tie = Tie("test_nondeterministic_alert_scatter_add", 1, "scatter_add_cuda")
    assert tied_entries(tie, [scatter, scatter_add]) == [scatter_add]
    assert tied_entries(tie, [scatter]) == [scatter]


def test_the_first_rule_that_covers_a_finding_takes_it():
    entries = [Entry("torch.cumsum", "raises", "torch.html#cumsum", alerts=("cumsum_cuda",))]
    first = Ignore("internal", alert="cumsum_*")
    second = Ignore("also", operation="torch.*")
    result = compare([], [], entries, [first, second])
    assert result.findings == []
    assert [(finding.kind, rule) for finding, rule in result.ignored] == [(STALE, first)]
    assert result.unused == [second]


def test_a_path_rule_covers_source_findings_only():
    """An entry's finding has its docs as path: a path rule is about sources."""
    finding = Finding(STALE, "torch.html#cumsum", None, "m", operation="torch.cumsum")
    assert not Ignore("r", path="torch.html*").covers(finding)
    located = Finding(STALE, "aten/x.cu", 3, "m")
    assert Ignore("r", path="aten/*").covers(located)


def test_located_keeps_the_path():
    assert Located("a.cu", 1).path == "a.cu"
