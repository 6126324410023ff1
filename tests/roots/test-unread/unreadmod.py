"""A module whose function's docstring misspells a note's option."""


def scatter(src):
    """Scatter.

    .. nondeterministic::
       :deterministic-algorithm: raises
    """
