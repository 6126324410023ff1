import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

project = "Registry test"
extensions = ["sphinx.ext.autodoc", "myst_parser", "reprodocs"]
myst_enable_extensions = ["colon_fence"]
# Every cross-reference the notes and the lists make must resolve.
nitpicky = True
