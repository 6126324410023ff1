"""bench/pytorch_docs_tree.json, PyTorch's docs tree for ``bench/themes.py
--site pytorch``, and its generator in bench/sites.py."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


def _load_sites():
    spec = importlib.util.spec_from_file_location("bench_sites", BENCH / "sites.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


sites = _load_sites()


@pytest.fixture(scope="module")
def tree() -> dict:
    return sites.load_pytorch_tree(BENCH / "pytorch_docs_tree.json")


def _glob_regex(pattern: str) -> re.Pattern:
    # Sphinx's toctree globs: * and ? do not cross a /.
    return re.compile("^" + re.escape(pattern).replace(r"\*", "[^/]*").replace(r"\?", "[^/]") + "$")


def _targets(docname: str, page: dict, pages: dict):
    """(entry, docnames it names) for each toctree entry of *page*."""
    for toctree in page.get("toctrees", ()):
        for entry in toctree["entries"]:
            _, target = sites.toctree_target(entry)
            resolved = sites.resolve_entry(docname, target)
            if resolved is None:
                continue
            if toctree.get("glob") and any(c in target for c in "*?["):
                regex = _glob_regex(resolved)
                yield entry, [d for d in pages if regex.match(d) and d != docname]
            else:
                yield entry, [resolved]


def test_the_tree_names_its_source_and_commit(tree):
    assert tree["source"] == "pytorch/pytorch"
    assert re.fullmatch(r"[0-9a-f]{40}", tree["commit"])
    assert tree["files"]["index.md"] == tree["commit"]
    assert all(re.fullmatch(r"[0-9a-f]{40}", commit) for commit in tree["files"].values())


def test_about_2900_pages_most_of_them_generated(tree):
    pages = tree["pages"]
    assert 2600 <= len(pages) <= 3200
    generated = [page for page in pages.values() if page.get("generated")]
    assert len(generated) > 2000
    assert {page["object"] for page in generated} == {"class", "function"}
    assert pages["generated/torch.nn.Conv2d"] == {
        "title": "Conv2d", "generated": True, "object": "class",
    }  # fmt: skip
    assert pages["generated/torch.abs"]["title"] == "torch.abs"
    assert pages["index"]["title"] == "PyTorch Documentation"


def test_every_toctree_entry_is_a_page_and_every_page_is_reached(tree):
    pages = tree["pages"]
    unresolved = [
        (docname, entry)
        for docname, page in pages.items()
        for entry, targets in _targets(docname, page, pages)
        if not targets or any(target not in pages for target in targets)
    ]
    assert unresolved == []
    reached, queue = set(), ["index"]
    while queue:
        docname = queue.pop()
        if docname not in reached:
            reached.add(docname)
            for _, targets in _targets(docname, pages[docname], pages):
                queue += targets
    assert reached == set(pages)


def test_toctree_options_as_written(tree):
    pages = tree["pages"]
    (api,) = [t for t in pages["pytorch-api"]["toctrees"] if t["caption"] == "Python API"]
    assert api["glob"] and api["maxdepth"] == 1 and not api["hidden"]
    assert "torch.amp <amp>" in api["entries"]
    (notes,) = pages["notes"]["toctrees"]
    assert notes["glob"] and notes["entries"] == ["notes/*"]
    (hidden,) = pages["index"]["toctrees"]
    assert hidden["hidden"] and hidden["maxdepth"] == 2


def test_the_generator_writes_the_same_files_twice(tmp_path, tree):
    first = sites.generate_pytorch_site(tmp_path / "a", tree)
    # The second run goes into a directory with a stale page, which it removes.
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "stale.rst").write_text("Stale\n=====\n", encoding="utf-8")
    second = sites.generate_pytorch_site(tmp_path / "b", tree)

    def files(root: Path) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*.*")}

    written = files(first)
    assert written == files(second)
    assert len([name for name in written if name.endswith(".rst")]) == len(tree["pages"])
    assert 'extensions = ["reprodocs"]' in written["conf.py"].decode()
    conv = written["generated/torch.nn.Conv2d.rst"].decode()
    assert conv.startswith("Conv2d\n======\n")
    assert ".. py:class:: torch.nn.Conv2d(*args, **kwargs)" in conv
    # Titles are escaped as autosummary escapes them: abs_ is no reference.
    abs_ = written["generated/torch.Tensor.abs_.rst"].decode()
    assert abs_.startswith("torch.Tensor.abs\\_\n==================\n")
    assert "   torch.amp <amp>\n" in written["pytorch-api.rst"].decode()
    assert "   cuda.aliases\n" in written["cuda.rst"].decode()  # .md suffix dropped
