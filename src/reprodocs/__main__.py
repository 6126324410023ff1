"""``python -m reprodocs COMMAND``: ``migrate`` (see :mod:`reprodocs.migrate`)
and ``check-alerts`` (see :mod:`reprodocs.check_alerts`). Each command's
``add_command`` adds its parser and sets the function that runs it."""

from __future__ import annotations

import argparse
import locale
import sys
from collections.abc import Sequence
from typing import NoReturn, cast

from sphinx.locale import init_console

from reprodocs.base.i18n import CATALOG, __
from reprodocs.base.paths import LOCALE_DIR
from reprodocs.check_alerts.command import add_command as add_check_alerts
from reprodocs.migrate.command import add_command as add_migrate


class CommandParser(argparse.ArgumentParser):
    """A parser whose usage errors a command may report as it reports its
    outcome (check-alerts' JSON): the function its ``usage_error`` default
    names is given the arguments and the message, then argparse prints the
    usage and exits with status 2, as always."""

    arguments: Sequence[str] = ()

    def parse_known_args(  # type: ignore[override]  # argparse's overloads
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        self.arguments = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        usage_error = self.get_default("usage_error")
        if usage_error is not None:
            usage_error(self.arguments, message)
        super().error(message)


def main(argv: list[str] | None = None) -> int:
    try:
        locale.setlocale(locale.LC_ALL, "")
    except locale.Error:
        pass  # an unknown locale: messages stay in English
    init_console(str(LOCALE_DIR), CATALOG)  # Sphinx 7.2 types it as str

    parser = CommandParser(prog="python -m reprodocs")
    # Its commands' parsers are CommandParsers too (argparse's default: the
    # parser's own class), which the commands take as ArgumentParsers.
    commands = cast(
        "argparse._SubParsersAction[argparse.ArgumentParser]",
        parser.add_subparsers(dest="command", required=True, metavar="COMMAND"),
    )
    add_migrate(commands)
    add_check_alerts(commands)
    arguments, unrecognized = parser.parse_known_args(argv)
    if unrecognized:  # what parse_args does, the command's usage_error told first
        message = __("unrecognized arguments: %s") % " ".join(unrecognized)
        if (usage_error := getattr(arguments, "usage_error", None)) is not None:
            usage_error(parser.arguments, message)
        parser.error(message)
    return int(arguments.run(arguments))  # each command's add_command sets its run


if __name__ == "__main__":
    sys.exit(main())
