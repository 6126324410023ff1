"""A module documented with autodoc whose docstring holds the lists."""


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Sets whether PyTorch operations must use "deterministic" algorithms.

    The following normally-nondeterministic operations will act
    deterministically when ``mode=True``:

    .. nondeterministic-ops::
       :format: list
       :deterministic-algorithms: deterministic

    The following normally-nondeterministic operations will throw a
    :class:`RuntimeError` when ``mode=True``:

    .. nondeterministic-ops::
       :format: list
       :deterministic-algorithms: raises

    :param mode: whether to use deterministic algorithms
    """
