"""``python -m reprodocs migrate PATH... [--write] [--wording SET]``: see
:mod:`reprodocs.migrate`."""

from __future__ import annotations

import argparse
import locale
import sys

from sphinx.locale import init_console

from reprodocs.base.i18n import CATALOG
from reprodocs.base.paths import LOCALE_DIR
from reprodocs.migrate.command import add_command as add_migrate


def main(argv: list[str] | None = None) -> int:
    try:
        locale.setlocale(locale.LC_ALL, "")
    except locale.Error:
        pass  # an unknown locale: messages stay in English
    init_console(str(LOCALE_DIR), CATALOG)  # Sphinx 7.2 types it as str

    parser = argparse.ArgumentParser(prog="python -m reprodocs")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_migrate(commands)
    arguments = parser.parse_args(argv)
    return int(arguments.run(arguments))  # each command's add_command sets its run


if __name__ == "__main__":
    sys.exit(main())
