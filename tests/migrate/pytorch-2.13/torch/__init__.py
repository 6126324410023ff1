"""A stand-in for torch 2.13's torch package, laid out as PyTorch lays it out:
the C functions get their docstrings from torch/_torch_docs.py, and
use_deterministic_algorithms' docstring keeps its two lists by hand."""


def bincount(input, weights=None, minlength=0):
    pass


def cumsum(input, dim, *, dtype=None, out=None):
    pass


def histc(input, bins=100, min=0, max=0, *, out=None):
    pass


from torch._C import TensorBase, conv1d  # noqa: E402, F401


class Tensor(TensorBase):
    pass


def use_deterministic_algorithms(mode, *, warn_only=False):
    r"""Sets whether PyTorch operations must use "deterministic"
    algorithms. That is, algorithms which, given the same input, and when
    run on the same software and hardware, always produce the same output.

    .. note:: This setting alone is not always enough to make an application
        reproducible. Refer to :doc:`/notes/randomness` for more information.

    The following normally-nondeterministic operations will act
    deterministically when ``mode=True``:

        * :class:`torch.nn.Conv1d` when called on CUDA tensor
        * :class:`torch.nn.ConvTranspose1d` when called on CUDA tensor
        * :func:`torch.Tensor.put_` with ``accumulate=True`` when called on a CPU
          tensor
        * :func:`torch.Tensor.scatter_add_` when called on a CUDA tensor
        * :func:`torch.index_add` when called on CUDA tensor

    The following normally-nondeterministic operations will throw a
    :class:`RuntimeError` when ``mode=True``:

        * :class:`torch.nn.AvgPool3d` when attempting to differentiate a CUDA tensor
        * :class:`torch.nn.MaxUnpool1d`
        * :func:`torch.nn.functional.interpolate` when attempting to differentiate a CUDA tensor
          and one of the following modes is used:

          - ``linear``
          - ``bilinear``

        * :class:`torch.nn.CTCLoss` when attempting to differentiate a CUDA tensor
        * :meth:`torch.Tensor.put_` when ``accumulate=False``
        * :func:`torch.Tensor.put_` when ``accumulate=True`` and called on a CUDA
          tensor
        * :func:`torch.histc` when called on a CUDA tensor
        * :func:`torch.bincount` when called on a CUDA tensor and ``weights``
          tensor is given
        * :func:`torch.cumsum` when called on a CUDA tensor when dtype is floating point or complex
        * :func:`torch.median` with indices output when called on a CUDA tensor

    Note that deterministic operations tend to have worse performance than
    nondeterministic operations.

    Args:
        mode (:class:`bool`): If True, makes potentially nondeterministic
            operations switch to a deterministic algorithm or throw a runtime
            error. If False, allows nondeterministic operations.
    """


from torch import _tensor_docs, _torch_docs  # noqa: E402, F401  (as torch/__init__.py does)
