"""Build ``bench/pytorch_docs_tree.json``, the toctree skeleton of PyTorch's
``docs/source``, from excerpts of PyTorch's own files.

The excerpts (one ``*.txt`` per source file, in a directory given on the
command line; not kept in the repository) were written by hand from the files
as read with a code-search tool's copy of ``pytorch/pytorch``: for each file
its path and the commit of the stored version read, its first heading, and
its ``toctree`` and ``autosummary`` directives (reStructuredText, MyST fences
and ``{eval-rst}`` blocks alike) with their options and entries as written,
and the ``currentmodule`` in force before each autosummary. Prose, code and
``auto*`` directives other than autosummary were left out. A line of an
excerpt is one of::

    == docs-relative/path.md <commit>
    title <first heading>
    note <what was not read, or an oddity of the stored file>
    module <the currentmodule from here on>
    auto <toctree dir> <template or -> [@prefix] <name> <name> ...
    toctree [hidden] [glob] [maxdepth=N] [caption=Text] :: entry ; entry ; ...

``@prefix`` is prepended to each name of that autosummary (written
``@Tensor.`` for the long lists of ``Tensor`` methods). ::

    python bench/pytorch_docs_extract.py bench/_work/pytorch-dump > bench/pytorch_docs_tree.json

The skeleton: starting at ``index``, every page reachable through toctrees
(globs expanded over the files listed in :data:`GLOB_FILES`), and every page
an autosummary with ``:toctree:`` generates (``<dir>/<toctree>/<fullname>``,
as autosummary names them). Pages referenced but not excerpted get their last
name component as title (``"title_from": "docname"``).
"""

from __future__ import annotations

import json
import posixpath
import re
import sys
from pathlib import Path

#: The commit of ``docs/source/index.md`` as read: the root of the tree. Other
#: files were read at the commit of their own stored version (``files``).
ROOT_COMMIT = "0a60cb82134d34b5306c849ae7930922e9fa1ea2"

#: Files of the directories that glob toctrees match, from the code-search
#: index's listing of ``docs/source`` (``.md`` files only: the listing is the
#: union over the crawled history, and every page still present was moved
#: from ``.rst`` to ``.md`` in 2025, so ``.rst`` files without an ``.md``
#: twin are ones deleted before that).
GLOB_FILES = {
    "notes": [
        "accelerator", "amp_examples", "autograd", "broadcasting",
        "cpu_threading_torchscript_inference", "cuda", "custom_operators", "ddp",
        "extending.func", "extending", "extending_accelerator", "faq", "get_start_xpu",
        "gradcheck", "hip", "large_scale_deployments", "libtorch_stable_abi",
        "libtorch_stable_api", "local_tensor_tutorial", "memory_profiling", "mkldnn",
        "modules", "mps", "multiprocessing", "numerical_accuracy", "out",
        "profiler_architecture", "randomness", "serialization", "tensor_iterator",
        "windows", "xpu",
    ],
    "community": [
        "build_ci_governance", "compute-platform-quality-levels", "contribution_guide",
        "design", "governance", "index", "maintainer_guide", "persons_of_interest",
        "viable_strict",
    ],
}  # fmt: skip

#: autosummary templates of PyTorch's ``_templates`` that title a page with
#: ``{{ name }}`` (the short name); the others, Sphinx's own, with the full name.
SHORT_NAME_TEMPLATES = ("classtemplate.rst", "classnoinheritance.rst")

EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*://|^mailto:")
ENTRY_WITH_TITLE = re.compile(r"^(?P<title>.*\S)\s*<(?P<target>[^<>]+)>$")
SOURCE_SUFFIXES = (".md", ".rst")


def strip_suffix(name: str) -> str:
    for suffix in SOURCE_SUFFIXES:
        name = name.removesuffix(suffix)
    return name


def entry_target(entry: str) -> tuple[str | None, str]:
    """(title or None, target) of a toctree entry as written."""
    match = ENTRY_WITH_TITLE.match(entry)
    if match:
        return match["title"], match["target"].strip()
    return None, entry.strip()


def resolve(docname: str, target: str) -> str:
    """The docname a toctree entry of *docname* names (suffix stripped)."""
    target = strip_suffix(target)
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(posixpath.dirname(docname), target))


def parse_toctree(line: str) -> dict:
    options, _, entries = line[len("toctree") :].partition("::")
    toctree: dict = {"caption": None, "maxdepth": None, "hidden": False, "glob": False}
    caption = re.search(r"caption=(.*?)(?=\s+(?:hidden|glob|maxdepth=\d+)\b|\s*$)", options)
    if caption:
        toctree["caption"] = caption[1].strip()
        options = options.replace(caption[0], "")
    for token in options.split():
        if token in ("hidden", "glob"):
            toctree[token] = True
        elif token.startswith("maxdepth="):
            toctree["maxdepth"] = int(token.split("=", 1)[1])
        else:
            raise ValueError(f"unknown toctree option {token!r} in {line!r}")
    toctree["entries"] = [e.strip() for e in entries.split(" ; ") if e.strip()]
    return toctree


def fullname(module: str | None, name: str) -> str:
    """The name autosummary documents *name* under (``~`` dropped; a name
    already starting with ``torch.`` is taken as full, as the import of
    ``<module>.torch...`` fails and autosummary falls back to the name)."""
    name = name.lstrip("~")
    if module is None or name.startswith("torch."):
        return name
    return f"{module}.{name}"


def object_kind(name: str) -> str:
    last = name.rsplit(".", 1)[-1].lstrip("_")
    return "class" if last[:1].isupper() else "function"


def parse_excerpts(directory: Path) -> tuple[dict, dict]:
    """The excerpted documents ({docname: {...}}) and the generated pages."""
    documents: dict = {}
    generated: dict = {}
    for path in sorted(directory.glob("*.txt")):
        doc = None
        module = None
        for raw in path.read_text(encoding="utf-8").splitlines():
            line = raw.rstrip()
            if not line:
                continue
            keyword, _, rest = line.partition(" ")
            if keyword == "==":
                source, commit = rest.split()
                docname = strip_suffix(source)
                doc = documents[docname] = {
                    "source": source, "commit": commit, "title": None, "notes": [],
                    "toctrees": [],
                }  # fmt: skip
                module = None
            elif keyword == "title":
                doc["title"] = rest
            elif keyword == "note":
                doc["notes"].append(rest)
            elif keyword == "module":
                module = rest
            elif keyword == "toctree":
                doc["toctrees"].append(parse_toctree(line))
            elif keyword == "auto":
                tree, template, *names = rest.split()
                template = None if template == "-" else template
                if names and names[0].startswith("@"):
                    prefix = names.pop(0)[1:]
                    names = [prefix + name for name in names]
                entries = []
                for name in names:
                    full = fullname(module, name)
                    target = posixpath.join(tree, full)
                    entries.append(target)
                    docname_generated = resolve(docname, target)
                    short = full.rsplit(".", 1)[-1]
                    generated.setdefault(docname_generated, {
                        "title": short if template in SHORT_NAME_TEMPLATES else full,
                        "generated": True,
                        "object": object_kind(full),
                    })  # fmt: skip
                doc["toctrees"].append({
                    "autosummary": True, "module": module, "template": template,
                    "names": names, "caption": None, "maxdepth": -1, "hidden": False,
                    "glob": False, "entries": entries,
                })  # fmt: skip
            else:
                raise ValueError(f"{path}: unknown line {line!r}")
    return documents, generated


def glob_matches(docname: str, pattern: str, known: set[str]) -> list[str]:
    """Docnames a glob entry of *docname* matches among *known*, sorted, the
    document itself excluded (as Sphinx does)."""
    full = resolve(docname, pattern)
    regex = re.compile("^" + re.escape(full).replace(r"\*", "[^/]*").replace(r"\?", "[^/]") + "$")
    return sorted(d for d in known if regex.match(d) and d != docname)


def skeleton(directory: Path) -> dict:
    documents, generated = parse_excerpts(directory)
    glob_docs = {f"{folder}/{name}" for folder, names in GLOB_FILES.items() for name in names}
    pages: dict = {}
    queue = ["index"]
    while queue:
        docname = queue.pop(0)
        if docname in pages:
            continue
        if docname in generated:
            pages[docname] = generated[docname]
            continue
        doc = documents.get(docname)
        if doc is None:
            last = docname.rsplit("/", 1)
            name = last[-1] if last[-1] != "index" or len(last) == 1 else last[0].rsplit("/")[-1]
            pages[docname] = {"title": name, "title_from": "docname", "toctrees": []}
            continue
        page = {"title": doc["title"], "title_from": "heading", "source": doc["source"]}
        if doc["notes"]:
            page["notes"] = doc["notes"]
        page["toctrees"] = doc["toctrees"]
        pages[docname] = page
        for toctree in doc["toctrees"]:
            for entry in toctree["entries"]:
                _, target = entry_target(entry)
                if EXTERNAL.match(target) or target == "self":
                    continue
                if toctree["glob"] and any(c in target for c in "*?["):
                    queue += glob_matches(docname, target, glob_docs | set(documents))
                else:
                    queue.append(resolve(docname, target))
    files = {doc["source"]: doc["commit"] for name, doc in sorted(documents.items())
             if name in pages}  # fmt: skip
    return {
        "source": "pytorch/pytorch",
        "path": "docs/source",
        "commit": ROOT_COMMIT,
        "note": (
            "Toctree skeleton of PyTorch's docs/source, from the files as stored by a "
            "code-search index of pytorch/pytorch: index.md at the commit above, every "
            "other file at the commit of its stored version (see files; the index keeps "
            "one version per content, so the files do not all come from one commit). "
            "Toctrees and autosummary :toctree: blocks as written (entries as in the "
            "source; autosummary entries as the generated docnames, with the names as "
            "written in names). Titles: the first heading (title_from heading); "
            "autosummary pages (generated) the full name, or the short name under "
            "PyTorch's class templates; pages referenced but not read, their "
            "last name component (title_from docname). Glob toctrees expand over "
            "glob_files. Built by bench/pytorch_docs_extract.py."
        ),
        "files": files,
        "glob_files": {folder: sorted(names) for folder, names in GLOB_FILES.items()},
        "pages": dict(sorted(pages.items())),
    }


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        print("usage: pytorch_docs_extract.py EXCERPT_DIR > pytorch_docs_tree.json",
              file=sys.stderr)  # fmt: skip
        return 2
    sys.stdout.write(dumps(skeleton(Path(argv[0]))))
    return 0


def dumps(data: dict) -> str:
    """JSON with one page a line (diffable, and half the size of indented)."""
    lines = ["{"]
    for key, value in data.items():
        if key == "pages":
            lines.append('"pages": {')
            pages = [f" {json.dumps(name)}: {json.dumps(page, ensure_ascii=False)}"
                     for name, page in value.items()]  # fmt: skip
            lines.append(",\n".join(pages))
            lines.append("}")
        else:
            lines.append(f"{json.dumps(key)}: {json.dumps(value, indent=1, ensure_ascii=False)},")
    return "\n".join(lines) + "\n}\n"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
