"""Adds docstrings to functions defined in the torch._C"""

import torch._C
from torch._C import _add_docstr as add_docstr

common_args = {
    "input": "input (Tensor): the input tensor.",
}

add_docstr(torch.bincount,
           r"""
bincount(input, weights=None, minlength=0) -> Tensor

Count the frequency of each value in an array of non-negative ints.

The number of bins (size 1) is one larger than the largest value in
:attr:`input` unless :attr:`input` is empty, in which case the result is a
tensor of size 0. If ``n`` is the value at position ``i``,
``out[n] += weights[i]`` if :attr:`weights` is specified else
``out[n] += 1``.

.. include:: cuda_deterministic.rst

Arguments:
    {input}
    weights (Tensor): optional, weight for each value in the input tensor.

Example::

    >>> torch.bincount(torch.randint(0, 8, (5,), dtype=torch.int64))
    tensor([0, 0, 0, 2, 2, 0, 0, 1])
""".format(**common_args))
