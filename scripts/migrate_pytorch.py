"""Migrate an installed PyTorch's own sources and compare its notes, before and after.

    python scripts/migrate_pytorch.py [WORK_DIR]

Run it with a Python that has torch and reprodocs installed (torch is not a
dependency of reprodocs or its tests: ``pip install torch==2.13.0``). It
copies the installed ``torch`` package into WORK_DIR (default
bench/_work/pytorch-migration; hard links where it can, and a new file for
each file the migration rewrites), runs ``python -m reprodocs migrate --write``
on the copy, then builds one page documenting PyTorch's noted operations twice
with autodoc and napoleon: from the original package, and from the migrated
copy with reprodocs and ``reprodocs_wording = "pytorch-2"``. It prints each
operation's notes as compared, and exits with 1 when they differ.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from bs4 import BeautifulSoup

REPO = Path(__file__).resolve().parents[1]

#: Operations whose docstrings hold PyTorch 2.x's note placeholders.
OBJECTS = {
    "autofunction": [
        "torch.nn.functional.ctc_loss",
        "torch.nn.functional.conv2d",
        "torch.nn.functional.interpolate",
        "torch.nn.functional.grid_sample",
        "torch.bincount",
    ],
    "automethod": ["torch.Tensor.index_add_", "torch.Tensor.scatter_add_"],
    "autoclass": ["torch.nn.Conv2d", "torch.nn.ConvTranspose3d"],
}


def write_site(directory: Path, migrated: bool) -> None:
    (directory / "notes").mkdir(parents=True, exist_ok=True)
    extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon"] + ["reprodocs"] * migrated
    (directory / "conf.py").write_text(
        f'extensions = {extensions!r}\nreprodocs_wording = "pytorch-2"\n', encoding="utf-8"
    )
    (directory / "notes" / "randomness.rst").write_text(
        "Reproducibility\n===============\n", encoding="utf-8"
    )
    entries = "".join(
        f".. {kind}:: {name}\n\n" for kind, names in OBJECTS.items() for name in names
    )
    (directory / "index.rst").write_text(
        f"API\n===\n\n.. toctree::\n\n   notes/randomness\n\n{entries}", encoding="utf-8"
    )


def copy_package(source: Path, target: Path) -> None:
    """A copy of *source* that can be edited without touching it: hard links,
    which the migration replaces (it writes a new file, then renames it)."""
    shutil.rmtree(target, ignore_errors=True)
    try:
        shutil.copytree(source, target, copy_function=os.link)
    except OSError:  # another file system
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(source, target)


def build(site: Path, pythonpath: Path | None) -> Path:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    out = site / "_build"
    command = [sys.executable, "-m", "sphinx", "-q", "-E", "-b", "html", str(site), str(out)]
    subprocess.run(command, env=env, check=True)
    return out / "index.html"


def notes_by_object(page: Path) -> dict[str, list[str]]:
    """Each documented object's reproducibility notes, as HTML."""
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    notes: dict[str, list[str]] = {}
    for description in soup.select("dl.py"):
        body = description.find("dd", recursive=False)
        notes[description.dt["id"]] = [
            str(note)
            for note in body.find_all("div", class_="note", recursive=False)
            if "nondeterministic" in note.get_text()
        ]
    return notes


def main(work: Path) -> int:
    import torch

    original = Path(torch.__file__).parent
    copy = work / "migrated"
    copy_package(original, copy / "torch")
    migration = subprocess.run(
        [sys.executable, "-m", "reprodocs", "migrate", "--write", str(copy / "torch")],
        capture_output=True,
        text=True,
        check=False,
    )
    print(migration.stdout + migration.stderr, end="")
    sites = {"original": work / "original-site", "migrated": work / "migrated-site"}
    for name, site in sites.items():
        shutil.rmtree(site, ignore_errors=True)
        write_site(site, migrated=name == "migrated")
    before = notes_by_object(build(sites["original"], None))
    after = notes_by_object(build(sites["migrated"], copy))
    differ = 0
    for name in before:
        same = before[name] == after.get(name)
        differ += not same
        print(f"{'same' if same else 'DIFFERENT'}: {name} ({len(before[name])} note(s))")
    print(f"torch {torch.__version__}: {len(before) - differ} of {len(before)} descriptions same")
    return 1 if differ or migration.returncode else 0


if __name__ == "__main__":
    sys.exit(
        main(
            Path(sys.argv[1])
            if len(sys.argv) > 1
            else REPO / "bench" / "_work" / "pytorch-migration"
        )
    )
