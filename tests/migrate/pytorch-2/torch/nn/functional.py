"""Functional interface."""

import torch
from torch._C import _add_docstr
from torch._torch_docs import reproducibility_notes, tf32_notes

conv1d = _add_docstr(
    torch.conv1d,
    r"""
conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor

Applies a 1D convolution over an input signal composed of several input
planes.

{tf32_note}

See :class:`~torch.nn.Conv1d` for details and output shape.

Note:
    {cudnn_reproducibility_note}

Note:
    This operator supports complex data types i.e. ``complex32, complex64, complex128``.
""".format(
        **reproducibility_notes, **tf32_notes
    )
    + r"""

Args:
    input: input tensor of shape :math:`(\text{minibatch} , \text{in\_channels} , iW)`
    weight: filters of shape :math:`(\text{out\_channels} , \frac{\text{in\_channels}}{\text{groups}} , kW)`
""",
)


def embedding_bag(input, weight, offsets=None, max_norm=None):
    r"""Compute sums, means or maxes of `bags` of embeddings.

    Calculation is done without instantiating the intermediate embeddings.
    See :class:`torch.nn.EmbeddingBag` for more details.

    Note:
        {backward_reproducibility_note}

    Args:
        input (LongTensor): Tensor containing bags of indices into the embedding matrix
        weight (Tensor): The embedding matrix with number of rows equal to the maximum possible index + 1,
            and number of columns equal to the embedding size
    """


if embedding_bag.__doc__:
    embedding_bag.__doc__ = embedding_bag.__doc__.format(**reproducibility_notes)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0):
    r"""Compute the Connectionist Temporal Classification loss.

    See :class:`~torch.nn.CTCLoss` for details.

    Note:
        {cudnn_reproducibility_note}

    Note:
        {backward_reproducibility_note}

    Args:
        log_probs: :math:`(T, N, C)` or :math:`(T, C)` where `C = number of characters in alphabet including blank`,
            `T = input length`, and `N = batch size`.
        targets: :math:`(N, S)` or `(sum(target_lengths))`.
    """


if ctc_loss.__doc__:
    ctc_loss.__doc__ = ctc_loss.__doc__.format(**reproducibility_notes)


def grid_sample(input, grid, mode="bilinear"):
    r"""Compute grid sample.

    .. note::
        {backward_reproducibility_note}

    .. note::
        NaN values in :attr:`grid` would be interpreted as ``-1``.

    Args:
        input (Tensor): input of shape :math:`(N, C, H_\text{{in}}, W_\text{{in}})` (4-D case)
    """


if grid_sample.__doc__:
    grid_sample.__doc__ = grid_sample.__doc__.format(**reproducibility_notes)


class Conv2d:
    __doc__ = r"""Applies a 2D convolution over an input signal composed of several input
    planes.

    {groups_note}

    Note:
        {depthwise_separable_note}
    Note:
        {cudnn_reproducibility_note}

    Note:
        ``padding='valid'`` is the same as no padding.
    """.format(
        **reproducibility_notes,
        groups_note="At groups=1, all inputs are convolved to all outputs.",
        depthwise_separable_note="A depthwise convolution when `groups == in_channels`.",
    )
