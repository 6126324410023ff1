"""Migrate an installed PyTorch's own sources and compare its notes and its
lists of nondeterministic operations, before and after.

    python scripts/migrate_pytorch.py [WORK_DIR] [--wording SET]

Run it with a Python that has torch and reprodocs installed (torch is not a
dependency of reprodocs or its tests: ``pip install torch==2.13.0``). It
copies the installed ``torch`` package into WORK_DIR (default
bench/_work/pytorch-migration; its libraries as hard links where it can) and
runs
``python -m reprodocs migrate --write --wording SET`` on the copy.

It prints what the migration made of the two lists of
``torch.use_deterministic_algorithms``' docstring: each item, and the note it
was matched to, the entry added for it (in its operation's docstring, or in
the list's place), or why it stays in the list by hand; then the notes in
neither list, and the numbers.

Then it builds one page documenting ``use_deterministic_algorithms``, every
noted operation and every listed one, twice, with autodoc and napoleon: from
the original package, and from the migrated copy with reprodocs and
``reprodocs_wording = SET`` (default ``pytorch-2``, PyTorch 2.x's; with
``pytorch-1.4``, each note keeps its words through ``:wording:``); with
``--alerts-from SOURCE`` (torch's tests, ATen's sources; once for each), migrate
writes each item's ``:alert:`` where they tie one. It prints
each operation's notes as compared (a note now in a list says, besides,
what deterministic mode does: it is printed, not compared), each operation given an entry as compared (an entry renders
nothing: the whole description must be the same), each list's items as
compared (words, whitespace aside, and a link to the operation's own
description on the page), and whether ``nondeterministic.json`` names each
item's operation with its list's mode. It exits with 1 when migrate did
not exit with 0, when an item is kept by hand, when a note in neither list
or a description given an entry differs, when an item of a list is lost,
changed or not linked to its operation, or when the JSON misses one.

Then what ``help()`` shows (issue 39), read in a fresh interpreter that
cannot import reprodocs, from the original package and from the copy:
every note's sentences of every docstring of torch, torch.nn,
torch.nn.functional and torch.Tensor, and every item of the lists. It also
exits with 1 when one is lost, when the migrated build warns that what
help() shows is stale (``reprodocs.runtime-text``), or when a second
``migrate --write`` rewrites a file; and prints the diff's size (files,
lines added and removed).
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from bs4 import BeautifulSoup

from reprodocs import migrate

REPO = Path(__file__).resolve().parents[1]

#: The function whose docstring holds the lists.
LISTS_HOLDER = "torch.use_deterministic_algorithms"


def resolve(name: str) -> object | None:
    """The object a dotted name names, importing its modules; None if none."""
    parts = name.split(".")
    for split in range(len(parts) - 1, 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        try:
            for part in parts[split:]:
                found = getattr(found, part)
        except AttributeError:
            return None
        return found
    return None


def directive_for(name: str) -> str | None:
    """The autodoc directive documenting *name*, or None if it names nothing."""
    found = resolve(name)
    if found is None:
        return None
    if inspect.isclass(found):
        return "autoclass"
    owner = resolve(name.rpartition(".")[0])
    return "automethod" if inspect.isclass(owner) else "autofunction"


def write_site(directory: Path, objects: list[str], migrated: bool, wording: str) -> None:
    (directory / "notes").mkdir(parents=True, exist_ok=True)
    extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon"] + ["reprodocs"] * migrated
    (directory / "conf.py").write_text(
        f"extensions = {extensions!r}\nreprodocs_wording = {wording!r}\n", encoding="utf-8"
    )
    (directory / "notes" / "randomness.rst").write_text(
        ".. _reproducibility:\n\nReproducibility\n===============\n", encoding="utf-8"
    )
    entries = "".join(
        f".. {kind}:: {name}\n\n" for name in objects if (kind := directive_for(name)) is not None
    )
    (directory / "index.rst").write_text(
        f"API\n===\n\n.. toctree::\n\n   notes/randomness\n\n{entries}", encoding="utf-8"
    )


def copy_package(source: Path, target: Path) -> None:
    """A copy of *source* that can be edited without touching it: the files
    migrate reads (``.py``, ``.rst``) copied, the others (the libraries)
    hard links where they can be (migrate rewrites no file with other names)."""
    shutil.rmtree(target, ignore_errors=True)

    def copy(source: str, destination: str) -> object:
        if not source.endswith(migrate.SUFFIXES):
            try:
                os.link(source, destination)
                return destination
            except OSError:  # another file system
                pass
        return shutil.copy2(source, destination)

    shutil.copytree(source, target, copy_function=copy)


def with_path(pythonpath: Path | None) -> dict[str, str]:
    """The environment, *pythonpath* first on Python's path."""
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join(
            [str(pythonpath), *filter(None, [env.get("PYTHONPATH")])]
        )
    return env


def build(site: Path, pythonpath: Path | None) -> Path:
    """Build *site*; its warnings about what help() shows are printed, and
    counted in the file ``runtime-text-warnings`` beside the output."""
    out = site / "_build"
    warnings = site / "warnings.txt"
    command = [sys.executable, "-m", "sphinx", "-q", "-E", "-b", "html", "-w", str(warnings)]
    subprocess.run([*command, str(site), str(out)], env=with_path(pythonpath), check=True)
    said = [line for line in warnings.read_text().splitlines() if "runtime-text" in line]
    print(*said, sep="\n")
    (out / "runtime-text-warnings").write_text(str(len(said)))
    return out / "index.html"


#: The docstrings of torch, torch.nn, torch.nn.functional and torch.Tensor,
#: read in a fresh interpreter that cannot import reprodocs, as JSON.
DOCSTRINGS = """
import json, sys, warnings
warnings.simplefilter("ignore")
sys.modules["reprodocs"] = None  # importing it fails: torch must not need it
import torch, torch.nn, torch.nn.functional
found = {}
for module in (torch, torch.nn, torch.nn.functional, torch.Tensor):
    for name in dir(module):
        try:
            doc = getattr(module, name).__doc__
        except Exception:
            continue
        if isinstance(doc, str):
            found[module.__name__ + "." + name] = " ".join(doc.split())
print(json.dumps(found))
"""

#: The sentences of PyTorch's notes (reproducibility_notes), as help() shows them.
NOTE_SENTENCES = re.compile(
    r"(?:This operation may|In some circumstances when given).*?"
    r"See :doc:`/notes/randomness` for more information\."
)


def compare_runtime(original: Path | None, migrated: Path) -> int:
    """What help() shows before and after, each in a fresh interpreter
    without reprodocs: every note's sentences of every docstring, and every
    item of the lists; the number lost."""
    before, after = (
        json.loads(
            subprocess.run(
                [sys.executable, "-c", DOCSTRINGS],
                env=with_path(path),
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
        for path in (original, migrated)
    )
    lost = 0
    noted = {name: NOTE_SENTENCES.findall(doc) for name, doc in before.items()}
    noted = {name: said for name, said in noted.items() if said}
    for name, said in sorted(noted.items()):
        missing = [sentence for sentence in said if sentence not in after.get(name, "")]
        lost += len(missing)
        print(f"{'LOST' if missing else 'kept'}: {name} ({len(said)} note sentence(s))")
    holder = before[LISTS_HOLDER]
    start, end = holder.index("The following"), holder.index("In addition")
    items = [item.strip() for item in holder[start:end].split(" * ")[1:]]
    items = [re.sub(r" The following normally-nondeterministic .*$", "", i) for i in items]
    kept = [item for item in items if item in after[LISTS_HOLDER]]
    lost += len(items) - len(kept)
    print(
        f"\nhelp(): {len(noted)} docstrings showed a note's sentences, "
        f"{sum(all(s in after.get(n, '') for s in said) for n, said in noted.items())} still do; "
        f"{LISTS_HOLDER} showed {len(items)} items, {len(kept)} still does (reprodocs not importable)"
    )
    return lost


def diff_figures(original: Path, migrated: Path) -> str:
    """The migration as a pull request: files changed, lines added and removed."""
    files = added = removed = 0
    for path in sorted(migrated.rglob("*.py")):
        old = (original / path.relative_to(migrated)).read_text(encoding="utf-8").splitlines()
        new = path.read_text(encoding="utf-8").splitlines()
        if old == new:
            continue
        files += 1
        for line in difflib.unified_diff(old, new, lineterm="", n=0):
            if line.startswith(("+++", "---")):
                continue
            added += line.startswith("+")
            removed += line.startswith("-")
    return f"{files} files, +{added} -{removed}"


def notes_by_object(soup: BeautifulSoup) -> dict[str, list[str]]:
    """Each documented object's reproducibility notes, as HTML."""
    notes: dict[str, list[str]] = {}
    for description in soup.select("dl.py"):
        if not description.dt.get("id"):
            continue  # described again elsewhere (:no-index:)
        body = description.find("dd", recursive=False)
        notes[description.dt["id"]] = [
            str(note)
            for note in body.find_all("div", class_="note", recursive=False)
            if "nondeterministic" in note.get_text()
        ]
    return notes


def list_items(soup: BeautifulSoup) -> list[list[tuple[str, tuple[str, ...]]]]:
    """The items of the lists of ``use_deterministic_algorithms``' docstring
    (by hand, in a block quote; generated, at the docstring's margin), each
    after "The following normally-nondeterministic operations ...": each
    item's words and links."""
    body = soup.find(id=LISTS_HOLDER).find_next_sibling("dd")
    found = []
    for bullets in body.find_all("ul"):
        if bullets.find_parent("li") is not None:  # the list of modes in an item
            continue
        block = bullets if bullets.parent is body else bullets.find_parent("blockquote")
        introduction = block.find_previous_sibling() if block is not None else None
        if introduction is None or "normally-nondeterministic" not in introduction.get_text():
            continue
        found.append(
            [
                (" ".join(item.get_text().split()), tuple(a["href"] for a in item.find_all("a")))
                for item in bullets.find_all("li", recursive=False)
            ]
        )
    return found


def report_lists(outcome: migrate.ListsOutcome) -> None:
    """Print what the migration makes of each item, and each note in neither list."""
    notes = {id(item): note for item, note in outcome.matched}
    entries = {id(item): docstring for item, docstring in outcome.entries}
    for found in outcome.lists:
        print(f"\n{found.path}:{found.line}: {found.kind}, {len(found.items)} items:")
        for item in found.items:
            if (note := notes.get(id(item))) is not None:
                print(f"  note    {item.text}")
                print(
                    f"          <- {note.directive} on {note.operations[0]} at {note.path}:{note.line}"
                )
            elif id(item) in entries:
                docstring = entries[id(item)]
                where = f"{docstring.path}:{docstring.line}" if docstring else "the list's place"
                prose = " (beside its note in prose)" if docstring and docstring.prose_note else ""
                print(f"  entry   {item.text}")
                print(f"          -> {where}{prose}")
            else:
                print(f"  by hand {item.text}")
            alerts = [v for k, v in outcome.options_of.get(id(item), []) if k == "alert"]
            if alerts:
                print(f"          :alert: {alerts[0]}")
    print(f"\nnotes in neither list ({len(outcome.unlisted)}):")
    for note in outcome.unlisted:
        print(f"  {note.directive} on {', '.join(note.operations)} ({note.path}:{note.line})")


def words(item: tuple[str, tuple[str, ...]]) -> tuple[str, tuple[str, ...]]:
    """An item's words and links, whitespace aside."""
    text, links = item
    return " ".join(text.split()), links


def compare_lists(before: BeautifulSoup, after: BeautifulSoup) -> int:
    """Print each list's items before and after, item by item; the number of
    items lost, changed, or linked elsewhere than to their operation's own
    description on the page."""
    changed = 0
    for number, (old, new) in enumerate(zip(list_items(before), list_items(after), strict=True)):
        print(f"\nlist {number + 1}: {len(old)} items before, {len(new)} after")
        gone = Counter(map(words, old)) - Counter(map(words, new))
        added = Counter(map(words, new)) - Counter(map(words, old))
        for item in old:
            linked = all(href.startswith("#") and after.find(id=href[1:]) for href in item[1])
            state = "LOST   " if words(item) in gone else "same   " if linked else "UNLINKED"
            changed += state != "same   "
            print(f"  {state} {item[0]} {list(item[1])}")
        for text, links in added.elements():
            print(f"  now     {text} {list(links)}")
    return changed


def compare_entries(
    outcome: migrate.ListsOutcome, before: BeautifulSoup, after: BeautifulSoup
) -> int:
    """Print whether each operation given an entry in its docstring is
    described as before, whole (an entry renders nothing); the number that
    are not."""
    differ = 0
    names = dict.fromkeys(item.operation for item, docstring in outcome.entries if docstring)
    for name in names:
        old, new = before.find(id=name), after.find(id=name)
        same = old is not None and new is not None and str(old.parent) == str(new.parent)
        differ += not same
        print(f"{'same' if same else 'DIFFERENT'}: {name}, given an entry")
    print(
        f"the descriptions of {len(names) - differ} of {len(names)} operations given an entry the same"
    )
    return differ


def compare_registry(outcome: migrate.ListsOutcome, registry: Path) -> int:
    """Print whether nondeterministic.json names each item's operation with
    its list's mode; the number it does not."""
    operations = json.loads(registry.read_text(encoding="utf-8"))["operations"]
    missing = 0
    for found in outcome.lists:
        for item in found.items:
            named = [
                entry
                for entry in operations
                if item.operation
                in (entry["name"], entry.get("listed_as"), *(entry.get("aliases") or ()))
                and entry["deterministic_algorithms"] == found.kind
            ]
            if not named:
                missing += 1
                print(f"NOT IN {registry.name}: {item.operation} ({found.kind})")
    items = sum(len(found.items) for found in outcome.lists)
    print(f"{registry.name}: {items - missing} of {items} items named with their mode")
    return missing


def documented(outcome: migrate.ListsOutcome) -> list[str]:
    """The objects the page documents: the lists' holder, the operations as
    the lists name them (torch.nn.Conv1d, which torch.nn.modules.conv
    defines), those of the notes matched to them and of the notes in neither."""
    return list(
        dict.fromkeys(
            [
                LISTS_HOLDER,
                *(item.operation for found in outcome.lists for item in found.items),
                *(
                    note.operations[0]
                    for item, note in outcome.matched
                    if not migrate.names_match(item.operation, note.operations[0])
                ),
                *(note.operations[0] for note in outcome.unlisted),
            ]
        )
    )


def main(work: Path, wording: str, alerts_from: list[str]) -> int:
    import torch

    original = Path(torch.__file__).parent
    copy = work / "migrated"
    copy_package(original, copy / "torch")

    outcome = migrate.survey([str(original)], wording, alerts_from)
    report_lists(outcome)
    items = sum(len(found.items) for found in outcome.lists)
    print(
        f"\ntorch {torch.__version__}: {items} items in the lists: {len(outcome.matched)} "
        f"from a note, {len(outcome.entries)} from an entry added, {len(outcome.kept)} kept "
        f"by hand; {len(outcome.unlisted)} notes in neither list\n"
    )

    command = [sys.executable, "-m", "reprodocs", "migrate", "--write", "--wording", wording]
    command += [argument for source in alerts_from for argument in ("--alerts-from", source)]
    migration = subprocess.run(
        [*command, str(copy / "torch")], capture_output=True, text=True, check=False
    )
    print(migration.stdout + migration.stderr, end="")
    print(f"migrate exited with {migration.returncode}\n")
    objects = documented(outcome)
    # The descriptions whose notes now say what deterministic mode does.
    listed = {item.operation for item, _ in outcome.matched}
    listed |= {note.operations[0] for _, note in outcome.matched}
    sites = {"original": work / "original-site", "migrated": work / "migrated-site"}
    for name, site in sites.items():
        shutil.rmtree(site, ignore_errors=True)
        write_site(site, objects, migrated=name == "migrated", wording=wording)
    pages = {
        "original": build(sites["original"], None),
        "migrated": build(sites["migrated"], copy),
    }
    before, after = (
        BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser") for page in pages.values()
    )
    notes_before, notes_after = notes_by_object(before), notes_by_object(after)
    differ = 0
    for name, notes in notes_before.items():
        if not notes and not notes_after.get(name):
            continue
        if name in listed:
            print(f"in a list: {name} ({len(notes)} note(s)), now:")
            for note in notes_after.get(name, []):
                print("   ", " ".join(BeautifulSoup(note, "html.parser").get_text().split()))
            continue
        same = notes == notes_after.get(name)
        differ += not same
        print(f"{'same' if same else 'DIFFERENT'}: {name} ({len(notes)} note(s))")
    compared = sum(1 for name, notes in notes_before.items() if notes and name not in listed)
    print(
        f"torch {torch.__version__}: the notes of {compared - differ} of {compared} other "
        "descriptions the same\n"
    )
    differ += compare_entries(outcome, before, after)
    lost = compare_lists(before, after)
    print(f"\nitems lost, changed or not linked to their operation: {lost}\n")
    missing = compare_registry(outcome, pages["migrated"].parent / "nondeterministic.json")
    stale = int((pages["migrated"].parent / "runtime-text-warnings").read_text())
    print(f"warnings about what help() shows in the migrated build: {stale}\n")
    gone = compare_runtime(None, copy)
    print(f"help(): note sentences and items lost: {gone}")
    again = subprocess.run(
        [*command, str(copy / "torch")], capture_output=True, text=True, check=False
    )
    rewrote = again.stdout.count("rewrote ")
    print(f"a second run rewrote {rewrote} files (exit {again.returncode})")
    print(f"the diff of the migration: {diff_figures(original, copy / 'torch')}")
    failed = differ or lost or missing or outcome.kept or migration.returncode
    failed = failed or stale or gone or rewrote or again.returncode
    return 1 if failed else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument(
        "work",
        nargs="?",
        type=Path,
        default=REPO / "bench" / "_work" / "pytorch-migration",
        metavar="WORK_DIR",
    )
    parser.add_argument("--wording", default="pytorch-2", metavar="SET")
    parser.add_argument("--alerts-from", action="append", default=[], metavar="SOURCE")
    arguments = parser.parse_args()
    sys.exit(main(arguments.work, arguments.wording, arguments.alerts_from))
