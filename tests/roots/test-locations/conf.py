import sys
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

extensions = ["sphinx.ext.autodoc", "reprodocs"]
exclude_patterns = ["inc.rst"]  # read where index.rst includes it, not as a page
# Every noted operation is missing from it: each note gets a drift warning.
reprodocs_known_ops = ["torch.unnoted"]


# A module without a source file, as a compiled extension is: autodoc names
# its docstrings "docstring of nofile.func", and knows no file.
def func(x):
    """Compiled.

    .. cudnn-deterministic:: nofile_argument
    """


nofile = types.ModuleType("nofile", "A compiled module.")
func.__module__ = nofile.__name__
nofile.func = func
sys.modules[nofile.__name__] = nofile
del func, nofile
