import os
import sys

# As PyTorch's docs/source/conf.py: the package is imported from the checkout.
sys.path.insert(0, os.path.abspath("../.."))

project = "PyTorch"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "reprodocs"]
# The note files are included, not pages of their own.
exclude_patterns = ["cuda_deterministic*.rst", "cudnn_deterministic.rst", "_includes"]
