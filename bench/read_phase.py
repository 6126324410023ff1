"""Benchmark the read phase: ``.. cuda-deterministic-backward::`` against the
same note written by hand.

Generates two N-page sites (see :mod:`sites`) into ``bench/_work/``, then
times ``python -m sphinx -b dummy -E -q -j 1 SRC OUT`` on each in fresh
subprocesses: one untimed warm-up per variant, then the variants alternate
(ABAB...) so that drift on the machine hits both alike. Prints a Markdown
table of per-variant median and minimum wall times and the ratios
directive/handwritten; the goal (``docs/performance.rst``) is on the
ratio of the least wall times of 5 runs. It reports; it never asserts on
time. ::

    python bench/read_phase.py                # N=400, 5 runs per variant
    python bench/read_phase.py -n 100 -r 3 --json bench/_work/read_phase.json
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
from pathlib import Path

import sphinx

from measure import save_json, timed_seconds
from sites import generate_site

WORK = Path(__file__).resolve().parent / "_work"
#: The variant measured, then the baseline it is compared with.
VARIANTS = ("directive", "handwritten")


def sphinx_command(src: Path, out: Path) -> list[str]:
    """A full (``-E``), quiet, serial read with the dummy builder."""
    options = ["-b", "dummy", "-E", "-q", "-j", "1"]
    return [sys.executable, "-m", "sphinx", *options, str(src), str(out)]


def run(n: int, repeats: int) -> dict:
    """Generate both sites, time them alternately, and return the results."""
    sites = {v: generate_site(WORK / f"read-{v}", n, note=v) for v in VARIANTS}
    outs = {v: WORK / f"read-{v}-out" for v in VARIANTS}
    for v in VARIANTS:  # warm-up: disk cache, .pyc files
        timed_seconds(sphinx_command(sites[v], outs[v]), sites[v].name)
    runs: dict[str, list[tuple[float, float]]] = {v: [] for v in VARIANTS}
    for _ in range(repeats):
        for v in VARIANTS:
            runs[v].append(timed_seconds(sphinx_command(sites[v], outs[v]), sites[v].name))

    stats = {}
    for v, timings in runs.items():
        wall, cpu = zip(*timings, strict=True)
        stats[v] = {
            "median": statistics.median(wall),
            "min": min(wall),
            "cpu_median": statistics.median(cpu),
            "cpu_min": min(cpu),
            "runs": list(wall),
            "cpu_runs": list(cpu),
        }
    measured, baseline = (stats[v] for v in VARIANTS)
    return {
        "n": n,
        "repeats": repeats,
        "variants": stats,
        "ratio": {k: measured[k] / baseline[k] for k in ("median", "min", "cpu_median", "cpu_min")},
        "python": platform.python_version(),
        "sphinx": sphinx.__version__,
        "platform": platform.platform(),
    }


def markdown(results: dict) -> str:
    """The results as a Markdown table followed by the ratio line."""
    lines = [
        "| variant | N | median wall s | min wall s | median CPU s | min CPU s |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for v, s in results["variants"].items():
        lines.append(
            f"| {v} | {results['n']} | {s['median']:.3f} | {s['min']:.3f} "
            f"| {s['cpu_median']:.3f} | {s['cpu_min']:.3f} |"
        )
    ratio = results["ratio"]
    lines += [
        "",
        (
            f"Ratio {VARIANTS[0]}/{VARIANTS[1]}: min wall {ratio['min']:.3f} (the goal's), "
            f"min CPU {ratio['cpu_min']:.3f}, median CPU {ratio['cpu_median']:.3f}, "
            f"median wall {ratio['median']:.3f} "
            f"({results['repeats']} runs each, "
            f"Python {results['python']}, Sphinx {results['sphinx']})."
        ),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--pages", type=int, default=400, help="pages per site (default 400)")
    parser.add_argument(
        "-r",
        "--repeats",
        type=int,
        default=5,
        help="timed runs per variant (default 5)",
    )
    parser.add_argument("--json", type=Path, metavar="PATH", help="also save the results here")
    args = parser.parse_args(argv)
    if args.pages < 1 or args.repeats < 1:
        parser.error("--pages and --repeats must be at least 1")

    results = run(args.pages, args.repeats)
    print(markdown(results))
    save_json(args.json, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
