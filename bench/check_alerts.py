"""check-alerts on a real tree, against the floor of reading it: grep over
the same files for the same two names, and Python starting the command.

    python bench/check_alerts.py TREE [--runs 5] [--json FILE]

TREE is scanned as ``python -m reprodocs check-alerts TREE`` would, with an
empty registry (every alert is then a finding: status 1, accepted). Runs
are interleaved, the least of each kept; the figures are ratios to grep in
the same run (torch 2.13.0's wheel, unpacked: about 11,800 files).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from measure import save_json, timed_build
from reprodocs.check_alerts.command import SUFFIXES
from reprodocs.check_alerts.scan import ALERT_FUNCTIONS


def commands(tree: Path, registry: Path) -> dict[str, list[str]]:
    includes = [f"--include=*{suffix}" for suffix in SUFFIXES]
    return {
        "check-alerts": [sys.executable, "-m", "reprodocs", "check-alerts", str(tree),
                         "--registry", str(registry)],
        "grep": ["grep", "-rnE", *includes, "|".join(ALERT_FUNCTIONS), str(tree)],
        "python start": [sys.executable, "-c", "import reprodocs.check_alerts.command"],
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tree", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        registry = Path(folder, "nondeterministic.json")
        registry.write_text(json.dumps({"version": 3, "project": "", "operations": []}))
        runs = commands(arguments.tree, registry)
        least: dict[str, dict[str, float]] = {}
        for _ in range(arguments.runs):
            for name, command in runs.items():
                build = timed_build(command, accepted=(0, 1))
                best = least.setdefault(name, {"wall": build.wall, "cpu": build.cpu})
                best["wall"], best["cpu"] = (
                    min(best["wall"], build.wall),
                    min(best["cpu"], build.cpu),
                )
    files = sum(1 for path in arguments.tree.rglob("*") if path.suffix in SUFFIXES)
    results = {"tree": str(arguments.tree), "files": files, "runs": arguments.runs, "least": least,
               "ratio_to_grep": {k: v["wall"] / least["grep"]["wall"] for k, v in least.items()}}  # fmt: skip
    for name, figures in least.items():
        print(f"{name:14} {figures['wall']:6.2f} s wall {figures['cpu']:6.2f} s CPU")
    save_json(arguments.json, results)


if __name__ == "__main__":
    main()
