"""What the benchmarks measure of a build, and how they keep it.

Each build runs in a fresh interpreter (as ``sphinx-build`` does), one at a
time; its time and memory are that process's own, from ``wait4``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple


class Build(NamedTuple):
    wall: float  #: seconds
    cpu: float  #: seconds, user + system: the steadier figure on a busy machine
    max_rss_mb: float  #: the process's peak resident memory
    warnings: str  #: what it wrote to stderr
    output: str = ""  #: what it wrote to stdout, when asked for


def timed_build(
    command: list[str],
    env: dict[str, str] | None = None,
    accepted: tuple[int, ...] = (0,),
    output: bool = False,
) -> Build:
    """Run *command* (a Sphinx build) and measure it. A failed build (an exit
    status not *accepted*) ends the benchmark: its figures would mean nothing.
    With *output*, what it writes to stdout is kept (a build's log, for the
    lines an extension writes there); else it is dropped."""
    # stderr and stdout go to files: a pipe left unread while waiting could
    # fill up and stop the build.
    with tempfile.TemporaryFile() as stderr, tempfile.TemporaryFile() as stdout:
        start = time.perf_counter()
        process = subprocess.Popen(
            command, env=env, stdout=stdout if output else subprocess.DEVNULL, stderr=stderr
        )
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        stderr.seek(0)
        warnings = stderr.read().decode(errors="replace")
        stdout.seek(0)
        written = stdout.read().decode(errors="replace")
    if (code := os.waitstatus_to_exitcode(status)) not in accepted:
        sys.exit(f"build failed (exit {code}): {' '.join(command)}\n{warnings}")
    return Build(
        wall=wall,
        cpu=usage.ru_utime + usage.ru_stime,
        max_rss_mb=usage.ru_maxrss / 1024,  # ru_maxrss is in KiB on Linux
        warnings=warnings,
        output=written,
    )


def timed_seconds(command: list[str], label: str = "") -> tuple[float, float]:
    """Wall and CPU seconds of one build, its warnings passed on to stderr
    (after *label*, if given)."""
    build = timed_build(command)
    if build.warnings:
        sys.stderr.write(f"[{label}] {build.warnings}" if label else build.warnings)
    return build.wall, build.cpu


def save_json(path: Path | None, results: dict) -> None:
    """Save *results* at *path* (the benchmarks' ``--json``), if one is given."""
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
