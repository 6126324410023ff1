"""reprodocs.migrate.devices_and_passes: the devices and the pass the words of
torch 2.13.0's list items name."""

from __future__ import annotations

import pytest

from reprodocs.migrate.devices_and_passes import devices_named, pass_named


@pytest.mark.parametrize(
    ("condition", "devices"),
    [
        ("called on a CPU or CUDA tensor", ["CPU", "CUDA"]),
        ("called on sparse-dense CUDA tensors", ["CUDA"]),
        ("``accumulate=False``", []),
        ("called with a quantized tensor", []),
        ("attempting to differentiate a cuda tensor", ["CUDA"]),  # any case
        ("CUDA graphs capture on a CUDA tensor", ["CUDA"]),  # each once
        ("dispatched to a CUDAGraph", []),  # a word, not a part of one
    ],
)
def test_devices_named(condition, devices):
    assert devices_named(condition) == devices


@pytest.mark.parametrize(
    ("condition", "affected_pass"),
    [
        ("attempting to differentiate a CUDA tensor", "backward"),
        ("called on a CUDA tensor that requires grad", "backward"),
        ("called on CUDA tensor", "forward"),
        ("``accumulate=True`` when called on a CPU tensor", "forward"),
        ("``accumulate=False``", None),
    ],
)
def test_pass_named(condition, affected_pass):
    assert pass_named(condition) == affected_pass
