"""Estimate a whole build that takes too long to run, from builds that read
every page but write only a sample of them.

A quadratic theme alone on PyTorch's docs tree (pytorch_sphinx_theme2
without ``reprodocs.navigation``: about 83 minutes of CPU here) is
today's gap, but too long for every run. Each build here reads all pages
(``-E``) and writes every K-th page in name order (Sphinx's build of named
files), the rest as ``bench/themes.py`` builds. Two samples give the cost
of writing one more page (the slope); the estimate is the larger sample's
time plus that cost for each page it did not write. It is an estimate, and
reported as one: the pages of each section are spread evenly over the name
order, so the sample's pages cost on average what all pages cost. ::

    .venv-sphinx72/bin/python bench/sampled.py --site pytorch \\
        --theme pytorch_sphinx_theme2 --menu sphinx --every 20 --every 10 \\
        --json bench/results/sampled-issue15-pytorch-tree-pytorch2-alone.json

It reports; it never asserts on time.
"""

from __future__ import annotations

import argparse
import platform
import sys
from pathlib import Path

import sphinx

from measure import save_json
from themes import THEMES, WORK, django_site, pytorch_site, timed_theme_build

#: Each site, with the suffix of its pages.
SITES = {"pytorch": (pytorch_site, ".rst"), "django": (django_site, ".txt")}


def sources(src: Path, suffix: str) -> list[Path]:
    """The site's pages, in name order (Sphinx's order of documents)."""
    return sorted(
        path for path in src.rglob(f"*{suffix}") if "_build" not in path.relative_to(src).parts
    )


def sampled_build(theme: str, menu: str, src: Path, pages: list[Path]) -> dict[str, float]:
    build = timed_theme_build(theme, menu, src, WORK / "sampled-out", pages)
    return {"written": len(pages), **build}


def estimate(total: int, small: dict[str, float], large: dict[str, float]) -> dict[str, float]:
    """The whole build's CPU and wall seconds, extrapolated linearly in the
    pages written."""
    extra = total - large["written"]
    pages = large["written"] - small["written"]
    return {key: large[key] + extra * (large[key] - small[key]) / pages for key in ("cpu", "wall")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", choices=SITES, default="pytorch")
    parser.add_argument("--theme", choices=THEMES, required=True)
    parser.add_argument("--menu", choices=("linear", "sphinx", "nosidebar"), default="sphinx")
    parser.add_argument(
        "--every", type=int, action="append",
        help="write every K-th page (two values: the two samples; default 20 and 10)",
    )  # fmt: skip
    parser.add_argument("--json", type=Path, help="save the raw numbers here")
    args = parser.parse_args(argv)
    every = sorted(set(args.every or [20, 10]), reverse=True)
    if len(every) != 2 or min(every) < 1:
        parser.error("--every takes two different values, each at least 1")

    make_site, suffix = SITES[args.site]
    # Resolved: Sphinx writes only the named files under its (resolved)
    # source folder, and ignores the others.
    src = make_site().resolve()
    pages = sources(src, suffix)
    results: dict = {
        "python": platform.python_version(),
        "sphinx": sphinx.__version__,
        "site": args.site,
        "pages": len(pages),
        "theme": args.theme,
        "menu": args.menu,
        "samples": [],
    }
    for k in every:
        build = sampled_build(args.theme, args.menu, src, pages[::k])
        results["samples"].append({"every": k, **build})
        save_json(args.json, results)
        print(f"every {k}th page ({build['written']} written): {build['cpu']:.1f} CPU s")
    results["estimate"] = estimate(len(pages), *results["samples"])
    save_json(args.json, results)
    print(
        f"estimated whole build ({len(pages)} pages): {results['estimate']['cpu']:.0f} CPU s, "
        f"{results['estimate']['wall']:.0f} s wall"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
