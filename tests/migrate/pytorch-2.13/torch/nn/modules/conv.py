from torch._torch_docs import reproducibility_notes

convolution_notes = {
    "groups_note": "At groups=1, all inputs are convolved to all outputs.",
}


class Conv1d:
    __doc__ = (
        r"""Applies a 1D convolution over an input signal composed of several input
    planes.

    {groups_note}

    Note:
        {cudnn_reproducibility_note}
    """.format(**reproducibility_notes, **convolution_notes)
        + r"""

    Args:
        in_channels (int): Number of channels in the input image
    """
    )


class ConvTranspose1d:
    __doc__ = r"""Applies a 1D transposed convolution operator over an input image
    composed of several input planes.

    Note:
        In some circumstances when using the CUDA backend with CuDNN, this operator
        may select a nondeterministic algorithm to increase performance. If this is
        undesirable, you can try to make the operation deterministic (potentially at
        a performance cost) by setting ``torch.backends.cudnn.deterministic =
        True``.
        Please see the notes on :doc:`/notes/randomness` for background.
    """
