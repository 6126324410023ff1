"""Benchmark whole HTML builds of the same N-page API site with the reprodocs
theme and its peers: sphinx_rtd_theme and, if installed, pytorch_sphinx_theme2.

For each N the site is generated once (see :mod:`sites`); then each theme
builds it (``python -m sphinx -b html -E -q``) in a fresh process, the themes
alternating run by run, into an output directory of its own. Each run's wall
time, CPU time (user + system) and peak memory (max RSS) come from the child
process itself (``os.wait4``). Prints a Markdown table, with the ratio of each
theme's median wall time to sphinx_rtd_theme's, and per-page times; saves the
raw numbers (--json) and a plot of time against N (--plot, needs matplotlib).
It reports; it never asserts on time. ::

    python bench/themes.py                            # N = 250, 500, 1000, 2000
    python bench/themes.py -n 400 -n 1000 -r 3 --plot docs/images/build-time.png

pytorch_sphinx_theme2 pins Sphinx <= 7.2.6; ``make bench`` installs it and
pydata-sphinx-theme 0.15.4 without dependencies into bench/_work/peers, which
only its runs see (PYTHONPATH).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import sphinx

from sites import generate_site

WORK = Path(__file__).resolve().parent / "_work"
PEERS = WORK / "peers"

#: The site's conf.py: the theme comes from the environment, so that every
#: theme builds the very same sources.
CONF_PY = '''\
import os

project = "PyTorch-shaped benchmark"
copyright = "2019, Torch Contributors"
extensions = ["reprodocs"]
html_theme = os.environ["BENCH_THEME"]
if html_theme == "pytorch_sphinx_theme2":
    # What that theme's own documentation sets up.
    import pytorch_sphinx_theme2

    templates_path = [os.path.join(os.path.dirname(pytorch_sphinx_theme2.__file__), "templates")]
    html_context = {"theme_variables": pytorch_sphinx_theme2.get_theme_variables()}
'''

THEMES = ("reprodocs", "sphinx_rtd_theme", "pytorch_sphinx_theme2")
BASELINE = "sphinx_rtd_theme"


def available_themes() -> list[str]:
    themes = ["reprodocs", "sphinx_rtd_theme"]
    if (PEERS / "pytorch_sphinx_theme2").is_dir():
        themes.append("pytorch_sphinx_theme2")
    return themes


def timed_build(theme: str, src: Path, out: Path, jobs: int) -> dict[str, float]:
    """One fresh build; wall and CPU seconds and peak memory of the process."""
    shutil.rmtree(out, ignore_errors=True)
    env = {**os.environ, "BENCH_THEME": theme}
    if theme == "pytorch_sphinx_theme2":
        env["PYTHONPATH"] = str(PEERS)
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-E", "-q", "-j", str(jobs)]
    start = time.perf_counter()
    process = subprocess.Popen(
        [*command, str(src), str(out)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    errors = process.stderr.read().decode() if process.stderr else ""
    if os.waitstatus_to_exitcode(status):
        sys.exit(f"{theme} failed to build {src}:\n{errors}")
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "max_rss_mb": usage.ru_maxrss / 1024,  # ru_maxrss is in KiB on Linux
    }


def run(sizes: list[int], repeats: int, peer_max: int, parallel_at: int | None) -> dict:
    themes = available_themes()
    results: dict = {"sizes": sizes, "repeats": repeats, "themes": themes, "runs": {}}
    for n in sizes:
        src = generate_site(WORK / f"themes-{n}", n, note="directive", index_table=True)
        (src / "conf.py").write_text(CONF_PY, encoding="utf-8")
        runners = [t for t in themes if t == "reprodocs" or n <= peer_max]
        for repeat in range(repeats):
            # Alternate the order, so that drift on the machine hits all alike.
            order = runners if repeat % 2 == 0 else runners[::-1]
            for theme in order:
                run_ = timed_build(theme, src, WORK / f"themes-{n}-{theme}", jobs=1)
                results["runs"].setdefault(f"{theme}/{n}", []).append(run_)
                print(f"N={n} {theme}: {run_['wall']:.1f} s", file=sys.stderr)
        if n == parallel_at:
            for theme in runners:
                run_ = timed_build(theme, src, WORK / f"themes-{n}-{theme}-j2", jobs=2)
                results["runs"].setdefault(f"{theme}/{n}/j2", []).append(run_)
    results["python"] = platform.python_version()
    results["sphinx"] = sphinx.__version__
    return results


def summary(results: dict) -> list[dict]:
    rows = []
    for key, runs in results["runs"].items():
        theme, n, *jobs = key.split("/")
        rows.append({
            "theme": theme,
            "n": int(n),
            "jobs": 2 if jobs else 1,
            "wall": statistics.median(r["wall"] for r in runs),
            "cpu": statistics.median(r["cpu"] for r in runs),
            "max_rss_mb": max(r["max_rss_mb"] for r in runs),
        })
    baseline = {(r["n"], r["jobs"]): r["wall"] for r in rows if r["theme"] == BASELINE}
    for row in rows:
        row["per_page_ms"] = 1000 * row["wall"] / row["n"]
        base = baseline.get((row["n"], row["jobs"]))
        row["ratio"] = row["wall"] / base if base else None
    return sorted(rows, key=lambda r: (r["n"], r["jobs"], THEMES.index(r["theme"])))


def markdown(results: dict) -> str:
    lines = [
        "| N | theme | -j | median wall s | median CPU s | ms per page | peak RSS MB | × rtd |",
        "|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    rows = summary(results)
    for r in rows:
        ratio = f"{r['ratio']:.3f}" if r["ratio"] is not None else "–"
        lines.append(
            f"| {r['n']} | {r['theme']} | {r['jobs']} | {r['wall']:.1f} | {r['cpu']:.1f} "
            f"| {r['per_page_ms']:.1f} | {r['max_rss_mb']:.0f} | {ratio} |"
        )
    ours = {r["n"]: r["per_page_ms"] for r in rows if r["theme"] == "reprodocs" and r["jobs"] == 1}
    if 500 in ours and 2000 in ours:
        lines += ["", f"reprodocs per page, N=2000 / N=500: {ours[2000] / ours[500]:.3f}"]
    versions = f"Python {results['python']}, Sphinx {results['sphinx']}"
    counts = sorted({len(runs) for runs in results["runs"].values()})
    runs = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
    lines += ["", f"{runs} run(s) per theme and N (median); {versions}."]
    return "\n".join(lines)


def merged(paths: list[Path]) -> dict:
    """Saved results of several runs as one (same machine, same versions)."""
    results: dict = {"runs": {}, "themes": []}
    for path in paths:
        saved = json.loads(path.read_text(encoding="utf-8"))
        results["runs"].update(saved["runs"])
        results["themes"] += [t for t in saved["themes"] if t not in results["themes"]]
        for key in ("repeats", "python", "sphinx"):
            results[key] = saved[key]
    results["sizes"] = sorted({int(key.split("/")[1]) for key in results["runs"]})
    return results


def plot(results: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in summary(results) if r["jobs"] == 1]
    figure, axes = plt.subplots(figsize=(7, 4.2), dpi=120)
    for theme in results["themes"]:
        points = sorted((r["n"], r["wall"]) for r in rows if r["theme"] == theme)
        if points:
            axes.plot(*zip(*points, strict=True), marker="o", label=theme)
    axes.set_xlabel("pages (N)")
    axes.set_ylabel("full HTML build, seconds (median)")
    axes.set_title("Build time against site size, -j 1")
    axes.grid(True, alpha=0.3)
    axes.legend()
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, metadata={"Software": None})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--pages", type=int, action="append", help="site sizes")
    parser.add_argument("-r", "--repeats", type=int, default=1, help="runs per theme and N")
    parser.add_argument(
        "--peer-max", type=int, default=1000,
        help="largest N the peers build (their time grows with the square of N)",
    )  # fmt: skip
    parser.add_argument("--parallel-at", type=int, default=1000, help="N also built with -j 2")
    parser.add_argument("--json", type=Path, help="save the raw numbers here")
    parser.add_argument("--plot", type=Path, help="save a PNG plot here (needs matplotlib)")
    parser.add_argument(
        "--report", type=Path, nargs="+", metavar="JSON",
        help="build nothing: report saved runs (a later file's runs replace an earlier one's)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.report:
        results = merged(args.report)
    else:
        sizes = sorted(set(args.pages or [250, 500, 1000, 2000]))
        results = run(sizes, args.repeats, args.peer_max, args.parallel_at)
    print(markdown(results))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    if args.plot:
        plot(results, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
