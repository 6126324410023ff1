"""Benchmark the collected index in incremental HTML builds.

Generates an N-page site (see :mod:`sites`) whose Reproducibility page holds
``.. nondeterministic-ops::``, into ``bench/_work/incremental``. Each repeat
times, in fresh ``python -m sphinx -b html -q`` subprocesses:

1. a full build (``-E``, fresh output directory);
2. an incremental build after one op page's note was edited (its
   ``cuda-deterministic-backward`` becomes ``cudnn-deterministic``, or back, so
   that every repeat makes a real change);
3. an incremental build after no change at all.

With the default theme (alabaster) every page's sidebar holds the whole
toctree, so the full build grows as N squared; ``--no-sidebars``
(``html_sidebars = {"**": []}``) measures the site without them.

After each build (untimed) it checks that ``nondeterministic.json`` and the
table in ``notes/randomness.html`` describe the notes as they are, and that the
incremental builds rewrote only the pages they should have: the edited page,
the Reproducibility page and ``index`` (Sphinx rewrites the pages whose
toctree lists a rewritten page), then nothing. A failed check exits non-zero.
Prints a Markdown table of medians and the ratio incremental/full; it reports,
never asserts on time. ::

    python bench/incremental.py                  # N=1000, 3 repeats, -j 1
    python bench/incremental.py -n 200 -r 1 --json bench/_work/incremental.json
    python bench/incremental.py --no-sidebars -j 2 --theme classic
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import time
from pathlib import Path

import sphinx
from bs4 import BeautifulSoup

from measure import save_json, timed_seconds
from sites import generate_site, page_rst

WORK = Path(__file__).resolve().parent / "_work"
INDEX_DOC = "notes/randomness"
#: Appended to the site's conf.py by ``--no-sidebars``.
NO_SIDEBARS = 'html_sidebars = {"**": []}\n'
#: The two notes the edited page alternates between, with the backend and pass
#: each stands for.
NOTES = {
    "cuda-deterministic-backward": ("CUDA", "backward"),
    "cudnn-deterministic": ("cuDNN", "both"),
}


class CheckFailed(Exception):
    """The output does not reflect the sources."""


def check(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


def page_mtimes(out: Path, docnames: list[str]) -> dict[str, int]:
    """The modification time (ns) of each document's HTML page."""
    return {doc: (out / f"{doc}.html").stat().st_mtime_ns for doc in docnames}


def rewritten(before: dict[str, int], after: dict[str, int]) -> list[str]:
    return sorted(doc for doc in before if before[doc] != after[doc])


def set_note(src: Path, out: Path, index: int, directive: str) -> Path:
    """Give page *index* the note *directive*, its mtime newer than anything the
    last build wrote (Sphinx compares times to the microsecond)."""
    path = src / "api" / f"op_{index:04d}.rst"
    text = page_rst(index).replace(".. cuda-deterministic-backward::", f".. {directive}::")
    newest = max(
        p.stat().st_mtime_ns
        for p in (
            out / ".doctrees" / "environment.pickle",
            out / "api" / f"op_{index:04d}.html",
        )
    )
    path.write_text(text, encoding="utf-8")
    while path.stat().st_mtime_ns <= newest:
        time.sleep(0.01)
        os.utime(path)
    return path


def expected_rows(n: int, notes: dict[str, str]) -> list[tuple[str, str, str, str]]:
    """(operation, backend, pass, directive) of each note, sorted as the index is."""
    rows = []
    for i in range(n):
        name = f"torch.ops.op_{i:04d}"
        directive = notes.get(name, "cuda-deterministic-backward")
        rows.append((name, *NOTES[directive], directive))
    return sorted(rows)


def verify_index(out: Path, n: int, notes: dict[str, str]) -> None:
    """Check ``nondeterministic.json`` and the HTML table against the notes:
    every op has ``cuda-deterministic-backward`` except those in *notes*."""
    want = expected_rows(n, notes)
    document = json.loads((out / "nondeterministic.json").read_text(encoding="utf-8"))
    check(document.get("version") == 1, "nondeterministic.json: version is not 1")
    got = [(o["name"], o["backend"], o["pass"], o["directive"]) for o in document["operations"]]
    check(got == want, f"nondeterministic.json: operations differ from the notes {notes}")
    for op in document["operations"]:
        page = "api/" + op["name"].rsplit(".", 1)[1]
        want_link = (page, f"{page}.html#{op['name']}")
        check(
            (op["docname"], op["uri"]) == want_link,
            f"nondeterministic.json: {op['name']} at {op['docname']} {op['uri']}",
        )

    html = (out / f"{INDEX_DOC}.html").read_text(encoding="utf-8")
    tables = BeautifulSoup(html, "lxml").select("table.nondeterministic-ops")
    check(len(tables) == 1, f"{INDEX_DOC}.html: {len(tables)} index tables, not 1")
    got = []
    for tr in tables[0].select("tbody tr"):
        cells = tuple(td.get_text(strip=True) for td in tr.find_all("td"))
        link = tr.td.find("a", href=True)
        want_href = f"../api/{cells[0].rsplit('.', 1)[-1]}.html#{cells[0]}"
        check(
            link is not None and link["href"] == want_href,
            f"{INDEX_DOC}.html: row {cells} does not link to {want_href}",
        )
        got.append(cells)
    check(got == want, f"{INDEX_DOC}.html: table rows differ from the notes {notes}")


def median_pair(timings: list[tuple[float, float]]) -> dict:
    wall, cpu = zip(*timings, strict=True)
    return {
        "median": statistics.median(wall),
        "cpu_median": statistics.median(cpu),
        "runs": list(wall),
        "cpu_runs": list(cpu),
    }


def run(n: int, repeats: int, jobs: int, theme: str | None, sidebars: bool = True) -> dict:
    """Generate the site, time the builds, check each, return the results."""
    src = generate_site(WORK / "incremental", n, index_table=True)
    if not sidebars:
        with (src / "conf.py").open("a", encoding="utf-8") as conf:
            conf.write(NO_SIDEBARS)
    out = WORK / "incremental-out"
    options = ["-b", "html", "-q", "-j", str(jobs)]
    if theme:
        options += ["-D", f"html_theme={theme}"]
    command = [sys.executable, "-m", "sphinx", *options, str(src), str(out)]
    full_command = [*command[:-2], "-E", *command[-2:]]
    docnames = ["index", INDEX_DOC] + [f"api/op_{i:04d}" for i in range(n)]
    edited = n // 2
    edited_doc, edited_op = f"api/op_{edited:04d}", f"torch.ops.op_{edited:04d}"
    directives = list(NOTES)

    full, incremental, unchanged, pages = [], [], [], []
    for repeat in range(repeats):
        # The page has the note the last repeat gave it; alternate.
        old, new = directives[repeat % 2], directives[(repeat + 1) % 2]
        shutil.rmtree(out, ignore_errors=True)
        full.append(timed_seconds(full_command))
        verify_index(out, n, {edited_op: old})

        before = page_mtimes(out, docnames)
        set_note(src, out, edited, new)
        incremental.append(timed_seconds(command))
        verify_index(out, n, {edited_op: new})
        changed = rewritten(before, page_mtimes(out, docnames))
        # Sphinx itself rewrites the pages whose toctree holds a rewritten page.
        check(
            changed == sorted([edited_doc, INDEX_DOC, "index"]),
            f"after editing {edited_doc}, rewritten: {changed}",
        )
        pages.append(changed)

        before = page_mtimes(out, docnames)
        json_mtime = (out / "nondeterministic.json").stat().st_mtime_ns
        unchanged.append(timed_seconds(command))
        changed = rewritten(before, page_mtimes(out, docnames))
        check(not changed, f"after no change, rewritten: {changed}")
        check(
            (out / "nondeterministic.json").stat().st_mtime_ns == json_mtime,
            "after no change, nondeterministic.json was rewritten",
        )
        print(
            f"repeat {repeat + 1}/{repeats}: full {full[-1][0]:.2f} s, "
            f"incremental {incremental[-1][0]:.2f} s, no change {unchanged[-1][0]:.2f} s",
            file=sys.stderr,
            flush=True,
        )

    stats = {
        "full": median_pair(full),
        "incremental": median_pair(incremental),
        "unchanged": median_pair(unchanged),
    }
    return {
        "n": n,
        "repeats": repeats,
        "jobs": jobs,
        "theme": theme,
        "sidebars": sidebars,
        "builds": stats,
        "ratio": {k: stats["incremental"][k] / stats["full"][k] for k in ("median", "cpu_median")},
        "rewritten": pages[0],
        "python": platform.python_version(),
        "sphinx": sphinx.__version__,
        "platform": platform.platform(),
    }


def markdown(results: dict) -> str:
    """The results as a Markdown table followed by a line on the setup."""
    builds, ratio, pages = results["builds"], results["ratio"], results["rewritten"]

    def seconds(build: str) -> str:
        b = builds[build]
        return f"{b['median']:.2f} (CPU {b['cpu_median']:.2f})"

    cells = (
        str(results["n"]),
        seconds("full"),
        seconds("incremental"),
        f"{ratio['median']:.1%} (CPU {ratio['cpu_median']:.1%})",
        seconds("unchanged"),
        f"{len(pages)}: {', '.join(pages)}",
    )
    setup = (
        f"Medians of {results['repeats']} runs: wall time, the child's CPU time "
        f"in brackets. HTML builder, theme {results['theme'] or 'default'}"
        f"{'' if results['sidebars'] else ' without sidebars'}, "
        f"-j {results['jobs']}, Python {results['python']}, Sphinx {results['sphinx']}."
    )
    return "\n".join(
        [
            "| N | full build median s | incremental (one op edited) median s "
            + "| ratio incremental/full | no-change rebuild s | pages rewritten |",
            "|---:|---:|---:|---:|---:|---|",
            "| " + " | ".join(cells) + " |",
            "",
            setup,
        ]
    )


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "-n",
        "--pages",
        type=int,
        default=1000,
        help="op pages in the site (default 1000)",
    )
    parser.add_argument(
        "-r",
        "--repeats",
        type=int,
        default=3,
        help="timed full/incremental/no-change rounds (default 3)",
    )
    parser.add_argument(
        "-j", "--jobs", type=int, default=1, help="Sphinx processes (default 1, serial)"
    )
    parser.add_argument("--theme", metavar="NAME", help="html_theme (default Sphinx's)")
    parser.add_argument(
        "--no-sidebars",
        dest="sidebars",
        action="store_false",
        help='build with html_sidebars = {"**": []}',
    )
    parser.add_argument("--json", type=Path, metavar="PATH", help="also save the results here")
    args = parser.parse_args(argv)
    if args.pages < 2 or args.repeats < 1 or args.jobs < 1:
        parser.error("--pages must be at least 2, --repeats and --jobs at least 1")

    try:
        results = run(args.pages, args.repeats, args.jobs, args.theme, args.sidebars)
    except CheckFailed as failure:
        sys.exit(f"check failed: {failure}")
    print(markdown(results))
    save_json(args.json, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
