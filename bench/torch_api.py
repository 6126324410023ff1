"""Benchmark PyTorch's API reference in pytorch_sphinx_theme2: one autodoc
page per public object of an installed torch, the theme with and without
``reprodocs.navigation``, against the basic theme's floor, in one run.

The site (:func:`generate_torch_site`) is PyTorch's API reference as its
``docs/source`` lays it out: an index whose toctree lists ``torch``,
``nn`` and ``nn.functional``, each an ``autosummary`` table (its
``:toctree: generated``) of one page per object, the pages written here
beforehand (``autosummary_generate = False``) as PyTorch's templates write
them: ``autofunction`` for a function, ``autoclass`` with ``:members:`` for
a module. The objects are those of the torch that a second interpreter
(``--torch``, a venv holding torch) lists: the routines of ``torch.__all__``
with a docstring, the ``nn.Module`` classes of ``torch.nn.modules.__all__``,
the public routines of ``torch.nn.functional`` with a docstring (torch
2.13.0: 478 + 162 + 137 = 777 pages, and the index and three sections). The
builds import torch from that venv's site-packages, put last on
``sys.path`` (the build's own Sphinx and themes come first).

The builds, in rounds, in turn first and last (the machine is shared), each
a fresh ``sphinx-build -E -q`` (:func:`themes.timed_theme_build`):

* the basic theme without sidebars, the floor;
* pytorch_sphinx_theme2 with ``reprodocs.navigation``;
* with ``--alone``, the theme alone (slow: its sidebar and header grow with
  the square of a section's pages); every HTML page, Markdown copy and
  ``llms*.txt`` of the last two is then compared byte for byte (the theme's
  uuids aside).

Saves the raw numbers after every build (``--json``, the format of
``themes.py --json``, which ``themes.py --report`` reads) and prints the
table with the CPU time's ratios. ``--profile MENU`` instead runs one build
under cProfile and prints where its time goes; ``--phases MENU`` one build
with its phases timed (``bench/phases.py``: reading, writing, the page
templates, the Markdown copies with the theme's worker processes, which
cProfile does not see). It reports; it never asserts on time. Run it in
the Sphinx 7.2.6 venv, which holds the theme::

    .venv-sphinx72/bin/python bench/torch_api.py --torch /work/venv-torch/bin/python \\
        -r 3 --alone --json bench/results/torch-api-issue43.json
    .venv-sphinx72/bin/python bench/torch_api.py --torch /work/venv-torch/bin/python \\
        --profile linear
    .venv-sphinx72/bin/python bench/torch_api.py --torch /work/venv-torch/bin/python \\
        --phases floor --phases linear
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import pstats
import shutil
import subprocess
import sys
from pathlib import Path

import sphinx

sys.path.insert(0, str(Path(__file__).parent))
from dates import UUID
from measure import save_json
from themes import CONF_TAIL, FLOOR, PYTORCH2_CONF, WORK, table, timed_theme_build

THEME = "pytorch_sphinx_theme2"

#: Run by the torch venv's interpreter: torch's version, its site-packages
#: and the public objects, by section.
LISTING = r"""
import inspect, json, warnings
from pathlib import Path
warnings.simplefilter("ignore")
import torch, torch.nn as nn, torch.nn.functional as F

def documented(obj):
    return bool((getattr(obj, "__doc__", None) or "").strip())

print(json.dumps({
    "version": torch.__version__,
    "site": str(Path(torch.__file__).parents[1]),
    "torch": sorted(  # (torch.__all__ lists some names twice)
        {name for name in torch.__all__
        if not name.startswith("_") and inspect.isroutine(getattr(torch, name, None))
        and documented(getattr(torch, name))}
    ),
    "nn": sorted(
        name for name in nn.modules.__all__
        if inspect.isclass(getattr(nn, name, None)) and issubclass(getattr(nn, name), nn.Module)
    ),
    "nn.functional": sorted(
        name for name in dir(F)
        if not name.startswith("_") and inspect.isroutine(getattr(F, name))
        and documented(getattr(F, name))
    ),
}))
"""

#: Each section: its page's title, the module its objects are in, how a
#: page documents one.
SECTIONS = {
    "torch": ("torch", "torch", "autofunction"),
    "nn": ("torch.nn", "torch.nn", "autoclass"),
    "nn.functional": ("torch.nn.functional", "torch.nn.functional", "autofunction"),
}

CONF = """\
import sys

project = "PyTorch"
copyright = "PyTorch Contributors"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.autosummary", "sphinx.ext.napoleon"]
autosummary_generate = False
# torch from its own venv, after this venv's Sphinx and themes; imported
# here, before the theme's settings (demo/pytorch2/conf.py) put the demo's
# stub torch first on sys.path
sys.path.append({site!r})
import torch
"""

INDEX = """\
PyTorch documentation
=====================

.. toctree::
   :maxdepth: 1
   :caption: Python API

   torch
   nn
   nn.functional
"""


def underlined(title: str, mark: str = "=") -> str:
    return f"{title}\n{mark * len(title)}\n"


def section_page(title: str, module: str, names: list[str]) -> str:
    entries = "".join(f"    {name}\n" for name in names)
    return (
        f"{underlined(title)}\n.. automodule:: {module}\n\n.. currentmodule:: {module}\n\n"
        f".. autosummary::\n    :toctree: generated\n    :nosignatures:\n\n{entries}"
    )


def object_page(module: str, name: str, directive: str) -> str:
    members = "    :members:\n" if directive == "autoclass" else ""
    return (
        f"{underlined(f'{module}.{name}')}\n.. currentmodule:: {module}\n\n"
        f".. {directive}:: {name}\n{members}"
    )


def generate_torch_site(root: Path, listing: dict) -> Path:
    """The site's sources at *root* (made anew), from :data:`LISTING`'s
    answer; the same listing gives the same files."""
    shutil.rmtree(root, ignore_errors=True)
    (root / "generated").mkdir(parents=True)
    files = {"conf.py": CONF.format(site=listing["site"]) + CONF_TAIL, "index.rst": INDEX}
    for section, (title, module, directive) in SECTIONS.items():
        names = listing[section]
        files[f"{section}.rst"] = section_page(title, module, names)
        for name in names:
            files[f"generated/{module}.{name}.rst"] = object_page(module, name, directive)
    for path, text in files.items():
        (root / path).write_text(text, encoding="utf-8")
    return root


def written(out: Path) -> dict[str, bytes]:
    """What a build wrote that a reader sees: its pages, their Markdown
    copies and ``llms*.txt``, the theme's uuids made one."""
    return {
        str(path.relative_to(out)): UUID.sub(b"UUID", path.read_bytes())
        for path in sorted(out.rglob("*"))
        if path.suffix in (".html", ".md", ".txt") and ".doctrees" not in path.parts
    }


def differences(ours: dict[str, bytes], theirs: dict[str, bytes]) -> list[str]:
    """The files only one build wrote or that differ, sorted."""
    return sorted(
        name for name in ours.keys() | theirs.keys() if ours.get(name) != theirs.get(name)
    )


def build_env(menu: str) -> dict[str, str]:
    """The environment of a build of *menu* (floor, linear, sphinx)."""
    theme = FLOOR[0] if menu == "floor" else THEME
    return {**os.environ, "BENCH_THEME": theme, "BENCH_MENU": FLOOR[1] if menu == "floor" else menu,
            "BENCH_PYTORCH2_CONF": str(PYTORCH2_CONF)}  # fmt: skip


def profile(src: Path, menu: str, top: int) -> None:
    """One build of *menu* under cProfile; its functions by cumulative and
    by own time (the theme's Markdown worker processes are not seen)."""
    out = WORK / f"out-{src.name}-profile-{menu}"
    stats = WORK / f"{src.name}-{menu}.prof"
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", str(stats), "-m", "sphinx", "-b", "html",
         "-E", "-q", str(src), str(out)],
        env=build_env(menu), check=True, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    for order in ("cumulative", "tottime"):
        pstats.Stats(str(stats)).sort_stats(order).print_stats(top)
    print(f"profile saved in {stats}", file=sys.stderr)


def phases(src: Path, menu: str) -> None:
    """One build of *menu*, its phases timed (bench/phases.py)."""
    out = WORK / f"out-{src.name}-phases-{menu}"
    shutil.rmtree(out, ignore_errors=True)
    runner = Path(__file__).parent / "phases.py"
    answer = subprocess.run(
        [sys.executable, str(runner), "-b", "html", "-E", "-q", str(src), str(out)],
        env=build_env(menu), check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True,
    )  # fmt: skip
    print(f"{menu}:")
    print("".join(line + "\n" for line in answer.stdout.splitlines() if " CPU " in line))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--torch", required=True, help="a Python that imports torch")
    parser.add_argument("-r", "--rounds", type=int, default=1, help="builds of each kind")
    parser.add_argument("--alone", action="store_true", help="the theme alone too (slow)")
    parser.add_argument(
        "--before", type=Path, metavar="SRC",
        help="also pytorch_sphinx_theme2 with the navigation of another copy of src/ "
        "(git archive BASE src | tar -x -C DIR; then DIR/src)",
    )  # fmt: skip
    parser.add_argument("--json", type=Path, help="save the raw numbers here, after every build")
    parser.add_argument("--profile", choices=("floor", "linear", "sphinx"),
                        help="no benchmark: one build under cProfile")  # fmt: skip
    parser.add_argument("--top", type=int, default=40, help="functions the profile prints")
    parser.add_argument("--phases", choices=("floor", "linear", "sphinx"), action="append",
                        help="no benchmark: one build each, its phases timed")  # fmt: skip
    args = parser.parse_args(argv)
    answer = subprocess.run(
        [args.torch, "-c", LISTING], capture_output=True, text=True, check=True
    ).stdout
    listing = json.loads(answer)
    src = generate_torch_site(WORK / f"torch-api-{listing['version']}", listing)
    pages = sum(1 for _ in src.rglob("*.rst"))
    if args.profile:
        profile(src, args.profile, args.top)
        return 0
    if args.phases:
        for menu in args.phases:
            phases(src, menu)
        return 0
    # (theme, menu, the reprodocs on PYTHONPATH: None for the one installed)
    builds = [(*FLOOR, None), (THEME, "linear", None)]
    builds += [(THEME, "linear", args.before.resolve())] if args.before else []
    builds += [(THEME, "sphinx", None)] if args.alone else []
    results: dict = {
        "runs": {}, "python": platform.python_version(), "sphinx": sphinx.__version__,
        "without_max": pages, "torch": listing["version"],
        "objects": {section: len(listing[section]) for section in SECTIONS},
    }  # fmt: skip
    for round_ in range(args.rounds):
        for theme, menu, before in builds if round_ % 2 == 0 else builds[::-1]:
            os.environ.pop("PYTHONPATH", None)
            if before is not None:
                os.environ["PYTHONPATH"] = str(before)
            out = WORK / f"out-{src.name}-{theme}-{menu}{'-before' if before else ''}"
            measured = timed_theme_build(theme, menu, src, out)
            key = f"torch-api/{src.name}/{theme}/{menu}"
            kept = results.setdefault("before", {}) if before else results["runs"]
            kept.setdefault(key, {"pages": pages, "runs": []})["runs"].append(measured)
            print(f"{theme} ({menu}{', before' if before else ''}): {measured['wall']:.1f} s, "
                  f"CPU {measured['cpu']:.1f} s", file=sys.stderr)  # fmt: skip
            save_json(args.json, results)
    os.environ.pop("PYTHONPATH", None)
    if args.alone:
        changed = differences(
            written(WORK / f"out-{src.name}-{THEME}-linear"),
            written(WORK / f"out-{src.name}-{THEME}-sphinx"),
        )
        results["identical"] = not changed
        results["differing"] = changed[:20]
        save_json(args.json, results)
        print(f"pages identical: {not changed} ({len(changed)} files differ)", file=sys.stderr)
    print(table(results))
    floor = min(
        run["cpu"] for run in results["runs"][f"torch-api/{src.name}/{FLOOR[0]}/{FLOOR[1]}"]["runs"]
    )
    for label, kept in (("", results["runs"]), ("before ", results.get("before", {}))):
        entry = kept.get(f"torch-api/{src.name}/{THEME}/linear")
        if entry:
            least = min(run["cpu"] for run in entry["runs"])
            print(f"{label}pt2 + navigation, least CPU: {least / floor:.3f} x the floor's")
    return 0 if not results.get("differing") else 1


if __name__ == "__main__":
    sys.exit(main())
