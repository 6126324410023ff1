"""Functional interface."""

import torch
from torch._C import _add_docstr
from torch._torch_docs import reproducibility_notes

conv1d = _add_docstr(
    torch.conv1d,
    r"""
conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor

Applies a 1D convolution over an input signal composed of several input
planes.

Note:
    {cudnn_reproducibility_note}
""".format(**reproducibility_notes),
)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0):
    r"""Compute the Connectionist Temporal Classification loss.

    See :class:`~torch.nn.CTCLoss` for details.

    Note:
        {cudnn_reproducibility_note}

    Note:
        {backward_reproducibility_note}
    """


if ctc_loss.__doc__:
    ctc_loss.__doc__ = ctc_loss.__doc__.format(**reproducibility_notes)


def interpolate(input, size=None, scale_factor=None, mode="nearest"):
    r"""Down/up samples the input.

    Args:
        input (Tensor): the input tensor
        mode (str): algorithm used for upsampling

    Note:
        {backward_reproducibility_note}
    """


if interpolate.__doc__:
    interpolate.__doc__ = interpolate.__doc__.format(**reproducibility_notes)
