"""A stand-in for PyTorch 1.4's torch package, laid out as PyTorch lays it out:
the C functions get their docstrings from torch/_torch_docs.py."""


def bincount(input, weights=None, minlength=0):
    pass


class Tensor:
    def index_add_(self, dim, index, tensor):
        pass


from torch import _torch_docs  # noqa: F401  (as torch/__init__.py does)
