"""``python -m reprodocs migrate PATH... [--write]``: see :mod:`reprodocs.migrate`."""

from __future__ import annotations

import argparse
import locale
import sys

from sphinx.locale import init_console

from reprodocs.base.i18n import CATALOG, __
from reprodocs.base.paths import LOCALE_DIR
from reprodocs.migrate import run as migrate


def main(argv: list[str] | None = None) -> int:
    try:
        locale.setlocale(locale.LC_ALL, "")
    except locale.Error:
        pass  # an unknown locale: messages stay in English
    init_console(str(LOCALE_DIR), CATALOG)  # Sphinx 7.2 types it as str

    parser = argparse.ArgumentParser(prog="python -m reprodocs")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    command = commands.add_parser(
        "migrate",
        help=str(__("rewrite PyTorch's legacy reproducibility notes as directives")),
        description=str(
            __(
                "Rewrite PyTorch 1.4's includes of the note files and PyTorch 2.x's "
                "reproducibility note placeholders as reprodocs directives. Without "
                "--write, print a unified diff and change nothing. Exit status: 0 when "
                "no legacy note is left, 1 when some are, 2 when a file could not be "
                "read, parsed or written."
            )
        ),
    )
    command.add_argument(
        "paths", nargs="+", metavar="PATH", help=str(__("a .rst or .py file, or a directory"))
    )
    command.add_argument(
        "--write", action="store_true", help=str(__("rewrite the files instead of printing a diff"))
    )
    arguments = parser.parse_args(argv)
    return migrate(arguments.paths, write=arguments.write)


if __name__ == "__main__":
    sys.exit(main())
