"""What the words of a list's item say: the devices its condition names and
the pass it is about (calling the operation, or differentiating it)."""

from __future__ import annotations

import re

#: Conditions about the backward pass (differentiating, gradients).
_BACKWARD = re.compile(r"differentiat|backward|gradient|requires[ _]grad", re.IGNORECASE)
#: Conditions about calling the operation.
_CALLING = re.compile(r"\bcall(?:ed|ing)\b", re.IGNORECASE)
#: Devices a condition may name, and the backends of the notes that can be
#: about tensors on them (PyTorch's ROCm tensors are "CUDA tensors").
DEVICE_BACKENDS = {
    "CUDA": {"cuda", "cudnn", "rocm", "miopen", "hip"},
    "CPU": {"cpu"},
    "MPS": {"mps"},
    "XPU": {"xpu"},
    "XLA": {"xla"},
}
_DEVICE = re.compile(r"\b(" + "|".join(DEVICE_BACKENDS) + r")\b", re.IGNORECASE)


def devices_named(condition: str) -> list[str]:
    """The devices *condition* names, in its order, spelled as
    :data:`DEVICE_BACKENDS` spells them ("a CPU or CUDA tensor": CPU, CUDA)."""
    return list(dict.fromkeys(match[1].upper() for match in _DEVICE.finditer(condition)))


def pass_named(condition: str) -> str | None:
    """The pass *condition* is about: "backward" (differentiating),
    "forward" (calling the operation), or None where it says neither."""
    if _BACKWARD.search(condition):
        return "backward"
    if _CALLING.search(condition):
        return "forward"
    return None
