class AvgPool3d:
    r"""Applies a 3D average pooling over an input signal composed of several input planes."""


class MaxUnpool1d:
    r"""Computes a partial inverse of :class:`MaxPool1d`."""
