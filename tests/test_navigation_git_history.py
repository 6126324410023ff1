"""Each file's dates from one walk of the history
(``reprodocs.navigation.git_history``), compared with pytorch_sphinx_theme2's
own two ``git log`` calls for each file: renames, a file never committed, a
shallow clone, merges, time zones, no git, no repository.

Where the theme is installed (the 7.2.6 line) its own ``get_git_dates`` is
called; elsewhere the same two commands, as the theme runs them."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from reprodocs.navigation import git_history
from reprodocs.navigation.git_history import UNKNOWN, History, walk
from test_bench_dates import dates_bench


def theme_git_dates(path: str) -> tuple[str, str]:
    """pytorch_sphinx_theme2's ``get_git_dates(path)``."""
    try:
        from pytorch_sphinx_theme2 import get_git_dates
    except ImportError:
        return commands_of_theme(path)
    return get_git_dates(path)


def commands_of_theme(path: str) -> tuple[str, str]:
    """The theme's two calls (0.4.13), where it is not installed."""
    date = "--date=format:%b %d, %Y"
    try:
        last = subprocess.check_output(["git", "log", "-1", date, "--format=%ad", "--", path])
        follow = ["git", "log", "--follow", "--format=%ad", date, "--", path]
        created = subprocess.check_output(follow).decode().strip().split("\n")[-1]
        return created or UNKNOWN, last.decode().strip() or UNKNOWN
    except (OSError, subprocess.CalledProcessError):
        return UNKNOWN, UNKNOWN


def commit(
    repo: Path, when: str, files: dict[str, str | None], parents: tuple[str, ...] = ()
) -> None:
    """A commit of *files* (None: removed) at *when*, an ISO date with its
    time zone."""
    for name, text in files.items():
        path = repo / name
        if text is None:
            subprocess.run(["git", "rm", "-q", name], cwd=repo, check=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        subprocess.run(["git", "add", name], cwd=repo, check=True)
    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    subprocess.run(["git", "commit", "-q", "-m", when], cwd=repo, env=env, check=True)


def new_repository(path: Path) -> Path:
    path.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=path, check=True)
    subprocess.run(["git", "config", "user.email", "a@example.com"], cwd=path, check=True)
    subprocess.run(["git", "config", "user.name", "A"], cwd=path, check=True)
    return path


def text(n: int) -> str:
    return "".join(
        f"Line {i} of a page that is long enough to be found renamed.\n" for i in range(n)
    )


@pytest.fixture
def renamed(tmp_path, monkeypatch) -> Path:
    """A page renamed twice (once edited, once to another folder), a page
    renamed beside a deletion, a page deleted and written again, dates near
    midnight in several time zones."""
    repo = new_repository(tmp_path / "repo")
    commit(
        repo, "2021-01-31T23:30:00-0800", {"a.rst": text(8), "gone.txt": "x\n", "keep.rst": text(3)}
    )
    commit(repo, "2021-02-01T00:10:00+0900", {"a.rst": text(9)})
    commit(repo, "2021-03-01T12:00:00+0000", {"a.rst": None, "b.rst": text(9) + "edited\n"})
    commit(
        repo,
        "2021-04-01T12:00:00+0530",
        {"b.rst": None, "docs/c.rst": text(9) + "edited\n", "gone.txt": None},
    )
    commit(repo, "2021-05-01T12:00:00+0000", {"keep.rst": None})
    commit(repo, "2021-06-01T12:00:00+0000", {"keep.rst": "new\n", "new.rst": text(2)})
    monkeypatch.chdir(repo)
    return repo


def answers(repo: Path, paths: set[str]) -> dict[str, tuple[str, str]]:
    history = walk(str(repo))
    assert isinstance(history, History)
    dates, uncertain = history.dates_of(paths)
    assert not uncertain
    return dates


def assert_theme_s(repo: Path, paths: set[str]) -> dict[str, tuple[str, str]]:
    dates = answers(repo, paths)
    assert dates == {path: theme_git_dates(str(repo / path)) for path in paths}
    return dates


@pytest.mark.parametrize(
    "setting",
    [(), ("diff.renames", "copies"), ("diff.renameLimit", "5")],
    ids=["git's defaults", "copies", "a rename limit: --follow asked per name"],
)
def test_renamed_pages_were_created_under_their_first_name(renamed, setting):
    if setting:
        subprocess.run(["git", "config", *setting], cwd=renamed, check=True)
    dates = assert_theme_s(renamed, {"docs/c.rst", "keep.rst", "new.rst", "a.rst", "b.rst"})
    # "Created On" is the first name's first commit, in its author's zone.
    assert dates["docs/c.rst"] == ("Jan 31, 2021", "Apr 01, 2021")
    assert dates["keep.rst"] == ("Jan 31, 2021", "Jun 01, 2021")


def test_a_page_written_as_a_copy_was_created_with_its_source(renamed):
    """``--follow`` looks for a new name's source among every file of the
    parent, unchanged ones too: a page begun as a copy of another has the
    other's history."""
    commit(renamed, "2021-07-01T12:00:00+0000", {"copy.rst": text(9) + "edited\ncopied\n"})
    dates = assert_theme_s(renamed, {"copy.rst", "docs/c.rst"})
    assert dates["copy.rst"] == ("Jan 31, 2021", "Jul 01, 2021")


def test_a_page_never_committed_is_unknown(renamed):
    (renamed / "draft.rst").write_text("Draft\n", encoding="utf-8")
    dates = assert_theme_s(renamed, {"draft.rst", "docs/draft.rst"})
    assert dates["draft.rst"] == (UNKNOWN, UNKNOWN)


def test_a_shallow_clone_starts_at_its_boundary(renamed, tmp_path, monkeypatch):
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "2", f"file://{renamed}", str(clone)], check=True
    )
    monkeypatch.chdir(clone)
    dates = assert_theme_s(clone, {"docs/c.rst", "keep.rst", "new.rst"})
    assert dates["docs/c.rst"] == ("May 01, 2021", "May 01, 2021")  # the boundary's date


def test_merged_histories_are_git_s(tmp_path, monkeypatch):
    """Side branches merged back, main moving on meanwhile (every path that
    was ever in the history, and one never in it)."""
    repo = dates_bench.history(tmp_path / "repo", pages=12, commits=60, seed=4, merges=True)
    monkeypatch.chdir(repo)
    listed = subprocess.run(
        ["git", "log", "--format=", "--name-only"], cwd=repo, capture_output=True, check=True
    )
    paths = set(listed.stdout.decode().split()) | {"never.rst"}
    history = walk(str(repo))
    assert isinstance(history, History)
    assert any(len(commit.parents) > 1 for commit in history.commits.values())
    assert_theme_s(repo, paths)


def test_without_git_every_date_is_unknown(renamed, monkeypatch):
    monkeypatch.setenv("PATH", "")
    assert walk(str(renamed)) is None
    assert theme_git_dates(str(renamed / "keep.rst")) == (UNKNOWN, UNKNOWN)


def test_outside_a_repository_every_date_is_unknown(tmp_path, monkeypatch):
    folder = tmp_path / "plain"
    folder.mkdir()
    (folder / "page.rst").write_text("Page\n", encoding="utf-8")
    monkeypatch.chdir(folder)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    assert walk(str(folder)) is None
    assert theme_git_dates(str(folder / "page.rst")) == (UNKNOWN, UNKNOWN)


def test_a_repository_without_a_commit_has_no_dates(tmp_path, monkeypatch):
    repo = new_repository(tmp_path / "repo")
    (repo / "page.rst").write_text("Page\n", encoding="utf-8")
    monkeypatch.chdir(repo)
    assert walk(str(repo)) is None
    assert theme_git_dates(str(repo / "page.rst")) == (UNKNOWN, UNKNOWN)


def test_a_rename_git_says_nothing_clear_of_is_uncertain(renamed, monkeypatch):
    def unclear(toplevel, commit_id, name):
        return None if name == "docs/c.rst" else name

    monkeypatch.setattr(git_history, "renamed_from", unclear)
    monkeypatch.setattr(git_history, "renames_in", lambda *args: {})
    history = walk(str(renamed))
    assert isinstance(history, History)
    _, uncertain = history.dates_of({"docs/c.rst", "new.rst"})
    assert uncertain == {"docs/c.rst"}
