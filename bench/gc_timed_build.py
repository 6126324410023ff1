"""Run one ``sphinx-build`` in this process and print, on standard error,
its CPU seconds, the seconds the cycle collector took of them, the
collections of each generation and the peak memory, as JSON.

On this project's machine a build's CPU time varies by up to 20 % between
runs of the same build, and the collector takes about a fifth of it: where
two builds differ by a few per cent, the collector's share and its number of
collections tell whether the difference is the code's (more objects kept,
more collections) or the machine's. It reports; it never asserts. ::

    PYTHONPATH=/tmp/copy/src python bench/gc_timed_build.py -b html -E -q SRC OUT
"""

from __future__ import annotations

import gc
import json
import resource
import sys
import time
from typing import Any

from sphinx.cmd.build import main as sphinx_build


class CollectorClock:
    """The CPU seconds spent in the cycle collector, and its collections."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.collections = [0, 0, 0]
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.process_time()
        else:
            self.seconds += time.process_time() - self._started
            self.collections[info["generation"]] += 1


def main(argv: list[str]) -> int:
    clock = CollectorClock()
    gc.callbacks.append(clock)
    status = sphinx_build(argv)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    summary = {
        "cpu": round(usage.ru_utime + usage.ru_stime, 2),
        "gc": round(clock.seconds, 2),
        "collections": clock.collections,
        "max_rss_mb": usage.ru_maxrss // 1024,
    }
    print(json.dumps(summary), file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
