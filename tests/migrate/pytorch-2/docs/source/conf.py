import os
import sys

# As PyTorch's docs/source/conf.py: the package is imported from the checkout.
sys.path.insert(0, os.path.abspath("../.."))

project = "PyTorch"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "reprodocs"]
