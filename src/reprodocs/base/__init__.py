"""The small base the three products share: the version, the translations,
the one warning helper, the package's data files, and the one holder of
per-build state. It imports none of the products."""

__version__ = "0.1.0"
