"""Functional interface: the operations behind the :mod:`torch.nn` layers,
taking their weights as arguments."""

# Documentation stub, not PyTorch: the signatures and docstrings follow
# PyTorch 1.4 (shortened), the functions compute nothing. The reproducibility
# notes are the reprodocs directives that PyTorch 1.4 pulled in with
# ``.. include::``; what torch.use_deterministic_algorithms(True) does to an
# operation, and when, is PyTorch 2.x's (its docstring's two lists).


# Convolution functions


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """Applies a 1D convolution over an input signal composed of several input
    planes.

    See :class:`~torch.nn.Conv1d` for details and output shape.

    .. cudnn-deterministic::

    :param input: input tensor of shape ``(minibatch, in_channels, iW)``
    :param weight: filters of shape
        ``(out_channels, in_channels / groups, kW)``
    :param bias: optional bias of shape ``(out_channels)``
    """


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """Applies a 2D convolution over an input image composed of several input
    planes.

    See :class:`~torch.nn.Conv2d` for details and output shape.

    .. cudnn-deterministic::

    :param input: input tensor of shape ``(minibatch, in_channels, iH, iW)``
    :param weight: filters of shape
        ``(out_channels, in_channels / groups, kH, kW)``
    :param bias: optional bias of shape ``(out_channels)``
    """


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """Applies a 3D convolution over an input image composed of several input
    planes.

    See :class:`~torch.nn.Conv3d` for details and output shape.

    .. cudnn-deterministic::

    :param input: input tensor of shape
        ``(minibatch, in_channels, iT, iH, iW)``
    :param weight: filters of shape
        ``(out_channels, in_channels / groups, kT, kH, kW)``
    :param bias: optional bias of shape ``(out_channels)``
    """


def conv_transpose1d(
    input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1
):
    """Applies a 1D transposed convolution operator over an input signal
    composed of several input planes, sometimes also called "deconvolution".

    See :class:`~torch.nn.ConvTranspose1d` for details and output shape.

    .. cudnn-deterministic::
    """


def conv_transpose2d(
    input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1
):
    """Applies a 2D transposed convolution operator over an input image
    composed of several input planes, sometimes also called "deconvolution".

    See :class:`~torch.nn.ConvTranspose2d` for details and output shape.

    .. cudnn-deterministic::
    """


def conv_transpose3d(
    input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1
):
    """Applies a 3D transposed convolution operator over an input image
    composed of several input planes, sometimes also called "deconvolution".

    See :class:`~torch.nn.ConvTranspose3d` for details and output shape.

    .. cudnn-deterministic::
    """


# Sparse functions


def embedding_bag(
    input,
    weight,
    offsets=None,
    max_norm=None,
    norm_type=2,
    scale_grad_by_freq=False,
    mode="mean",
    sparse=False,
    per_sample_weights=None,
):
    """Computes sums, means or maxes of bags of embeddings, without
    instantiating the intermediate embeddings.

    .. cuda-deterministic-backward::
       :deterministic-algorithms: raises
       :when: attempting to differentiate a CUDA tensor and *mode* is ``"max"``

    :param input: bags of indices into *weight*
    :param weight: the embedding matrix, one row per index
    :param offsets: where each bag starts in a 1D *input*
    :param mode: ``"sum"``, ``"mean"`` or ``"max"``: how to reduce each bag
    """


# Loss functions


def ctc_loss(
    log_probs,
    targets,
    input_lengths,
    target_lengths,
    blank=0,
    reduction="mean",
    zero_infinity=False,
):
    """The Connectionist Temporal Classification loss.

    See :class:`~torch.nn.CTCLoss` for details.

    .. cudnn-deterministic::

    .. cuda-deterministic-backward::
       :deterministic-algorithms: raises
       :when: attempting to differentiate a CUDA tensor

    :param log_probs: ``(T, N, C)`` log-probabilities of the output classes,
        e.g. from :func:`log_softmax`
    :param targets: ``(N, S)`` or ``sum(target_lengths)`` target indices
    :param input_lengths: ``(N)`` lengths of the inputs
    :param target_lengths: ``(N)`` lengths of the targets
    """


def log_softmax(input, dim=None, dtype=None):
    """Applies a softmax followed by a logarithm.

    :param input: input tensor
    :param dim: the dimension along which to compute it
    """


# Vision functions


def pad(input, pad, mode="constant", value=0):
    """Pads a tensor.

    *pad* gives the padding sizes, starting from the last dimension: for
    example ``(1, 1, 2, 0)`` pads the last dimension by 1 on both sides and the
    one before it by 2 at the start.

    .. cuda-deterministic-backward::

    :param input: N-dimensional tensor
    :param pad: m-element tuple, where *m* is even and
        ``m / 2`` is at most the number of dimensions of *input*
    :param mode: ``"constant"``, ``"reflect"``, ``"replicate"`` or ``"circular"``
    :param value: fill value for ``"constant"`` padding
    """


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Down/up samples the input to either the given *size* or the given
    *scale_factor*.

    The algorithm is chosen by *mode*: ``"nearest"``, ``"linear"``,
    ``"bilinear"``, ``"bicubic"``, ``"trilinear"`` or ``"area"``.

    .. cuda-deterministic-backward::
       :deterministic-algorithms: raises
       :when: attempting to differentiate a CUDA tensor and *mode* is ``"linear"``,
          ``"bilinear"``, ``"bicubic"`` or ``"trilinear"``

    :param input: the input tensor
    :param size: output spatial size
    :param scale_factor: multiplier for the spatial size
    :param align_corners: whether the corner pixels of input and output are aligned
    """


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Upsamples the input to either the given *size* or the given
    *scale_factor*.

    .. warning::
       This function is deprecated in favor of :func:`interpolate`, which it
       is equivalent to.

    .. cuda-deterministic-backward::
    """


def upsample_nearest(input, size=None, scale_factor=None):
    """Upsamples the input, using nearest neighbours' pixel values.

    .. warning::
       This function is deprecated in favor of :func:`interpolate`. It is
       equivalent to ``interpolate(..., mode="nearest")``.

    .. cuda-deterministic-backward::
    """


def upsample_bilinear(input, size=None, scale_factor=None):
    """Upsamples the input, using bilinear upsampling.

    .. warning::
       This function is deprecated in favor of :func:`interpolate`. It is
       equivalent to ``interpolate(..., mode="bilinear", align_corners=True)``.

    .. cuda-deterministic-backward::
    """


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Computes the output from the values of *input* at the pixel locations
    given by *grid*.

    .. cuda-deterministic-backward::
       :deterministic-algorithms: raises
       :when: attempting to differentiate a CUDA tensor

    :param input: input of shape ``(N, C, H_in, W_in)`` (4D) or
        ``(N, C, D_in, H_in, W_in)`` (5D)
    :param grid: flow field of shape ``(N, H_out, W_out, 2)`` (4D)
        or ``(N, D_out, H_out, W_out, 3)`` (5D)
    :param mode: ``"bilinear"`` or ``"nearest"``
    :param padding_mode: ``"zeros"``, ``"border"`` or ``"reflection"``
    """
