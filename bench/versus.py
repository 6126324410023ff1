"""Benchmark the same theme builds (see :mod:`themes`) with two copies of
reprodocs' source, interleaved: each round builds with one copy, then the
other (in turn first), then the theme without its sidebar, so that drift on
a shared machine hits both alike. Each copy is put first on the build's
``PYTHONPATH``, so that editing the working tree cannot change a build under
way. Saves one file per copy, in the format of ``themes.py --json`` (the
builds without sidebar in both), which ``themes.py --report`` reads; prints
the least CPU time of each. It reports; it never asserts on time. ::

    git worktree add /tmp/base main   # or a copy of any commit's src/
    python bench/versus.py --site pytorch --theme pydata_sphinx_theme -r 3 \\
        --copy main=/tmp/base/src --copy branch=src \\
        --json bench/results/themes-issue34-pytorch-tree-pydata015-{copy}.json
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path

import sphinx

from measure import save_json
from themes import THEMES, WORK, django_site, pytorch_site, timed_theme_build


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", choices=("django", "pytorch"), required=True)
    parser.add_argument("--theme", choices=THEMES, required=True)
    parser.add_argument("-r", "--rounds", type=int, default=2)
    parser.add_argument(
        "--copy", action="append", required=True, metavar="NAME=SRC",
        help="a name and a copy of src/ (two of them)",
    )  # fmt: skip
    parser.add_argument("--no-nosidebar", action="store_true", help="skip the theme alone")
    parser.add_argument("--json", required=True, help="where to save, {copy} the copy's name")
    args = parser.parse_args(argv)
    copies = dict(copy.split("=", 1) for copy in args.copy)
    src = django_site() if args.site == "django" else pytorch_site()
    pages = len(list(src.rglob("*.rst"))) + len(list(src.rglob("*.txt")))
    results = {
        name: {"runs": {}, "python": platform.python_version(), "sphinx": sphinx.__version__,
               "without_max": 0}
        for name in copies
    }  # fmt: skip
    out = WORK / f"out-versus-{src.name}"
    for round_ in range(args.rounds):
        order = list(copies.items())[:: 1 if round_ % 2 == 0 else -1]
        builds = [(name, path, "linear") for name, path in order]
        if not args.no_nosidebar:
            # (reprodocs' notes, which the site loads, from the first copy)
            builds.append((None, next(iter(copies.values())), "nosidebar"))
        for name, path, menu in builds:
            os.environ["PYTHONPATH"] = str(Path(path).resolve())
            measured = timed_theme_build(args.theme, menu, src, out)
            key = f"{args.site}/{src.name}/{args.theme}/{menu}"
            for copy in [name] if name else copies:
                entry = results[copy]["runs"].setdefault(key, {"pages": pages, "runs": []})
                entry["runs"].append(measured)
                save_json(Path(args.json.format(copy=copy)), results[copy])
            print(
                f"{args.theme} {name or ''} ({menu}): {measured['cpu']:.1f} CPU s", file=sys.stderr
            )
    for copy, saved in results.items():
        for key, entry in saved["runs"].items():
            least = min(run["cpu"] for run in entry["runs"])
            print(f"{copy:10} {key:60} least {least:7.1f} CPU s of {len(entry['runs'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
