"""The demo inside pytorch_sphinx_theme2, PyTorch's own documentation theme.

The same site as ``demo/conf.py`` (whose settings this file takes first), with
the theme set up as that theme's migration guide asks: its extension, its
``html_theme_path``, its templates in ``templates_path``, and ``html_context``
with its theme variables. Build it with ``make demo-pytorch2`` (Sphinx 7.2.6,
pytorch_sphinx_theme2 0.4.13, ``-W -n``), or
``sphinx-build -c demo/pytorch2 demo build/html-pytorch2``.
"""

import os
import runpy
from pathlib import Path

import pytorch_sphinx_theme2

DEMO = Path(__file__).parents[1]

# Every setting of the demo, then what this theme changes.
globals().update(
    (name, value)
    for name, value in runpy.run_path(str(DEMO / "conf.py")).items()
    if not name.startswith("__")
)

extensions = [*extensions, "pytorch_sphinx_theme2"]  # noqa: F821 (from demo/conf.py)
# Relative to this directory, which is the configuration directory here.
reprodocs_known_ops = str(DEMO / "known_nondeterministic_ops.txt")

html_theme = "pytorch_sphinx_theme2"
html_theme_path = [pytorch_sphinx_theme2.get_html_theme_path()]
templates_path = [os.path.join(os.path.dirname(pytorch_sphinx_theme2.__file__), "templates")]
html_theme_options = {
    "navigation_with_keys": False,
    "logo": {"text": "Home"},
    "icon_links": [
        {
            "name": "GitHub",
            "url": "https://github.com/pytorch/pytorch",
            "icon": "fa-brands fa-github",
        },
    ],
    "use_edit_page_button": True,
    "navbar_center": "navbar-nav",
}
theme_variables = pytorch_sphinx_theme2.get_theme_variables()
html_context = {
    "theme_variables": theme_variables,
    "display_github": True,
    "github_url": "https://github.com",
    "github_user": "pytorch",
    "github_repo": "pytorch",
    "feedback_url": "https://github.com/pytorch/pytorch",
    "github_version": "main",
    "doc_path": "docs/source",
    "library_links": theme_variables.get("library_links", []),
    "community_links": theme_variables.get("community_links", []),
    "language_bindings_links": html_theme_options.get("language_bindings_links", []),
}
