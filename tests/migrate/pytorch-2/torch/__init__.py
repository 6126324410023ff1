"""A stand-in for PyTorch 2.x's torch package, laid out as PyTorch lays it out:
the C functions get their docstrings from torch/_torch_docs.py."""


def bincount(input, weights=None, minlength=0):
    pass


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    pass


from torch._C import TensorBase


class Tensor(TensorBase):
    pass


from torch import _tensor_docs, _torch_docs  # noqa: F401  (as torch/__init__.py does)
