"""``python -m reprodocs migrate PATH... [--write] [--wording SET]``: see
:mod:`reprodocs.migrate`; ``python -m reprodocs check-alerts SOURCE...
--registry FILE``: see :mod:`reprodocs.check_alerts`."""

from __future__ import annotations

import argparse
import locale
import re
import sys

from sphinx.locale import init_console

from reprodocs.base.i18n import CATALOG, __
from reprodocs.base.paths import LOCALE_DIR
from reprodocs.check_alerts.command import add_command as add_check_alerts
from reprodocs.migrate import DEFAULT_WORDING
from reprodocs.migrate import run as migrate


def wording_set(name: str) -> str:
    """A wording set's name, as ``reprodocs_wording`` takes it."""
    if not re.fullmatch(r"[\w.+-]+", name):
        raise argparse.ArgumentTypeError(str(__("not the name of a wording set: %r") % name))
    return name


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
                "reproducibility note placeholders as reprodocs directives, and the "
                "two lists of torch.use_deterministic_algorithms' docstring as "
                "nondeterministic-ops directives generating them from the notes. "
                "Without --write, print a unified diff and change nothing. Exit status: "
                "0 when no legacy note is left, 1 when some are (or items of the lists "
                "are kept by hand), 2 when a file could not be read, parsed or written."
            )
        ),
    )
    command.add_argument(
        "paths", nargs="+", metavar="PATH", help=str(__("a .rst or .py file, or a directory"))
    )
    command.add_argument(
        "--write", action="store_true", help=str(__("rewrite the files instead of printing a diff"))
    )
    command.add_argument(
        "--wording",
        type=wording_set,
        default=DEFAULT_WORDING,
        metavar="SET",
        help=str(
            __(
                "the site's wording set (its reprodocs_wording; default: %(default)s): "
                "a rewritten note whose words were another set's gets :wording:"
            )
        ),
    )
    add_check_alerts(commands)
    arguments = parser.parse_args(argv)
    if "run" in arguments:
        return int(arguments.run(arguments))
    return migrate(arguments.paths, write=arguments.write, wording=arguments.wording)


if __name__ == "__main__":
    sys.exit(main())
