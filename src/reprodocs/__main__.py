"""``python -m reprodocs COMMAND``: ``migrate`` (see :mod:`reprodocs.migrate`)
and ``check-alerts`` (see :mod:`reprodocs.check_alerts`). Each command's
``add_command`` adds its parser and sets the function that runs it."""

from __future__ import annotations

import argparse
import locale
import sys

from sphinx.locale import init_console

from reprodocs.base.i18n import CATALOG
from reprodocs.base.paths import LOCALE_DIR
from reprodocs.check_alerts.command import add_command as add_check_alerts
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
    add_check_alerts(commands)
    arguments = parser.parse_args(argv)
    return int(arguments.run(arguments))  # each command's add_command sets its run


if __name__ == "__main__":
    sys.exit(main())
