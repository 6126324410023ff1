import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
project = "Unread notes test"
extensions = ["reprodocs", "sphinx.ext.autodoc"]
reprodocs_reproducibility_doc = "index"
