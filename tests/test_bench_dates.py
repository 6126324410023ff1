"""bench/dates.py's generated repository: pages edited, created and renamed
over a history, as the dates benchmark builds it."""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"


def _load_dates():
    spec = importlib.util.spec_from_file_location("bench_dates", BENCH / "dates.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


dates_bench = _load_dates()


def test_the_history_has_its_pages_commits_and_renames(tmp_path):
    repo = dates_bench.history(tmp_path / "repo", pages=10, commits=80, seed=1)
    log = subprocess.run(
        ["git", "log", "-M", "--format=%H", "--name-status"],
        cwd=repo,
        capture_output=True,
        check=True,
        text=True,
    ).stdout
    assert sum(len(line) == 40 for line in log.splitlines()) == 80
    assert any(line.startswith("R") for line in log.splitlines())
    assert len(list(repo.rglob("page*.rst"))) == 10
