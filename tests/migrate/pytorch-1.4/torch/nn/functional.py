r"""Functional interface"""

# The notes are pulled in with ``.. include:: cuda_deterministic_backward.rst``
# in the docstrings below; this comment is code, not documentation.
NOTE_FILE = ".. include:: cuda_deterministic_backward.rst"


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2,
                  scale_grad_by_freq=False, mode='mean', sparse=False,
                  per_sample_weights=None):
    r"""Computes sums, means or maxes of `bags` of embeddings, without instantiating the
    intermediate embeddings.

    See :class:`torch.nn.EmbeddingBag` for more details.

    .. include:: cuda_deterministic_backward.rst

    Args:
        input (LongTensor): Tensor containing bags of indices into the embedding matrix
        weight (Tensor): The embedding matrix
    """


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0,
             reduction='mean', zero_infinity=False):
    r"""The Connectionist Temporal Classification loss.

    See :class:`~torch.nn.CTCLoss` for details.

    .. include:: cudnn_deterministic.rst
    .. include:: cuda_deterministic_backward.rst

    Args:
        log_probs: :math:`(T, N, C)` where `C = number of characters in alphabet including blank`
        targets: :math:`(N, S)` or `(sum(target_lengths))`.

    Example::

        >>> log_probs = torch.randn(50, 16, 20).log_softmax(2).detach().requires_grad_()
        >>> loss = F.ctc_loss(log_probs, targets, input_lengths, target_lengths)
        >>> loss.backward()
    """


def pad(input, pad, mode='constant', value=0):
    r"""Pads tensor.

    .. include:: ../../docs/source/cuda_deterministic_backward.rst

    Args:
        input (Tensor): `Nd` tensor
    """
