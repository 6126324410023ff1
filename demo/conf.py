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

html_theme = "reprodocs"
# PyTorch 1.4's header, resources row and site footer, as theme options.
html_theme_options = {
    "header_links": [
        {"title": "Get Started", "url": "https://pytorch.org/get-started"},
        {
            "title": "Ecosystem",
            "children": [
                {
                    "title": "Models (Beta)",
                    "url": "https://pytorch.org/hub",
                    "description": "Discover, publish, and reuse pre-trained models",
                },
                {
                    "title": "Tools & Libraries",
                    "url": "https://pytorch.org/ecosystem",
                    "description": "Explore the ecosystem of tools and libraries",
                },
            ],
        },
        {"title": "Mobile", "url": "https://pytorch.org/mobile"},
        {"title": "Blog", "url": "https://pytorch.org/blog/"},
        {"title": "Tutorials", "url": "https://pytorch.org/tutorials"},
        {"title": "Docs", "url": "https://pytorch.org/docs/stable/index.html", "current": True},
        {
            "title": "Resources",
            "children": [
                {
                    "title": "Developer Resources",
                    "url": "https://pytorch.org/resources",
                    "description": "Find resources and get questions answered",
                },
                {
                    "title": "About",
                    "url": "https://pytorch.org/features",
                    "description": "Learn about PyTorch’s features and capabilities",
                },
            ],
        },
    ],
    "repository_url": "https://github.com/pytorch/pytorch",
    "repository_label": "GitHub",
    "version_url": "https://pytorch.org/docs/versions.html",
    "resources": [
        {
            "title": "Docs",
            "text": "Access comprehensive developer documentation for PyTorch",
            "url": "https://pytorch.org/docs/stable/index.html",
        },
        {
            "title": "Tutorials",
            "text": "Get in-depth tutorials for beginners and advanced developers",
            "url": "https://pytorch.org/tutorials",
        },
        {
            "title": "Resources",
            "text": "Find development resources and get your questions answered",
            "url": "https://pytorch.org/resources",
        },
    ],
    "footer_columns": [
        {
            "title": "PyTorch",
            "url": "https://pytorch.org/",
            "links": [
                {"title": "Get Started", "url": "https://pytorch.org/get-started"},
                {"title": "Features", "url": "https://pytorch.org/features"},
                {"title": "Ecosystem", "url": "https://pytorch.org/ecosystem"},
                {"title": "Blog", "url": "https://pytorch.org/blog/"},
                {"title": "Resources", "url": "https://pytorch.org/resources"},
            ],
        },
        {
            "title": "Support",
            "url": "https://pytorch.org/support",
            "links": [
                {"title": "Tutorials", "url": "https://pytorch.org/tutorials"},
                {"title": "Docs", "url": "https://pytorch.org/docs/stable/index.html"},
                {"title": "Discuss", "url": "https://discuss.pytorch.org"},
                {"title": "GitHub Issues", "url": "https://github.com/pytorch/pytorch/issues"},
                {
                    "title": "Contributing",
                    "url": "https://github.com/pytorch/pytorch/blob/master/CONTRIBUTING.md",
                },
            ],
        },
    ],
    "social_links": [
        {"name": "Facebook", "url": "https://www.facebook.com/pytorch", "icon": "facebook"},
        {"name": "X", "url": "https://x.com/pytorch", "icon": "x"},
    ],
}

# The drift check: every operation listed there must carry a note, and every
# note must be on a listed operation.
reprodocs_known_ops = "known_nondeterministic_ops.txt"
