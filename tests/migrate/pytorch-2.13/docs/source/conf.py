import os
import sys

# As PyTorch's docs/source/conf.py: the package is imported from the checkout.
sys.path.insert(0, os.path.abspath("../.."))

project = "PyTorch"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "reprodocs"]
# The note file a page still includes, as PyTorch 1.4 did; not a page of its own.
exclude_patterns = ["cuda_deterministic.rst"]
