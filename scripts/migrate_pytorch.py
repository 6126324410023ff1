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
was matched to or why it stays in the list by hand; then the notes in
neither list, and the numbers.

Then it builds one page documenting ``use_deterministic_algorithms``, every
noted operation and every listed one, twice, with autodoc and napoleon: from
the original package, and from the migrated copy with reprodocs and
``reprodocs_wording = SET`` (default ``pytorch-2``, PyTorch 2.x's; with
``pytorch-1.4``, each note keeps its words through ``:wording:``). It prints
each operation's notes as compared (a note now in a list says, besides,
what deterministic mode does: it is printed, not compared) and, if the
installed reprodocs renders ``:format: list``, each list's items as compared.
It exits with 1 when a note in neither list differs, when an item of a list
is lost or changed, or when the migration failed.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import os
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


def build(site: Path, pythonpath: Path | None) -> Path:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join(
            [str(pythonpath), *filter(None, [env.get("PYTHONPATH")])]
        )
    out = site / "_build"
    command = [sys.executable, "-m", "sphinx", "-q", "-E", "-b", "html", str(site), str(out)]
    subprocess.run(command, env=env, check=True)
    return out / "index.html"


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
    (the items generated and those kept by hand after them): each item's words
    and links."""
    body = soup.find(id=LISTS_HOLDER).find_next_sibling("dd")
    return [
        [
            (" ".join(item.get_text().split()), tuple(a["href"] for a in item.find_all("a")))
            for bullets in quote.find_all("ul")
            if bullets.find_parent("li") is None
            for item in bullets.find_all("li", recursive=False)
        ]
        for quote in body.find_all("blockquote", recursive=False)
        # after "The following normally-nondeterministic operations ..."
        if "normally-nondeterministic" in quote.find_previous_sibling().get_text()
    ]


def renders_lists() -> bool:
    from reprodocs.notes.nondeterministic_ops import NondeterministicOpsDirective

    return "format" in NondeterministicOpsDirective.option_spec


def report_lists(outcome: migrate.ListsOutcome) -> None:
    """Print what the migration makes of each item, and each note in neither list."""
    notes = {id(item): note for item, note in outcome.matched}
    for found in outcome.lists:
        print(f"\n{found.path}:{found.line}: {found.kind}, {len(found.items)} items:")
        for item in found.items:
            note = notes.get(id(item))
            if note is not None:
                print(f"  note    {item.text}")
                print(f"          <- {note.directive} at {note.path}:{note.line}")
            else:
                print(f"  by hand {item.text}")
    print(f"\nnotes in neither list ({len(outcome.unlisted)}):")
    for note in outcome.unlisted:
        print(f"  {note.directive} on {', '.join(note.operations)} ({note.path}:{note.line})")


def words(item: tuple[str, tuple[str, ...]]) -> tuple[str, tuple[str, ...]]:
    """An item's words and links, without its commas: a list of words in an
    item (interpolate's modes) is a list of words, commas, in a ``:when:``."""
    text, links = item
    return text.replace(",", ""), links


def compare_lists(before: BeautifulSoup, after: BeautifulSoup) -> int:
    """Print each list's items before and after, item by item; the number of
    items lost or changed (in more than their commas)."""
    changed = 0
    for number, (old, new) in enumerate(zip(list_items(before), list_items(after), strict=True)):
        print(f"\nlist {number + 1}: {len(old)} items before, {len(new)} after")
        gone, added = Counter(old) - Counter(new), Counter(new) - Counter(old)
        lost = Counter(map(words, gone.elements())) - Counter(map(words, added.elements()))
        for item in old:
            state = (
                "same   "
                if item not in gone
                else "commas "
                if words(item) not in lost
                else "LOST   "
            )
            print(f"  {state} {item[0]} {list(item[1])}")
        for text, links in added.elements():
            print(f"  now     {text} {list(links)}")
        changed += sum(lost.values())
    return changed


def main(work: Path, wording: str) -> int:
    import torch

    original = Path(torch.__file__).parent
    copy = work / "migrated"
    copy_package(original, copy / "torch")

    outcome = migrate.survey([str(original)], wording)
    report_lists(outcome)
    items = len(outcome.matched) + len(outcome.kept)
    print(
        f"\ntorch {torch.__version__}: {items} items in the lists, {len(outcome.matched)} "
        f"matched to a note, {len(outcome.kept)} kept by hand; "
        f"{len(outcome.unlisted)} notes in neither list\n"
    )

    migration = subprocess.run(
        [
            sys.executable,
            "-m",
            "reprodocs",
            "migrate",
            "--write",
            "--wording",
            wording,
            str(copy / "torch"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    print(migration.stdout + migration.stderr, end="")
    # The operations as the lists name them (torch.nn.Conv1d, which
    # torch.nn.modules.conv defines), and those of the notes in neither list.
    listed = {item.operation for item, _ in outcome.matched}
    objects = list(
        dict.fromkeys(
            [
                LISTS_HOLDER,
                *(item.operation for found in outcome.lists for item in found.items),
                *(note.operations[0] for note in outcome.unlisted),
            ]
        )
    )
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
        "descriptions the same"
    )
    lost = 0
    if renders_lists():
        lost = compare_lists(before, after)
        print(f"\nitems lost or changed (in more than their commas): {lost}")
    else:
        print("\nreprodocs does not render :format: list: the lists are not compared")
    return 1 if differ or lost or migration.returncode == migrate.FILE_ERROR else 0


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
    arguments = parser.parse_args()
    sys.exit(main(arguments.work, arguments.wording))
