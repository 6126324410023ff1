# ruff: noqa: N999  (the name of PyTorch's extension module)
"""A stand-in for the torch._C extension module."""


def _add_docstr(obj, docstr):
    obj.__doc__ = docstr
    return obj


class TensorBase:
    def index_add_(self, dim, index, source, *, alpha=1):
        pass
