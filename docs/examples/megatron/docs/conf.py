# Megatron-LM's docs/conf.py, its settings for reprodocs (the rest as it is).
import os
import sys

sys.path.insert(0, os.path.abspath(".."))

project = "Megatron Core"
extensions = [
    "myst_parser",
    "sphinx.ext.napoleon",
    "autodoc2",
    "reprodocs",  # the entries, the tables, nondeterministic.json
    "reprodocs.navigation",  # the theme's sidebar in linear time
]
myst_enable_extensions = ["colon_fence"]
autodoc2_packages = [{"path": "../megatron/core"}]
autodoc2_render_plugin = "myst"
autodoc2_docstring_parser_regexes = [(r".*", "docs.autodoc2_docstrings_parser")]

# The catalog's columns, declared once: the entries' options, the tables'
# columns, nondeterministic.json's keys (as `python -m reprodocs migrate`
# printed them for the catalog's two tables).
reprodocs_entry_fields = [
    {"option": "where", "title": "Where", "kind": "line"},
    {"option": "deterministic-path", "title": "Deterministic Path", "kind": "line"},
    {"option": "default-path", "title": "Default Path", "kind": "line"},
    {"option": "where-enforced-or-observed", "title": "Where Enforced or Observed", "kind": "line"},
    {"option": "status", "title": "Status", "kind": "line"},
]
# The notes' "Please see the notes on ..." link: the catalog's page.
reprodocs_reproducibility_doc = "op-catalog"
