"""A stand-in for torch.nn.functional."""


def embedding_bag(input, weight):
    """Sums bags of embeddings.

    .. cuda-deterministic-backward::
    """


def conv2d(input, weight):
    """A 2D convolution.

    .. cudnn-deterministic::
    """


class Conv2d:
    """A 2D convolution layer.

    .. cudnn-deterministic::
    """

    def forward(self, input):
        """Runs the convolution.

        .. nondeterministic::
           :backend: cuDNN
           :pass: forward
        """
