"""pytorch_sphinx_theme2's per-page git dates: the theme's own against
``reprodocs.navigation`` serving them from one walk of the history.

A generated project in a git repository (``history``): PAGES pages written
over COMMITS commits (``git fast-import``, one process), pages edited,
created, renamed (some across folders, some edited as they move), files
added and deleted beside them; the author dates in several time zones, near
midnight. ``merges`` adds side branches merged back, for the tests.

Three builds, in rounds, interleaved (the machine is shared), each in a
fresh ``sphinx-build`` run from the repository:

* ``pt2``: pytorch_sphinx_theme2 with ``add_last_updated = True``, alone;
* ``pt2+navigation``: the same with ``reprodocs.navigation``;
* ``pt2+navigation, no dates``: the same with ``add_last_updated = False``.

Every page of the first two is compared byte for byte (the theme's uuids
aside). Run in the Sphinx 7.2.6 venv, which holds the theme::

    .venv-sphinx72/bin/python bench/dates.py --rounds 3 --json bench/results/dates.json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from measure import timed_build

#: The time zones of the authors, and the hour of the day they commit at:
#: late, so that a date is another day in another zone.
ZONES = ["+0000", "-0800", "+0530", "+0900", "-0500", "+1300"]
#: The project's conf.py: the theme set up as its guide (and demo/pytorch2)
#: sets it up.
CONF = """import os
import pytorch_sphinx_theme2
project = "dates"
extensions = ["pytorch_sphinx_theme2"{extra}]
html_theme = "pytorch_sphinx_theme2"
html_theme_path = [pytorch_sphinx_theme2.get_html_theme_path()]
templates_path = [os.path.join(os.path.dirname(pytorch_sphinx_theme2.__file__), "templates")]
html_theme_options = {{"navbar_center": "navbar-nav", "navigation_with_keys": False}}
html_context = {{"theme_variables": pytorch_sphinx_theme2.get_theme_variables()}}
add_last_updated = {dates}
"""
UUID = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def page(title: str, edits: int) -> str:
    lines = [title, "=" * len(title), "", f"The page {title}."]
    lines += [f"Edit {n}: a line of text that the history changes." for n in range(edits)]
    return "\n".join(lines) + "\n"


def index(names: list[str]) -> str:
    entries = "".join(f"   {name.removesuffix('.rst')}\n" for name in sorted(names))
    return f"Dates\n=====\n\n.. toctree::\n   :maxdepth: 1\n\n{entries}"


class Stream:
    """A ``git fast-import`` stream of one branch's commits."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)
        self.parts: list[bytes] = []
        self.mark = 0
        self.time = 1546300800  # 2019-01-01

    def commit(self, branch: str, changes: dict[str, str | None], parents: list[int]) -> int:
        self.mark += 1
        self.time += self.random.randint(600, 40_000)
        zone = self.random.choice(ZONES)
        who = f"Dev <dev@example.com> {self.time} {zone}"
        message = f"commit {self.mark}".encode()
        head = f"commit refs/heads/{branch}\nmark :{self.mark}\nauthor {who}\ncommitter {who}\n"
        body = [head.encode(), b"data %d\n" % len(message), message, b"\n"]
        if parents:
            body.append(b"from :%d\n" % parents[0])
        body += [b"merge :%d\n" % parent for parent in parents[1:]]
        for path, text in sorted(changes.items()):
            if text is None:
                body.append(f"D {path}\n".encode())
            else:
                data = text.encode()
                body.append(
                    f"M 100644 inline {path}\n".encode() + b"data %d\n" % len(data) + data + b"\n"
                )
        self.parts.append(b"".join(body) + b"\n")
        return self.mark


def history(root: Path, pages: int, commits: int, seed: int = 0, merges: bool = False) -> Path:
    """A project of *pages* pages in a new git repository at *root*, written
    over *commits* commits."""
    rng = random.Random(seed)
    stream = Stream(seed)
    files: dict[str, str] = {"conf.py": CONF.format(extra="", dates=True)}
    edits: dict[str, int] = {}
    count = 0

    def new_page() -> dict[str, str | None]:
        nonlocal count
        count += 1
        name = f"{rng.choice(['', 'api/', 'notes/'])}page{count}.rst"
        edits[name] = 0
        return {name: page(f"Page {count}", 0)}

    changes: dict[str, str | None] = {}
    for _ in range(min(pages, max(pages // 3, 1))):
        changes.update(new_page())
    last = stream.commit("main", {**files, **changes, "index.rst": index(list(edits))}, [])
    for number in range(1, commits):
        changes = step(rng, edits, pages, new_page, number)
        if (
            any(
                name.endswith(".rst") and (text is None or name not in edits)
                for name, text in changes.items()
            )
            or number == commits - 1
        ):
            changes["index.rst"] = index(list(edits))
        if merges and number % 7 == 0:  # a side branch, main moving on, merged
            side = stream.commit(f"side{number}", changes, [last])
            last = stream.commit("main", step(rng, edits, pages, new_page, -number), [last])
            last = stream.commit("main", changes, [last, side])
        else:
            last = stream.commit("main", changes, [last])
    root.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    subprocess.run(
        ["git", "fast-import", "--quiet"], cwd=root, input=b"".join(stream.parts), check=True
    )
    subprocess.run(["git", "checkout", "-q", "-f", "main"], cwd=root, check=True)
    return root


def step(
    rng: random.Random, edits: dict[str, int], pages: int, new_page, number: int
) -> dict[str, str | None]:
    """One commit's changes: mostly pages edited; some created, renamed or
    beside files added and deleted."""
    action = rng.random()
    names = sorted(edits)
    if len(edits) < pages and action < 0.08:
        changes = new_page()
        if rng.random() < 0.5:  # created where another file goes
            changes[f"scratch/{number}.txt"] = None if number % 2 else f"{number}\n"
        return changes
    if action < 0.14:  # a rename, the page edited or not, maybe to another folder
        old = rng.choice(names)
        new = f"{rng.choice(['', 'api/', 'notes/', 'moved/'])}{old.rsplit('/', 1)[-1].removesuffix('.rst')}r{number}.rst"
        text = page(old, edits[old] + (1 if rng.random() < 0.5 else 0))
        edits[new] = edits.pop(old)
        return {old: None, new: text}
    changes = {}
    for name in rng.sample(names, k=min(len(names), rng.randint(1, 3))):
        edits[name] += 1
        changes[name] = page(name, edits[name])
    return changes


def built(repo: Path, out: Path, jobs: str, extra: str, dates: bool) -> tuple[float, float]:
    """The build's wall and CPU seconds (its git processes' included)."""
    (repo / "conf.py").write_text(CONF.format(extra=extra, dates=dates), encoding="utf-8")
    command = [
        sys.executable,
        "-m",
        "sphinx",
        "-E",
        "-q",
        "-j",
        jobs,
        "-b",
        "html",
        str(repo),
        str(out),
    ]
    build = timed_build(command, env=None)
    return build.wall, build.cpu


def pages(out: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(out)): UUID.sub(b"UUID", path.read_bytes())
        for path in sorted(out.rglob("*.html"))
    }


BUILDS = {
    "pt2": ("", True),
    "pt2+navigation": (', "reprodocs.navigation"', True),
    "pt2+navigation, no dates": (', "reprodocs.navigation"', False),
}


def figures(times: dict[str, list[float]]) -> dict:
    """Each build's times, least and median, and the ratios of the dates
    served to the dates off (least, median, and round by round)."""
    served, off = times["pt2+navigation"], times["pt2+navigation, no dates"]
    return {
        "times": times,
        "least": {name: min(t) for name, t in times.items()},
        "median": {name: statistics.median(t) for name, t in times.items()},
        "dates_vs_none_least": min(served) / min(off),
        "dates_vs_none_median": statistics.median(served) / statistics.median(off),
        "dates_vs_none_by_round": [a / b for a, b in zip(served, off, strict=True)],
        "theme_vs_served_median": statistics.median(times["pt2"]) / statistics.median(served),
    }


def walk_alone(repo: Path, sampled: int) -> dict:
    """The walk's time for every page of *repo*, against the theme's own two
    calls for *sampled* pages."""
    import time

    from pytorch_sphinx_theme2 import get_git_dates

    from reprodocs.navigation.git_history import History, walk

    pages = sorted(str(path.relative_to(repo)) for path in repo.rglob("*.rst"))
    start = time.perf_counter()
    history = walk(str(repo))
    walked = time.perf_counter() - start
    assert isinstance(history, History)
    dates, uncertain = history.dates_of(set(pages))
    served = time.perf_counter() - start
    sample = pages[:: max(1, len(pages) // sampled)][:sampled]
    start = time.perf_counter()
    theirs = {page: get_git_dates(str(repo / page)) for page in sample}
    theme = (time.perf_counter() - start) / len(sample)
    return {
        "pages": len(pages),
        "commits": len(history.order),
        "walk_s": walked,
        "walk_and_dates_s": served,
        "uncertain": len(uncertain),
        "theme_s_per_page": theme,
        "theme_s_all_pages_estimated": theme * len(pages),
        "sample_identical": all(dates[page] == theirs[page] for page in sample),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--commits", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", type=Path)
    parser.add_argument("-j", "--jobs", default="1", help="sphinx-build's -j")
    parser.add_argument(
        "--walk-only",
        type=int,
        metavar="N",
        help="no builds: time the walk for every page, and the theme's own calls for N pages",
    )
    args = parser.parse_args(argv)
    if args.json:
        args.json = args.json.resolve()  # the builds run from the repository
    with tempfile.TemporaryDirectory() as folder:
        repo = history(Path(folder) / "repo", args.pages, args.commits)
        os.chdir(repo)  # where sphinx-build runs, and so the theme's git
        if args.walk_only is not None:
            results = walk_alone(repo, args.walk_only)
            print(json.dumps(results, indent=1))
            if args.json:
                args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
            return 0
        times: dict[str, list[float]] = {name: [] for name in BUILDS}
        cpu: dict[str, list[float]] = {name: [] for name in BUILDS}
        written = {}
        for round_ in range(args.rounds):
            order = list(BUILDS) if round_ % 2 == 0 else list(reversed(BUILDS))
            for name in order:
                out = Path(folder) / f"out-{len(times[name])}-{name.replace(' ', '')}"
                wall, seconds = built(repo, out, args.jobs, *BUILDS[name])
                times[name].append(wall)
                cpu[name].append(seconds)
                written[name] = pages(out)
                print(f"round {round_ + 1}: {name}: {wall:.1f} s, CPU {seconds:.1f} s", flush=True)
        same = written["pt2"] == written["pt2+navigation"]
        dated = sum(b"date-info-last-verified" in html for html in written["pt2"].values())
        results = {
            "pages": args.pages,
            "commits": args.commits,
            "html_files": len(written["pt2"]),
            "pages_with_dates": dated,
            "identical": same,
            "jobs": args.jobs,
            "wall": figures(times),
            "cpu": figures(cpu),
        }
    print(json.dumps(results, indent=1))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    # The same pages, the dates on every page of the project.
    return 0 if same and dated == args.pages + 1 else 1


if __name__ == "__main__":
    sys.exit(main())
