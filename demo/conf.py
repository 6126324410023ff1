"""Sphinx configuration of the reprodocs demo.

A small site shaped like PyTorch 1.4's documentation, showing the
reproducibility note directives on the operations that carried the notes in
PyTorch 1.4. Build it with ``make demo`` (or ``sphinx-build -W -n -b html demo
build/html``); it needs no network.
"""

import sys
from pathlib import Path

# The demo documents a PyTorch-shaped API without installing PyTorch: autodoc
# imports the lightweight stub package in _stubs/ instead. It goes first on
# sys.path so that a real torch installed in the environment is never used.
sys.path.insert(0, str(Path(__file__).parent / "_stubs"))

project = "PyTorch-like demo"
copyright = "2019, Torch Contributors"
version = "1.4.0"
release = "1.4.0"

extensions = [
    "reprodocs",
    "sphinx.ext.autodoc",
    "myst_parser",
]

exclude_patterns = ["_stubs"]

# The page the notes link to (this is also reprodocs' default).
reprodocs_reproducibility_doc = "notes/randomness"

html_theme = "sphinx_rtd_theme"

# The drift check: every operation listed there must carry a note, and every
# note must be on a listed operation.
reprodocs_known_ops = "known_nondeterministic_ops.txt"
