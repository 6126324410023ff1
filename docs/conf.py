"""Sphinx configuration of reprodocs' own documentation.

The site is built with what it documents: the extension (every directive on
the directive pages is rendered live), the theme, and with it the linear-time
menu. ``make docs`` builds it with ``-W -n --keep-going`` into build/docs; it
needs no network.
"""

import sys
from pathlib import Path

import reprodocs

# The example library whose docstrings carry notes (directives.rst, autodoc).
sys.path.insert(0, str(Path(__file__).parent / "examples"))
# This site's own directive: the note directives' table, from the vocabulary.
sys.path.insert(0, str(Path(__file__).parent / "_ext"))

project = "reprodocs"
author = "reprodocs contributors"
copyright = "2026, reprodocs contributors"
version = release = reprodocs.__version__

extensions = [
    "reprodocs",
    "sphinx.ext.autodoc",
    # CHANGELOG.md is included as Markdown (changelog.rst); the MyST example too.
    "myst_parser",
    "vocabulary_table",
]

# Every reference must resolve, here and on Read the Docs (which passes no -n).
nitpicky = True

# Files that pages include (examples shown both as source and rendered), not
# pages of their own.
exclude_patterns = ["examples"]

# The notes on the directive pages link to the page holding this site's index
# of nondeterministic operations.
reprodocs_reproducibility_doc = "nondeterministic-ops"

# The drift check runs on every build of this site: each example operation
# carries a note, and each note is on one of these.
reprodocs_known_ops = [
    "examplelib.scatter_add",
    "torch.Tensor.index_add_",
    "torch.Tensor.put_",
    "torch.bincount",
    "torch.nn.functional.conv2d",
    "torch.nn.functional.embedding_bag",
    "torch.nn.functional.interpolate",
]
# end of the drift check

myst_enable_extensions = ["colon_fence"]

# "On this page" lists the sections, not every example operation.
toc_object_entries = False
autodoc_member_order = "bysource"
# No network at build time, so no intersphinx: references into Sphinx's and
# docutils' own API (in the type hints of api.rst) stay plain text, as do the
# names reprodocs imports only for type checking.
nitpick_ignore_regex = [
    ("py:class", r"(sphinx|docutils|jinja2)\..*|Sphinx|BuildEnvironment|ExtensionMetadata"),
]

html_theme = "reprodocs"
html_title = f"reprodocs {release}"
html_theme_options = {
    "repository_url": "https://github.com/reprodocs/reprodocs",
    "repository_label": "Source",
}
