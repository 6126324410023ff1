"""Where reprodocs' data files are, in a wheel and in a source checkout."""

from __future__ import annotations

from pathlib import Path

#: The package's own directory (``reprodocs/``).
PACKAGE_DIR = Path(__file__).parents[1]
#: The compiled message catalogs.
LOCALE_DIR = PACKAGE_DIR / "locale"


def templates(*parts: str) -> Path:
    """A path under reprodocs' templates (the notes' wording, the theme).

    A wheel carries them inside the package; a source checkout (an editable
    install) keeps them at the top of the repository.
    """
    packaged = PACKAGE_DIR / "templates"
    root = packaged if packaged.is_dir() else PACKAGE_DIR.parents[1] / "templates"
    return root.joinpath(*parts)
