"""Benchmark whole HTML builds with and without ``reprodocs.navigation``, theme
by theme: sphinx_rtd_theme, alabaster, classic (with the ``globaltoc.html``
sidebar), furo, pydata-sphinx-theme, the reprodocs theme (which always has
the extension) and, where it is installed (it pins Sphinx <= 7.2.6: run this
with .venv-sphinx72/bin/python), pytorch_sphinx_theme2 set up as
demo/pytorch2/conf.py sets it up; on
the generated N-page API site (see :mod:`sites`; ``--site section``: its API
pages under one section page, as PyTorch's are) and on real sites: Django's
``docs/`` (its source package, fetched with pip into bench/_work) and
PyTorch's docs tree (``--site pytorch``: the toctree skeleton of its
``docs/source`` kept in bench/pytorch_docs_tree.json, about 2,800 stub pages;
see :func:`sites.generate_pytorch_site`). The floor is the basic theme without
sidebars: a build that shows no menu at all.

Each build (``python -m sphinx -b html -E -q``) runs in a fresh process, the
configurations alternating, into an output directory of its own. Wall time,
CPU time (user + system) and peak memory (max RSS) come from the child
process itself (``os.wait4``). The raw numbers are saved after every build
(--json), so that a run stopped early keeps what it measured. Prints a
reStructuredText table with each build's CPU time as a ratio to the same
theme's without the extension and to the floor (on a shared machine, wall
time also measures whatever else runs); --plot draws CPU time against N. It
reports; it never asserts on time. ::

    python bench/themes.py --json bench/results/themes.json        # N = 250 ... 2000
    python bench/themes.py -n 250 --site generated --without-max 250
    python bench/themes.py --site django --json bench/results/django.json
    python bench/themes.py --site pytorch --theme sphinx_rtd_theme --menu linear --menu floor
    .venv-sphinx72/bin/python bench/themes.py --site generated --theme pytorch_sphinx_theme2 \
        --json bench/results/themes-generated-pytorch2.json
    python bench/themes.py --report bench/results/*.json --plot docs/images/build-time.png

Builds without the extension grow with the square of N (about 25 minutes at
N = 2,000 on a 2-core machine), so they run only up to --without-max.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tarfile
from collections.abc import Sequence
from pathlib import Path

import sphinx

from measure import save_json, timed_build
from sites import generate_pytorch_site, generate_site

WORK = Path(__file__).resolve().parent / "_work"
#: Where pytorch_sphinx_theme2's settings come from, as for the demo.
PYTORCH2_CONF = Path(__file__).resolve().parents[1] / "demo" / "pytorch2" / "conf.py"
DJANGO = "django==5.2.19"

#: Appended to a site's conf.py: the theme and whether the extension is on
#: come from the environment, so that every build reads the very same sources.
CONF_TAIL = """
# -- bench/themes.py ---------------------------------------------------------
import os as _bench_os

html_theme = _bench_os.environ["BENCH_THEME"]
if _bench_os.environ.get("BENCH_MENU") == "linear":
    extensions = [*extensions, "reprodocs.navigation"]
if html_theme == "classic":
    html_sidebars = {"**": ["globaltoc.html", "searchbox.html"]}
elif html_theme == "basic":  # the floor: no menu at all
    html_sidebars = {"**": []}
elif html_theme == "pytorch_sphinx_theme2":  # set up as demo/pytorch2/conf.py sets it up
    import runpy as _bench_runpy

    _bench_demo = _bench_runpy.run_path(_bench_os.environ["BENCH_PYTORCH2_CONF"])
    extensions = [*extensions, "pytorch_sphinx_theme2"]
    html_theme_path = _bench_demo["html_theme_path"]
    templates_path = _bench_demo["templates_path"]
    html_theme_options = _bench_demo["html_theme_options"]
    html_context = _bench_demo["html_context"]
if _bench_os.environ.get("BENCH_MENU") == "nosidebar":  # the same theme, no sidebar to pay for
    html_sidebars = {"**": []}
"""

GENERATED_CONF = """\
project = "PyTorch-shaped benchmark"
copyright = "2019, Torch Contributors"
extensions = ["reprodocs"]
"""

PYTORCH_CONF = """\
project = "PyTorch docs tree"
copyright = "PyTorch Contributors"
extensions = ["reprodocs"]
"""

#: Django's own settings that would reach the network or need its theme.
DJANGO_CONF = """
intersphinx_mapping = {}
html_theme_path = []
"""

#: The generated sites' pages besides their N API pages, by site: builds
#: without the extension run only while N <= --without-max. PyTorch's tree
#: counts all its pages as N (all are stubs the generator writes, about 2,800).
GENERATED_EXTRA_PAGES = {
    "generated": ("index", "notes/randomness"),
    "section": ("index", "notes/randomness", "api/index"),
    "pytorch": (),
}
#: The order of the sites in the tables.
SITES = ("generated", "section", "django", "pytorch", "torch-api")

THEMES = (
    "sphinx_rtd_theme",
    "alabaster",
    "classic",
    "furo",
    "pydata_sphinx_theme",
    "reprodocs",
    "pytorch_sphinx_theme2",
)
#: Themes measured only where they are installed (pytorch_sphinx_theme2 pins
#: Sphinx <= 7.2.6: `make demo-pytorch2`).
OPTIONAL_THEMES = ("pytorch_sphinx_theme2",)
FLOOR = ("basic", "sphinx")


#: (theme, menu): menu "linear" with the extension, "sphinx" without it,
#: "nosidebar" the same theme without it and with html_sidebars = {"**": []}
#: (what the theme costs when its sidebar costs nothing). The reprodocs theme
#: always sets the extension up.
def configurations(themes: list[str]) -> list[tuple[str, str]]:
    configs = [FLOOR]
    for theme in themes:
        configs.append((theme, "linear"))
        if theme != "reprodocs":
            configs += [(theme, "sphinx"), (theme, "nosidebar")]
    return configs


def default_themes() -> list[str]:
    """Every theme but the optional ones not installed here."""
    return [
        theme for theme in THEMES
        if theme not in OPTIONAL_THEMES or importlib.util.find_spec(theme) is not None
    ]  # fmt: skip


def timed_theme_build(
    theme: str, menu: str, src: Path, out: Path, pages: Sequence[Path] = ()
) -> dict[str, float]:
    """One fresh build (writing only ``pages`` if given, with the pages whose
    toctrees list them); wall and CPU seconds and peak memory of the process."""
    shutil.rmtree(out, ignore_errors=True)
    env = {
        **os.environ,
        "BENCH_THEME": theme,
        "BENCH_MENU": menu,
        "BENCH_PYTORCH2_CONF": str(PYTORCH2_CONF),
    }
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-E", "-q", str(src), str(out)]
    build = timed_build([*command, *map(str, pages)], env)
    html_bytes, links = written_html(out)
    return {"wall": build.wall, "cpu": build.cpu, "max_rss_mb": build.max_rss_mb,
            "html_bytes": html_bytes, "links": links}  # fmt: skip


def written_html(out: Path) -> tuple[int, int]:
    """The bytes of HTML a build wrote, and the links in them (``<a`` tags)."""
    html_bytes = links = 0
    for page in out.rglob("*.html"):
        content = page.read_bytes()
        html_bytes += len(content)
        links += content.count(b"<a ") + content.count(b"<a\n")
    return html_bytes, links


def generated_site(n: int, section: bool = False) -> Path:
    name = f"themes-section-{n}" if section else f"themes-{n}"
    src = generate_site(WORK / name, n, note="directive", index_table=True, section=section)
    (src / "conf.py").write_text(GENERATED_CONF + CONF_TAIL, encoding="utf-8")
    return src


def pytorch_site() -> Path:
    """PyTorch's docs tree as stub pages (bench/pytorch_docs_tree.json), conf.py
    extended as above."""
    src = generate_pytorch_site(WORK / "pytorch-tree")
    (src / "conf.py").write_text(PYTORCH_CONF + CONF_TAIL, encoding="utf-8")
    return src


def django_site() -> Path:
    """Django's docs/ from its source package (pip download), conf.py
    extended as above; fetched once."""
    src = WORK / "django-docs"
    if not (src / "conf.py").is_file():
        download = WORK / "django-download"
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
             "--no-binary", ":all:", DJANGO, "-d", str(download)],
            check=True,
        )  # fmt: skip
        archive = next(download.glob("django-*.tar.gz"))
        with tarfile.open(archive) as tar:
            tar.extractall(WORK / "django-source", filter="data")
        docs = next((WORK / "django-source").glob("django-*/docs"))
        shutil.rmtree(src, ignore_errors=True)
        shutil.copytree(docs, src)
        conf = src / "conf.py"
        # Django's conf.py imports from the package beside docs/.
        text = conf.read_text(encoding="utf-8").replace(
            "sys.path.insert(1, dirname(dirname(abspath(__file__))))",
            f"sys.path.insert(1, {str(docs.parent)!r})",
        )
        conf.write_text(text + DJANGO_CONF + CONF_TAIL, encoding="utf-8")
    return src


def run(sites: list[tuple[str, Path]], configs: list[tuple[str, str]], without_max: int,
        repeats: int, save) -> dict:  # fmt: skip
    results: dict = {
        "runs": {},
        "python": platform.python_version(),
        "sphinx": sphinx.__version__,
        "without_max": without_max,
    }
    for site, src in sites:
        n = len(list(src.rglob("*.rst"))) + len(list(src.rglob("*.txt")))
        runs = [
            (theme, menu)
            for theme, menu in configs
            if (theme, menu) == FLOOR or menu != "sphinx" or site not in GENERATED_EXTRA_PAGES
            or n <= without_max + len(GENERATED_EXTRA_PAGES[site])
        ]  # fmt: skip
        for repeat in range(repeats):
            # Alternate the order, so that drift on the machine hits all alike.
            for theme, menu in runs if repeat % 2 == 0 else runs[::-1]:
                measured = timed_theme_build(
                    theme, menu, src, WORK / f"out-{src.name}-{theme}-{menu}"
                )
                key = f"{site}/{src.name}/{theme}/{menu}"
                results["runs"].setdefault(key, {"pages": n, "runs": []})["runs"].append(measured)
                print(f"{src.name} {theme} ({menu}): {measured['wall']:.1f} s", file=sys.stderr)
                save(results)
    return results


def summary(results: dict) -> list[dict]:
    rows = []
    for key, entry in results["runs"].items():
        site, name, theme, menu = key.split("/")
        runs = entry["runs"]
        rows.append({
            "site": site, "name": name, "pages": entry["pages"], "theme": theme, "menu": menu,
            "runs": len(runs),
            "wall": statistics.median(r["wall"] for r in runs),
            "cpu": statistics.median(r["cpu"] for r in runs),
            "max_rss_mb": max(r["max_rss_mb"] for r in runs),
            # (runs saved before these were measured have neither)
            "html_mb": runs[-1]["html_bytes"] / 2**20 if "html_bytes" in runs[-1] else None,
            "links": runs[-1].get("links"),
        })  # fmt: skip
    # Ratios of CPU time: on a shared machine, wall time also measures the
    # other work running at the same time.
    cpus = {(r["name"], r["theme"], r["menu"]): r["cpu"] for r in rows}
    links = {(r["name"], r["theme"], r["menu"]): r["links"] for r in rows}
    for row in rows:
        row["cpu_per_page_ms"] = 1000 * row["cpu"] / row["pages"]
        without = cpus.get((row["name"], row["theme"], "sphinx"))
        floor = cpus.get((row["name"], *FLOOR))
        row["vs_without"] = row["cpu"] / without if without and row["menu"] == "linear" else None
        row["vs_floor"] = row["cpu"] / floor if floor else None
        alone = cpus.get((row["name"], row["theme"], "nosidebar"))
        menued = row["menu"] in ("linear", "sphinx")
        row["vs_nosidebar"] = row["cpu"] / alone if alone and menued else None
        # What each link a menu adds to the pages costs: the CPU time beyond
        # the same theme's without a sidebar, per link beyond its links (none
        # where that build costs more: furo computes its menu without one).
        plain = links.get((row["name"], row["theme"], "nosidebar"))
        more = row["links"] - plain if menued and row["links"] and plain else 0
        beyond = row["cpu"] - alone if alone else 0
        row["us_per_menu_link"] = 1e6 * beyond / more if beyond > 0 and more > 0 else None
    order = [FLOOR[0], *THEMES]
    return sorted(
        rows,
        key=lambda r: (SITES.index(r["site"]), r["pages"], order.index(r["theme"]), r["menu"]),
    )


def table(results: dict) -> str:
    """The results as a reStructuredText table (docs/performance.rst)."""
    header = ("site", "pages", "theme", "menu", "wall s", "CPU s", "CPU ms per page",
              "peak RSS MB", "HTML MB", "µs per menu link", "CPU × without",
              "CPU × no sidebar", "CPU × floor")  # fmt: skip

    def ratio(value: float | None, digits: int = 3) -> str:
        return f"{value:.{digits}f}" if value is not None else "–"

    lines = [".. csv-table::", "   :header: " + ", ".join(f'"{h}"' for h in header), ""]
    for r in summary(results):
        menu = "floor (no menu)" if (r["theme"], r["menu"]) == FLOOR else {
            "linear": "reprodocs.navigation", "sphinx": "Sphinx's", "nosidebar": "no sidebar"
        }[r["menu"]]  # fmt: skip
        cells = (r["site"], r["pages"], r["theme"], menu, f"{r['wall']:.1f}", f"{r['cpu']:.1f}",
                 f"{r['cpu_per_page_ms']:.1f}", f"{r['max_rss_mb']:.0f}",
                 ratio(r["html_mb"], 1), ratio(r["us_per_menu_link"], 2),
                 ratio(r["vs_without"]), ratio(r["vs_nosidebar"]),
                 ratio(r["vs_floor"]))  # fmt: skip
        lines.append("   " + ", ".join(f'"{cell}"' for cell in cells))
    counts = sorted({len(entry["runs"]) for entry in results["runs"].values()})
    runs = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
    lines += [
        "",
        (
            f"{runs} run(s) per row (median wall and CPU time, highest peak memory); "
            f"Python {results['python']}, Sphinx {results['sphinx']}."
        ),
    ]
    return "\n".join(lines)


def merged(paths: list[Path]) -> dict:
    """Saved results of several runs as one (same machine, same versions):
    the runs of a build measured in several files are all kept."""
    results: dict = {"runs": {}}
    for path in paths:
        saved = json.loads(path.read_text(encoding="utf-8"))
        for key, entry in saved["runs"].items():
            kept = results["runs"].setdefault(key, {"pages": entry["pages"], "runs": []})
            kept["runs"] += entry["runs"]
        for key in ("python", "sphinx"):
            results[key] = saved[key]
    return results


def plot(results: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in summary(results) if r["site"] == "generated"]
    figure, axes = plt.subplots(figsize=(7.5, 4.5), dpi=120)
    colors = dict(zip(THEMES, ("C0", "C1", "C2", "C3", "C5", "C4", "C6"), strict=True))
    for theme, menu in [FLOOR, *((t, m) for t in THEMES for m in ("linear", "sphinx"))]:
        points = sorted((r["pages"], r["cpu"]) for r in rows
                        if r["theme"] == theme and r["menu"] == menu)  # fmt: skip
        if not points:
            continue
        if (theme, menu) == FLOOR:
            style = {"color": "black", "linestyle": ":", "label": "floor (basic, no menu)"}
        elif menu == "linear":
            style = {"color": colors[theme], "label": f"{theme}, reprodocs.navigation"}
        else:
            style = {"color": colors[theme], "linestyle": "--", "label": f"{theme}, Sphinx's menu"}
        axes.plot(*zip(*points, strict=True), marker="o", **style)
    axes.set_xlabel("pages")
    axes.set_ylabel("full HTML build, CPU seconds (median)")
    axes.set_title("Generated API site: build time against size")
    axes.grid(True, alpha=0.3)
    axes.legend(fontsize="small")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, metadata={"Software": None})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--pages", type=int, action="append", help="generated site sizes")
    parser.add_argument(
        "--site",
        choices=(*SITES, "both"),
        default="both",
        help="which sites: the flat generated one, the generated one with its API pages "
        "under one section, Django's, PyTorch's docs tree (stub pages); both: generated "
        "and django",
    )
    parser.add_argument("--theme", action="append", choices=THEMES, help="themes (default: all)")
    parser.add_argument(
        "--menu", action="append", choices=("linear", "sphinx", "nosidebar", "floor"),
        help="which builds: with the extension, without, the same theme without its "
        "sidebar, the floor (default: all)",
    )  # fmt: skip
    parser.add_argument("-r", "--repeats", type=int, default=1, help="runs per configuration")
    parser.add_argument(
        "--without-max", type=int, default=1000,
        help="largest generated N built without the extension (it grows with N squared)",
    )  # fmt: skip
    parser.add_argument("--json", type=Path, help="save the raw numbers here, after every build")
    parser.add_argument("--plot", type=Path, help="save a PNG plot here (needs matplotlib)")
    parser.add_argument(
        "--report", type=Path, nargs="+", metavar="JSON",
        help="build nothing: report saved runs (of the same build in several files, all)",
    )  # fmt: skip
    args = parser.parse_args(argv)

    def save(results: dict) -> None:
        save_json(args.json, results)

    if args.report:
        results = merged(args.report)
    else:
        sites = []
        if args.site in ("generated", "both"):
            sites += [("generated", generated_site(n))
                      for n in sorted(set(args.pages or [250, 500, 1000, 2000]))]  # fmt: skip
        if args.site == "section":
            sites += [("section", generated_site(n, section=True))
                      for n in sorted(set(args.pages or [250, 500, 1000, 2000]))]  # fmt: skip
        if args.site in ("django", "both"):
            sites.append(("django", django_site()))
        if args.site == "pytorch":
            sites.append(("pytorch", pytorch_site()))
        menus = args.menu or ["linear", "sphinx", "nosidebar", "floor"]
        configs = [
            (theme, menu)
            for theme, menu in configurations(args.theme or default_themes())
            if ("floor" if (theme, menu) == FLOOR else menu) in menus
        ]
        results = run(sites, configs, args.without_max, args.repeats, save)
    print(table(results))
    if args.plot:
        plot(results, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
