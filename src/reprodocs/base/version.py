"""reprodocs' version (read by the build backend from here)."""

__version__ = "0.1.0"
