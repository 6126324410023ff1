"""pytorch_sphinx_theme2's per-page git dates with ``reprodocs.navigation``
(``reprodocs.navigation.pytorch_sphinx_theme2_dates``): one walk of the
history per build, in the main process with ``-j``, every page byte-identical
to the theme's own, the dates included; the theme's own where the walk fails.

Run in .venv-sphinx72, the 7.2.6 line's venv, which holds the theme (``make
test-sphinx72``, ``make test-pytorch2``); elsewhere skipped, loudly.
"""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from reprodocs.navigation import git_history
from reprodocs.navigation import pytorch_sphinx_theme2_dates as dates
from test_bench_dates import dates_bench
from test_navigation_markdown_copies import theme
from test_navigation_outcomes import summary_line

__all__ = ["theme"]  # a fixture, imported for the tests below

UUID = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@pytest.fixture
def repo(tmp_path, monkeypatch, theme):
    """A project in a git repository (bench/dates.py's, small: renames,
    merges), a page never committed, built from the repository as
    ``sphinx-build`` is."""
    repo = dates_bench.history(tmp_path / "repo", pages=8, commits=40, seed=2, merges=True)
    (repo / "draft.rst").write_text("Draft\n=====\n\nNever committed.\n", encoding="utf-8")
    # A page whose path git reads as a pattern: its dates are the theme's own.
    (repo / "glob[1].rst").write_text("Glob\n====\n\nA pattern.\n", encoding="utf-8")
    with (repo / "index.rst").open("a", encoding="utf-8") as index:
        index.write("   draft\n   glob[1]\n")
    subprocess.run(["git", "add", "glob[1].rst"], cwd=repo, check=True)
    identity = ["-c", "user.name=A", "-c", "user.email=a@example.com"]
    subprocess.run(["git", *identity, "commit", "-qm", "glob"], cwd=repo, check=True)
    monkeypatch.chdir(repo)
    return repo


def build(make_app, srcdir, outdir, *extensions, parallel=0):
    app = make_app(
        "html",
        srcdir=srcdir,
        builddir=outdir,
        freshenv=True,
        parallel=parallel,
        confoverrides={"extensions": ["pytorch_sphinx_theme2", *extensions]},
    )
    app.build()
    pages = {
        str(path.relative_to(app.outdir)): UUID.sub(b"UUID", path.read_bytes())
        for path in sorted(app.outdir.rglob("*.html"))
    }
    return app, pages


def dated(pages: dict[str, bytes]) -> set[str]:
    return {page for page, html in pages.items() if b'class="date-info-last-verified"' in html}


def test_dates_are_the_theme_s_from_one_walk_in_the_main_process(
    make_app, repo, tmp_path, monkeypatch
):
    walks = tmp_path / "walks.txt"
    walk = git_history.walk

    def counted(cwd):
        with walks.open("a", encoding="utf-8") as file:
            file.write(f"{os.getpid()}\n")
        return walk(cwd)

    monkeypatch.setattr(dates, "walk", counted)
    _, theme_s = build(make_app, repo, tmp_path / "theme")
    app, served = build(make_app, repo, tmp_path / "served", "reprodocs.navigation", parallel=2)
    assert served == theme_s
    # Every page's but the draft's, and the pages with no source.
    assert dated(served) == {f"{page}.html" for page in app.env.found_docs - {"draft"}}
    assert len(served) > len(app.env.found_docs) > 3
    assert walks.read_text(encoding="utf-8").split() == [str(os.getpid())]
    pages = len(app.env.found_docs)
    assert summary_line(app).endswith(
        f"; dates served on {pages - 1} of {pages} pages; "
        "the theme's own dates on 1: a path git reads as a pattern (1)"
    )
    import pytorch_sphinx_theme2

    assert not isinstance(pytorch_sphinx_theme2.get_git_dates, dates.ServedDates)


@pytest.mark.parametrize("where", ["another repository", "no git"])
def test_a_project_outside_the_repository_has_unknown_dates(
    make_app, repo, tmp_path, monkeypatch, where
):
    if where == "no git":
        monkeypatch.setenv("PATH", "")
    else:
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        subprocess.run(["git", "init", "-q"], cwd=elsewhere, check=True)
        identity = ["-c", "user.name=A", "-c", "user.email=a@example.com"]
        empty = ["commit", "-q", "--allow-empty", "-m", "empty"]
        subprocess.run(["git", *identity, *empty], cwd=elsewhere, check=True)
        monkeypatch.chdir(elsewhere)  # git runs in another repository
    _, theme_s = build(make_app, repo, tmp_path / "theme")
    app, served = build(make_app, repo, tmp_path / "served", "reprodocs.navigation")
    assert served == theme_s
    assert not dated(served)
    pages = len(app.env.found_docs)
    assert summary_line(app).endswith(f"; dates served on {pages} of {pages} pages")


def test_where_the_walk_fails_the_dates_are_the_theme_s(make_app, repo, tmp_path, monkeypatch):
    monkeypatch.setattr(dates, "walk", lambda cwd: "git log failed")
    _, theme_s = build(make_app, repo, tmp_path / "theme")
    app, served = build(make_app, repo, tmp_path / "served", "reprodocs.navigation")
    assert served == theme_s
    pages = len(app.env.found_docs)
    assert summary_line(app).endswith(
        f"; dates served on 0 of {pages} pages; the theme's own dates on {pages}: git log failed ({pages})"
    )
