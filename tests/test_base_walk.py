"""reprodocs.base.walk: the one search of a directory (migrate and
check-alerts): name order, hidden folders and __pycache__ not entered, and
each symbolic link not followed said by name, those leading nowhere or
looping too (issue 40)."""

from __future__ import annotations

import os

from reprodocs.base.walk import Met, files_at, files_under


def test_each_file_and_each_link_not_followed(tmp_path):
    top = tmp_path / "top"
    for folder in ("sub", ".git", "__pycache__"):
        (top / folder).mkdir(parents=True)
    for name in ("sub/b.py", "a.rst", ".git/hidden.py", "__pycache__/cached.py", "notes.txt"):
        (top / name).write_text("")
    (tmp_path / "elsewhere.py").write_text("")
    os.mkfifo(top / "pipe.py")
    links = {
        "in_tree.py": "sub/b.py",  # reached where it is: silent
        "in_tree": "sub",  # likewise
        "to_text.py": "notes.txt",  # the search does not reach it: said
        "outside.py": "../elsewhere.py",
        "other.txt": "../elsewhere.py",  # not named as the files searched: no concern
        "gone": "sub/gone",  # leading nowhere, whatever its name
        "self.py": "self.py",
        "ping": "pong",
        "pong": "ping",
    }
    for name, target in links.items():
        (top / name).symlink_to(target)
    real = tmp_path.resolve()

    found = list(files_under(top, (".py", ".rst"), [os.path.realpath(top)]))

    assert found == [
        Met(top / "a.rst"),
        Met(top / "gone", not_followed=f"a symbolic link to {real / 'top/sub/gone'}, which does not exist"),
        Met(top / "outside.py", not_followed=f"a symbolic link to {real / 'elsewhere.py'}"),
        Met(top / "ping", not_followed="a symbolic link that loops"),
        Met(top / "pipe.py", problem="not a regular file"),
        Met(top / "pong", not_followed="a symbolic link that loops"),
        Met(top / "self.py", not_followed="a symbolic link that loops"),
        Met(top / "to_text.py", not_followed=f"a symbolic link to {real / 'top/notes.txt'}"),
        Met(top / "sub" / "b.py"),
    ]  # fmt: skip


def test_a_directory_that_cannot_be_listed_is_a_problem(tmp_path):
    assert list(files_under(tmp_path / "missing", (".py",), [])) == [
        # What it holds is unknown: migrate holds back what it may decide.
        Met(tmp_path / "missing", problem="No such file or directory", unseen=True)
    ]


def test_paths_given_are_taken_as_named_and_directories_searched(tmp_path):
    # One walk for both commands: a path given is followed (a link too),
    # whatever its suffix; each command says which files it reads.
    (tmp_path / "top").mkdir()
    (tmp_path / "top" / "a.py").write_text("")
    (tmp_path / "notes.txt").write_text("")
    (tmp_path / "link.py").symlink_to("top/a.py")
    (tmp_path / "loop.py").symlink_to("loop.py")
    os.mkfifo(tmp_path / "pipe.py")
    names = ["missing.py", "notes.txt", "link.py", "loop.py", "pipe.py", "top"]

    found = list(files_at([str(tmp_path / name) for name in names], (".py",)))

    assert found == [
        Met(tmp_path / "missing.py", "no such file or directory", given=True),
        Met(tmp_path / "notes.txt", given=True),
        Met(tmp_path / "link.py", given=True),
        Met(tmp_path / "loop.py", "Too many levels of symbolic links", unseen=True, given=True),
        Met(tmp_path / "pipe.py", given=True, regular=False),
        # top/a.py: link.py's file, met there first (each file once).
    ]


def test_a_file_under_two_paths_given_is_met_once(tmp_path):
    """A directory and one in it, a path given twice, a link given and its
    file: each file and each link not followed was met, and read, once per
    path (migrate then planned each file twice, wrote one copy and left the
    lists, and a second run wrote each entry again)."""
    (tmp_path / "top" / "sub").mkdir(parents=True)
    (tmp_path / "top" / "sub" / "a.py").write_text("")
    (tmp_path / "top" / "sub" / "gone.py").symlink_to("nowhere.py")
    (tmp_path / "alias.py").symlink_to("top/sub/a.py")
    top, sub = tmp_path / "top", tmp_path / "top" / "sub"
    names = [str(top), str(sub), str(sub / "a.py"), str(top), str(tmp_path / "alias.py")]

    found = list(files_at(names, (".py",)))

    real = tmp_path.resolve()
    assert found == [
        Met(sub / "a.py"),
        Met(sub / "gone.py", not_followed=f"a symbolic link to {real / 'top/sub/nowhere.py'}, which does not exist"),
    ]  # fmt: skip
