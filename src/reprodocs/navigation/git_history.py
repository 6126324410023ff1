"""Each file's first and last commit dates from one walk of a git history,
as two ``git log`` calls per file answer them.

pytorch_sphinx_theme2 (``add_last_updated = True``) asks git, for each page's
source, ``git log -1 --date=format:'%b %d, %Y' --format=%ad -- FILE`` (the
last update) and ``git log --follow --format=%ad ... -- FILE``, whose last
line is the creation: two processes per page, each walking the history, the
second across all of it. Here the history is walked once for every file
(:func:`walk`) and each file's answers are derived from it as git derives
them (:meth:`History.dates`):

* the last update is the first commit ``git log -1 -- FILE`` shows: walking
  from ``HEAD``, a commit that changed the file; at a merge, the walk goes on
  in the first parent the file is the same in (git's history
  simplification), and a merge that changed it from every parent is shown;
* the creation is the last commit ``git log --follow`` shows. With
  ``--follow`` git neither simplifies the history nor shows merges: it walks
  every commit in its own order (the walk's order here) and shows each
  other commit whose diff touches the file's name, the name becoming the
  renamed (or copied) file's old one where a commit adds it as one.
  ``--follow`` looks for the name's source among every file of the parent,
  unchanged ones included. Where the commit adds no other file, git's
  detection over the whole commit (``git diff-tree --find-copies-harder``)
  weighs the same sources for that one name, and one process answers for
  every such commit (:meth:`History.sources`); elsewhere ``--follow`` itself
  is asked, from that commit (one short process per name).

The dates are git's own strings (``--date=format:...``: the author's time
zone, git's locale), decoded as the theme decodes them.
"""

from __future__ import annotations

import heapq
import os
import re
import subprocess
import sys
from collections import defaultdict
from dataclasses import dataclass, field

#: What the theme writes where git has no date.
UNKNOWN = "Unknown"
#: The theme's format of the dates.
DATE = "--date=format:%b %d, %Y"
#: What a diff of no parent (a root commit, a shallow clone's boundary) is
#: keyed by.
ROOT = ""
#: A walk's line of a commit: its id, its parents, and the parent a merge's
#: diff is against (``--pretty=oneline --parents``, with ``-m``).
HEADER = re.compile(rb"([0-9a-f]{40,64})((?: [0-9a-f]{40,64})*)(?: \(from ([0-9a-f]{40,64})\))?")
#: Characters that make a path a pattern to git (the theme's pathspec is
#: the path as it is).
GLOB = frozenset("*?[\\")


@dataclass(frozen=True)
class Commit:
    parents: tuple[str, ...]
    #: Per parent (:data:`ROOT` for none), the paths that differ from it and
    #: how (``A``, ``M``, ``D``, ``T``); a parent absent differs in nothing.
    diffs: dict[str, dict[str, str]]


@dataclass
class History:
    """The walk: the commits in git's order, each one's date."""

    toplevel: str
    order: list[str] = field(default_factory=list)
    commits: dict[str, Commit] = field(default_factory=dict)
    dates: dict[str, str] = field(default_factory=dict)
    #: git's rename detection as ``--follow`` makes it, as an option of
    #: ``git diff-tree`` (None: git's settings are such that each add is
    #: asked of ``--follow`` itself).
    detection: str | None = None

    def dates_of(self, paths: set[str]) -> tuple[dict[str, tuple[str, str]], set[str]]:
        """Each path's ``(created, last updated)`` as the theme's two calls
        answer, and the paths whose creation git alone can tell."""
        last = self.last_commits(paths)
        created, uncertain = self.created_dates(paths)
        answers = {}
        for path in paths:
            updated = self.dates[last[path]].strip() if path in last else ""
            answers[path] = (created.get(path) or UNKNOWN, updated or UNKNOWN)
        return answers, uncertain

    def last_commits(self, paths: set[str]) -> dict[str, str]:
        """The first commit ``git log -1 -- PATH`` shows, per path: the walk
        from ``HEAD`` down each path's simplified history, all paths at once."""
        position = {commit: index for index, commit in enumerate(self.order)}
        pending: dict[int, set[str]] = {0: set(paths)} if self.order else {}
        queue = list(pending)
        found: dict[str, str] = {}

        def hand_on(names: set[str], parent: str) -> None:
            index = position.get(parent)
            if names and index is not None:
                pending.setdefault(index, set()).update(names)
                heapq.heappush(queue, index)

        while queue:
            index = heapq.heappop(queue)
            names = pending.pop(index, None)
            if not names:
                continue
            commit_id = self.order[index]
            commit = self.commits[commit_id]
            if len(commit.parents) <= 1:
                diff = commit.diffs.get(commit.parents[0] if commit.parents else ROOT, {})
                touched = {name for name in diff if name in names}
                found.update(dict.fromkeys(touched, commit_id))
                if commit.parents:
                    hand_on(names - touched, commit.parents[0])
                continue
            routes: dict[str, set[str]] = defaultdict(set)
            for name in names:
                same = [p for p in commit.parents if name not in commit.diffs.get(p, {})]
                if same:
                    routes[same[0]].add(name)
                else:
                    found[name] = commit_id  # changed from every parent: shown
            for parent, routed in routes.items():
                hand_on(routed, parent)
        return found

    def created_dates(self, paths: set[str]) -> tuple[dict[str, str], set[str]]:
        """The last line of ``git log --follow`` per path, and the paths
        whose rename git could not tell."""
        tracked: dict[str, list[str]] = {path: [path] for path in paths}
        first: dict[str, str] = {}
        last: dict[str, str] = {}
        uncertain: set[str] = set()
        sources = self.sources(paths)
        for commit_id in self.order:
            commit = self.commits[commit_id]
            if len(commit.parents) > 1:
                continue  # --follow shows no merge
            diff = commit.diffs.get(commit.parents[0] if commit.parents else ROOT, {})
            small, large = (diff, tracked) if len(diff) < len(tracked) else (tracked, diff)
            for name in [name for name in small if name in large]:
                for path in tracked[name]:
                    first.setdefault(path, commit_id)
                    last[path] = commit_id
                if diff[name] == "A" and commit.parents:
                    follow(sources.get((commit_id, name)), name, tracked, uncertain)
        created = {path: self.last_line(first[path], last[path]) for path in first}
        return created, uncertain

    def sources(self, paths: set[str]) -> dict[tuple[str, str], str | None]:
        """For each commit (with a parent) that adds one of the names the
        paths may be followed under, the name ``--follow`` goes on with (or
        None where git says nothing clear). The names are found a round at a
        time: the paths, then the names they were renamed or copied from."""
        adds: dict[str, list[str]] = defaultdict(list)
        for commit_id, commit in self.commits.items():
            if len(commit.parents) == 1:
                diff = commit.diffs.get(commit.parents[0], {})
                for name in (name for name, status in diff.items() if status == "A"):
                    adds[name].append(commit_id)
        found: dict[tuple[str, str], str | None] = {}
        names, seen = set(paths), set(paths)
        while names:
            events = [(commit_id, name) for name in names for commit_id in adds.get(name, ())]
            found.update(self.sources_of(events))
            names = {old for old in found.values() if old is not None} - seen
            seen |= names
        return found

    def adds_one_file(self, commit_id: str) -> bool:
        """Whether the commit (with one parent) adds one file only."""
        commit = self.commits[commit_id]
        return list(commit.diffs.get(commit.parents[0], {}).values()).count("A") == 1

    def sources_of(self, events: list[tuple[str, str]]) -> dict[tuple[str, str], str | None]:
        """Each (commit, name added)'s source as ``--follow`` finds it. Where
        the commit adds no other file, git's detection over the whole commit
        (``git diff-tree --find-copies-harder``, every commit in one process)
        weighs the same sources for the one name as ``--follow``'s; else, or
        where git's settings change it, ``--follow`` is asked, per name."""
        alone = set()
        if self.detection is not None:
            alone = {commit_id for commit_id, _ in events if self.adds_one_file(commit_id)}
        in_commits = renames_in(self.toplevel, sorted(alone), self.detection) if alone else {}
        found: dict[tuple[str, str], str | None] = {}
        for commit_id, name in events:
            if commit_id in in_commits:
                found[commit_id, name] = in_commits[commit_id].get(name, name)
            else:
                found[commit_id, name] = renamed_from(self.toplevel, commit_id, name)
        return found

    def last_line(self, first: str, last: str) -> str:
        """The theme's ``output.strip().split("\\n")[-1]`` of the dates
        shown, the first and last of them known."""
        return self.dates[last].strip() if first == last else self.dates[last].rstrip()


def follow(old: str | None, name: str, tracked: dict[str, list[str]], uncertain: set[str]) -> None:
    """Where a commit adds *name*, which came from *old*: the paths that
    followed *name* follow *old* from then on (or git said nothing clear)."""
    if old is None:
        uncertain.update(tracked[name])
    elif old != name:
        tracked.setdefault(old, []).extend(tracked.pop(name))


def git(args: list[str], cwd: str | None = None, stdin: bytes | None = None) -> bytes | None:
    """git's output, or None where it fails or is not there."""
    try:
        done = subprocess.run(
            ["git", *args], cwd=cwd, input=stdin, capture_output=True, check=False
        )
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None


def renamed_from(toplevel: str, commit_id: str, name: str) -> str | None:
    """The name ``git log --follow`` goes on with where *commit_id* adds
    *name* (itself if no rename), or None where git says nothing clear."""
    out = git(
        [
            "--literal-pathspecs",
            "log",
            "--follow",
            "-1",
            "-z",
            "--name-status",
            "--format=",
            commit_id,
            "--",
            name,
        ],
        cwd=toplevel,
    )
    tokens = [os.fsdecode(token) for token in (out or b"").lstrip(b"\n").split(b"\0") if token]
    if len(tokens) == 3 and tokens[0][:1] in {"R", "C"} and tokens[2] == name:
        return tokens[1]
    return name if tokens == ["A", name] else None


#: Options of both walks that keep git's configuration from changing what
#: they write (decorations, signatures, notes, colours, paths relative to
#: the current directory).
PLAIN = ["--no-decorate", "--no-show-signature", "--no-notes", "--no-color"]


def walk(cwd: str) -> History | str | None:
    """The history of the repository *cwd* is in (as git finds it for the
    theme's calls, run there), walked once: None where git has none (no git,
    no repository: the theme's calls fail, every date is Unknown), or why
    not where the theme's own calls must answer."""
    toplevel = git(["rev-parse", "--show-toplevel"], cwd)
    if toplevel is None:
        if git(["rev-parse", "--git-dir"], cwd) is None:
            return None
        return "a repository without a work tree"
    if git(["rev-parse", "--verify", "-q", "HEAD"], cwd) is None:
        return None  # no commit yet: the theme's calls fail too
    history = History(os.fsdecode(toplevel.rstrip(b"\n")))
    out = git(
        [
            "log",
            "-m",
            "--root",
            "--no-renames",
            "--no-relative",
            "--name-status",
            "-z",
            "--pretty=oneline",
            "--no-abbrev-commit",
            "--parents",
            *PLAIN,
        ],
        cwd,
    )
    dates = git(["log", DATE, "--format=%H %ad", *PLAIN], cwd)
    if out is None or dates is None:
        return "git log failed"
    history.detection = detection(cwd)
    try:
        for line in dates.decode().splitlines():
            commit_id, _, date = line.partition(" ")
            history.dates[commit_id] = date
    except UnicodeDecodeError:
        return "git writes the dates in an encoding other than UTF-8"
    read_commits(history, out)
    if history.commits.keys() - history.dates.keys():
        return "the history changed while it was read"
    return history


def read_commits(history: History, out: bytes) -> None:
    """The walk's commits, in its order, each diff under its parent."""
    tokens = iter(out.split(b"\0"))
    diff: dict[str, str] = {}
    for token in tokens:
        if token[:1].isupper():  # a status; the path follows
            # Each path once in memory, however many commits change it.
            diff[sys.intern(os.fsdecode(next(tokens, b"")))] = token[:1].decode()
            continue
        header = HEADER.match(token.lstrip(b"\n"))
        if header is None:
            continue  # the end
        commit_id, parents, against = (
            part.decode() if part is not None else None for part in header.groups()
        )
        assert commit_id is not None and parents is not None  # the pattern's groups
        if commit_id not in history.commits:
            history.order.append(commit_id)
            history.commits[commit_id] = Commit(tuple(parents.split()), {})
        commit = history.commits[commit_id]
        if len(commit.parents) <= 1:
            against = commit.parents[0] if commit.parents else ROOT
        diff = (
            commit.diffs.setdefault(against, {})
            if against in commit.parents or against == ROOT
            else {}
        )


#: ``diff.renames`` as ``--follow`` reads it, and the ``git diff-tree``
#: option doing the same (plumbing reads no such setting).
DETECTION = {
    **dict.fromkeys(["", "true", "yes", "on", "1"], "-M"),
    **dict.fromkeys(["copy", "copies"], "-C"),
    **dict.fromkeys(["false", "no", "off", "0"], "--no-renames"),
}


def detection(cwd: str) -> str | None:
    """The ``git diff-tree`` option that detects renames as ``--follow``
    does here, or None where git's settings make that uncertain (a rename
    limit, a ``diff.renames`` it does not know)."""
    if git(["config", "--get", "diff.renameLimit"], cwd) is not None:
        return None
    setting = git(["config", "--get", "diff.renames"], cwd) or b""
    return DETECTION.get(setting.decode(errors="replace").strip().lower())


def renames_in(
    toplevel: str, commit_ids: list[str], option: str | None
) -> dict[str, dict[str, str]]:
    """Per commit, each file it adds and its source as git finds it over the
    whole commit, unchanged files included (``--find-copies-harder``, as
    ``--follow`` does): one process for all (none where it fails)."""
    args = ["diff-tree", "--stdin", "-r", "-z", "--name-status", "--find-copies-harder"]
    out = git([*args, str(option)], toplevel, "".join(f"{c}\n" for c in commit_ids).encode())
    found: dict[str, dict[str, str]] = {}
    current: dict[str, str] = {}
    tokens = iter(out.split(b"\0") if out is not None else [])
    for token in (token.lstrip(b"\n") for token in tokens):
        if token[:1].isupper():
            paths = [os.fsdecode(next(tokens, b""))]
            if token[:1] in {b"R", b"C"}:
                paths.append(os.fsdecode(next(tokens, b"")))
            current[paths[-1]] = paths[0]  # the added file: its source (itself if none)
        elif token:
            current = found.setdefault(token.decode(), {})
    return found
