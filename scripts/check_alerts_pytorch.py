"""Run check-alerts on PyTorch's real sources against a registry.

    python scripts/check_alerts_pytorch.py --registry PATH [--suggest] [SOURCE...]

PATH is a ``nondeterministic.json`` (or the HTML folder holding it), e.g.
the registry a build of the docs migrated from torch 2.13.0 writes. The
sources: a pytorch checkout's ``test`` and ``aten/src``, an out-of-tree
backend (intel/torch-xpu-ops), and the installed torch package, the
default. The run in docs/check-alerts.rst read the sources listed in
bench/results/check-alerts-pytorch-sources.txt.

It runs ``python -m reprodocs check-alerts SOURCE... --registry PATH
--format json``, prints the findings grouped by kind and how long the
command took; with ``--suggest``, it prints what
:func:`reprodocs.check_alerts.suggest.suggest_alerts` says of each entry
(the sources read again, in this process). Run it with the Python that has
reprodocs installed, or with ``PYTHONPATH=src``.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from reprodocs.check_alerts.command import scan_sources
from reprodocs.check_alerts.compare import KINDS
from reprodocs.check_alerts.registry import RegistryError, read_registry
from reprodocs.check_alerts.suggest import suggest_alerts


def installed_torch() -> list[Path]:
    """The installed torch package's folder, found without importing it; [] if none."""
    spec = importlib.util.find_spec("torch")
    return [Path(spec.origin).parent] if spec and spec.origin else []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "sources",
        nargs="*",
        type=Path,
        help="source files or folders (default: the installed torch package)",
    )
    parser.add_argument("--registry", type=Path, help="nondeterministic.json, or its folder")
    parser.add_argument("--suggest", action="store_true", help="print each entry's suggestion")
    arguments = parser.parse_args(argv)
    arguments.sources = arguments.sources or installed_torch()
    if arguments.registry is None:
        print(
            "check_alerts_pytorch: give --registry PATH (a nondeterministic.json)", file=sys.stderr
        )
        return 2
    missing = [str(path) for path in arguments.sources if not path.exists()]
    if missing:
        print(f"check_alerts_pytorch: no such source: {', '.join(missing)}", file=sys.stderr)
        return 2
    status = run_command(arguments.sources, arguments.registry)
    if arguments.suggest and status != 2:
        print_suggestions(arguments.sources, arguments.registry)
    return status


def run_command(sources: list[Path], registry: Path) -> int:
    """check-alerts' findings, grouped by kind, and its time."""
    command = [sys.executable, "-m", "reprodocs", "check-alerts", *map(str, sources)]
    command += ["--registry", str(registry), "--format", "json"]
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, env=os.environ, check=False)
    seconds = time.perf_counter() - start
    sys.stderr.write(result.stderr)
    if not result.stdout.strip():
        return result.returncode
    document = json.loads(result.stdout)
    grouped = defaultdict(list)
    for finding in document["findings"]:
        grouped[finding["kind"]].append(finding)
    for kind in KINDS:
        findings = grouped.get(kind, [])
        print(f"== {kind}: {len(findings)}")
        for finding in findings:
            where = finding["path"] + (f":{finding['line']}" if finding["line"] else "")
            print(f"   {where}: {finding['message']}")
    counts = document["counts"]
    print(
        f"check-alerts: {len(document['findings'])} findings, {len(document['ignored'])} "
        f"ignored; {counts} in {seconds:.2f} s (exit status {result.returncode})"
    )
    return result.returncode


def print_suggestions(sources: list[Path], registry: Path) -> None:
    """suggest_alerts()' word on each entry of *registry*."""
    try:
        entries = read_registry(
            registry / "nondeterministic.json" if registry.is_dir() else registry
        )
    except RegistryError as error:
        print(error, file=sys.stderr)
        return
    scan = scan_sources([str(path) for path in sources], io.StringIO())
    suggestions = suggest_alerts(entries, scan.ties, scan.calls)
    print(f"== suggestions: {sum(bool(s.alerts) for s in suggestions)} of {len(suggestions)}")
    for suggestion in suggestions:
        entry = suggestion.entry
        alerts = ", ".join(suggestion.alerts) or "-"
        print(f"   {entry.name} [{entry.mode or '?'}]: {alerts}\n      {suggestion.reason}")


if __name__ == "__main__":
    sys.exit(main())
