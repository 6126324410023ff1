"""Operations documented with autodoc."""


def noted(x):
    """An operation with notes in its docstring.

    .. cuda-deterministic::

    .. cuda-deterministic:: locmod.noted
    """
