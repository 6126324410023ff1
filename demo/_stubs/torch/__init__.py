# Documentation stub, not PyTorch: just enough of a package for autodoc to
# import torch.nn.functional, and use_deterministic_algorithms, whose
# docstring lists what it does to each noted operation as PyTorch 2.x's
# does, generated from the notes. It must stay free of imports.


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Sets whether PyTorch operations must use "deterministic" algorithms.
    That is, algorithms which, given the same input, and when run on the same
    software and hardware, always produce the same output. When enabled,
    operations will use deterministic algorithms when available, and if only
    nondeterministic algorithms are available they will throw a
    :class:`RuntimeError` when called.

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

    Both lists are generated from the operations' own notes.

    :param mode: if ``True``, makes potentially nondeterministic operations
        switch to a deterministic algorithm or throw a runtime error
    :param warn_only: if ``True``, operations that do not have a
        deterministic implementation throw a warning instead of an error
    """
