"""Megatron-LM's own ``docs/`` on its own stack, as its ``docs/conf.py``
builds them, with and without reprodocs: issue 42's "Megatron's real stack".

Megatron-LM's docs are MyST Markdown (myst_parser), its API reference
sphinx-autodoc2's over ``megatron/core`` (docstrings rendered as MyST), its
theme nvidia-sphinx-theme on pydata-sphinx-theme. From a checkout (copied
to ``bench/_work/megatron-docs``, where autodoc2 writes its
``apidocs/``), three builds, in rounds, in turn first
and last (the machine is shared), each a fresh ``sphinx-build -b html -E``
(not ``-q``: the navigation's summary is an info line):

* ``alone``: Megatron-LM's ``conf.py`` as it is;
* ``reprodocs``: ``"reprodocs"`` added to its ``extensions``;
* ``reprodocs+navigation``: with ``"reprodocs.navigation"`` too, which
  serves pydata-sphinx-theme's sidebar, nvidia-sphinx-theme's
  (docs/navigation.rst).

The copy is made anew on each run; its first build writes autodoc2's
``apidocs/``, which the next ones find unchanged and leave (autodoc2
writes a file only when its text changes). The extensions are added by a
tail appended to the copy's ``conf.py``
(:data:`CONF_TAIL`), from the environment, so that every build reads the
very same sources. The warnings of each build (stderr, the copy's path
taken out) are compared with the theme alone's, as multisets: a warning
the others do not give is a new one. Every page each wrote (``.html``,
and ``_sources``' ``.txt``; the theme's uuids aside) is compared byte for
byte with the theme alone's. Saves the raw numbers after every build
(``--json``) and prints each build's CPU time as a ratio to the theme
alone's in the same run. It reports; it never asserts on time. Run it in a
venv holding Megatron-LM's ``docs`` group as its ``uv.lock`` pins it
(``uv export --frozen --only-group docs``) and reprodocs::

    git -C MEGATRON_GIT archive HEAD | tar -x -C /tmp/megatron-src
    /work/venv-megatron/bin/python bench/megatron_docs.py /tmp/megatron-src \\
        --commit $(git -C MEGATRON_GIT rev-parse HEAD) --json bench/results/megatron-docs.json
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from measure import save_json, timed_build
from themes import WORK
from torch_api import differences, written

#: Each build: the extensions added to Megatron-LM's own.
BUILDS = {
    "alone": (),
    "reprodocs": ("reprodocs",),
    "reprodocs+navigation": ("reprodocs", "reprodocs.navigation"),
}
#: The build the others are compared with.
BASE = "alone"
#: The distributions of Megatron-LM's docs stack, whose versions a result keeps.
STACK = (
    "sphinx",
    "myst-parser",
    "sphinx-autodoc2",
    "nvidia-sphinx-theme",
    "pydata-sphinx-theme",
    "sphinx-copybutton",
    "docutils",
    "reprodocs",
)

#: Appended to the copy's conf.py: the extensions a build adds come from the
#: environment.
CONF_TAIL = """
# -- bench/megatron_docs.py --------------------------------------------------
import os as _bench_os

extensions = [*extensions, *filter(None, _bench_os.environ.get("BENCH_EXTENSIONS", "").split(","))]
"""

#: Where a message of Sphinx's log starts (its level after the location).
MESSAGE = re.compile(r"\b(WARNING|ERROR|CRITICAL):")
#: The navigation's summary in a build's log (docs/navigation.rst).
NAVIGATION = "reprodocs.navigation:"


def prepare(checkout: Path, root: Path) -> Path:
    """A copy of *checkout* at *root* (made anew; not its ``.git`` nor a
    ``_build``), its ``docs/conf.py`` followed by :data:`CONF_TAIL`; its docs
    folder. The whole tree: its pages link to files beside ``docs/`` (a
    test under ``tests/``), which a build copies, and warns about if
    missing."""
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(checkout, root, ignore=shutil.ignore_patterns(".git", "_build"))
    conf = root / "docs" / "conf.py"
    conf.write_text(conf.read_text(encoding="utf-8") + CONF_TAIL, encoding="utf-8")
    return root / "docs"


def warnings_of(stderr: str, root: Path) -> Counter[str]:
    """A build's warnings, each once per time given: a message and the lines
    that continue it, the copy's path (*root*) taken out of its location."""
    messages: list[str] = []
    for line in stderr.replace(f"{root}/", "").splitlines():
        if MESSAGE.search(line) or not messages:
            messages.append(line)
        else:
            messages[-1] += "\n" + line
    return Counter(message for message in messages if message.strip())


def new_warnings(base: Counter[str], other: Counter[str]) -> list[str]:
    """The warnings *other* gives more often than *base*, sorted."""
    return sorted((other - base).elements())


def navigation_summary(log: str) -> list[str]:
    """The navigation's lines in a build's log."""
    return [line.strip() for line in log.splitlines() if line.startswith(NAVIGATION)]


def commit(checkout: Path) -> str | None:
    """The checkout's commit, if it is a git work tree."""
    answer = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "HEAD"],
        check=False, capture_output=True, text=True,
    )  # fmt: skip
    return answer.stdout.strip() if answer.returncode == 0 else None


def stack() -> dict[str, str | None]:
    versions: dict[str, str | None] = {}
    for name in STACK:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def ratios(runs: dict[str, list[dict[str, float]]]) -> dict[str, float]:
    """Each build's median CPU time over the theme alone's."""
    alone = statistics.median(run["cpu"] for run in runs[BASE])
    return {name: statistics.median(run["cpu"] for run in kept) / alone
            for name, kept in runs.items()}  # fmt: skip


def compare(results: dict, warned: dict[str, Counter[str]]) -> None:
    """Each build's warnings and pages against the theme alone's, and its CPU
    time's ratio to it, into *results* (after each round: a run stopped early
    keeps them)."""
    base = written(WORK / f"out-megatron-docs-{BASE}")
    for name in BUILDS:
        results["new_warnings"][name] = new_warnings(warned[BASE], warned[name])
        results["gone_warnings"][name] = new_warnings(warned[name], warned[BASE])
        pages = written(WORK / f"out-megatron-docs-{name}")
        changed = differences(base, pages)
        # (the .html files: the pages, and nvidia-sphinx-theme's _static/webpack-macros.html)
        results["pages"][name] = sum(1 for page in pages if page.endswith(".html"))
        results["identical"][name] = not changed
        results["differing"][name] = changed[:20]
    results["cpu_vs_alone"] = ratios(results["runs"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="a Megatron-LM checkout (docs/, megatron/)")
    parser.add_argument("-r", "--rounds", type=int, default=1, help="builds of each kind")
    parser.add_argument("--json", type=Path, help="save the raw numbers here, after every build")
    parser.add_argument(
        "--reverse", action="store_true",
        help="begin with the last build (a second run, balancing the first's order)",
    )  # fmt: skip
    parser.add_argument(
        "--commit", help="the checkout's commit, where it is no git work tree (git archive)"
    )
    args = parser.parse_args(argv)
    root = WORK / "megatron-docs"
    docs = prepare(args.checkout.resolve(), root)
    results: dict = {
        "python": platform.python_version(), "stack": stack(),
        "checkout": str(args.checkout), "commit": args.commit or commit(args.checkout),
        "runs": {}, "warnings": {}, "warned": {}, "new_warnings": {}, "gone_warnings": {},
        "navigation": [], "pages": {}, "identical": {}, "differing": {},
    }  # fmt: skip
    warned: dict[str, Counter[str]] = {}
    builds = list(BUILDS)[::-1] if args.reverse else list(BUILDS)
    for round_ in range(args.rounds):
        for name in builds if round_ % 2 == 0 else builds[::-1]:
            out = WORK / f"out-megatron-docs-{name}"
            shutil.rmtree(out, ignore_errors=True)
            env = {**os.environ, "BENCH_EXTENSIONS": ",".join(BUILDS[name])}
            command = [sys.executable, "-m", "sphinx", "-b", "html", "-E", str(docs), str(out)]
            build = timed_build(command, env, output=True)
            measured = {"wall": build.wall, "cpu": build.cpu, "max_rss_mb": build.max_rss_mb}
            results["runs"].setdefault(name, []).append(measured)
            warned[name] = warnings_of(build.warnings, root)
            results["warnings"][name] = sum(warned[name].values())
            results["warned"][name] = sorted(warned[name].elements())
            if "reprodocs.navigation" in BUILDS[name]:
                results["navigation"] = navigation_summary(build.output)
            print(f"{name}: {build.wall:.1f} s, CPU {build.cpu:.1f} s, "
                  f"{results['warnings'][name]} warnings", file=sys.stderr)  # fmt: skip
            save_json(args.json, results)
        compare(results, warned)
        save_json(args.json, results)
    for name in BUILDS:
        print(f"{name:22} CPU {statistics.median(r['cpu'] for r in results['runs'][name]):7.1f} s "
              f"({results['cpu_vs_alone'][name]:.3f} x alone), "
              f"{results['warnings'][name]} warnings ({len(results['new_warnings'][name])} new), "
              f"{results['pages'][name]} pages, identical: {results['identical'][name]}")  # fmt: skip
    for line in results["navigation"]:
        print(line)
    faults = any(results["new_warnings"].values()) or not all(results["identical"].values())
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
