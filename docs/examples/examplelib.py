"""A library documented with autodoc, whose docstrings carry notes."""


def scatter_add(input, dim, index, src):
    """Adds all values from ``src`` into ``input`` at the indices in ``index``.

    .. cuda-deterministic::
    """
