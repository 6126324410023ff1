"""The small base the three products share: the version, the translations,
the one warning helper, the package's data files, and the one holder of
per-build state. It imports none of the products."""

from reprodocs.base.version import __version__

__all__ = ["__version__"]
