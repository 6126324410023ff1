"""Entries named by a label rather than an API object (``:label:``): in a
page (reST and MyST), in the registry file; shown as text in the table
and the lists, each row and item a hyperlink target, linked to the
target the entry leaves where it is written; exported with a ``label``
key only where set; passed by the checks on operations; each misuse a
warning at the entry, the build going on."""

from __future__ import annotations

import pytest
from sphinx.util.console import strip_colors

from conftest import exported_index, items, lists, parse_html, text_of
from reprodocs.notes.domain import Note
from reprodocs.notes.labels import anchor_of, naming_problem, repeated_labels

#: Two of Megatron-LM's catalog rows, and a third in a note that renders.
PAGES = {
    "conf.py": """\
extensions = ["myst_parser", "reprodocs"]
reprodocs_registry_file = "registry.toml"
reprodocs_reproducibility_doc = "index"
reprodocs_entry_fields = [{"option": "where", "title": "Where", "kind": "values"}]
reprodocs_known_ops = ["torch.one"]
""",
    "index.rst": """\
Catalog
=======

.. toctree::

   moe

.. nondeterministic-entry::
   :label: Inference DP scheduling and RL rollout order
   :where: megatron/core/inference/engines/dynamic_engine.py, megatron/rl/rl_utils.py

.. nondeterministic-entry::
   :op: torch.one

.. nondeterministic-ops::

.. nondeterministic-ops::
   :format: list
""",
    "moe.md": """\
# MoE

```{nondeterministic}
:label: MoE token unpermute (combine)
:where: megatron/core/transformer/moe/moe_utils.py
```
""",
    "registry.toml": """\
[[entry]]
label = "Vocab-parallel embedding"
where = ["megatron/core/tensor_parallel/layers.py"]
""",
}

LABELS = (
    "Inference DP scheduling and RL rollout order",
    "MoE token unpermute (combine)",
    "Vocab-parallel embedding",
)


def write_project(srcdir, pages: dict[str, str]) -> None:
    srcdir.mkdir(parents=True, exist_ok=True)
    for name, text in pages.items():
        (srcdir / name).write_text(text, encoding="utf-8")


@pytest.fixture
def built(make_app, tmp_path):
    write_project(tmp_path / "src", PAGES)
    app = make_app("html", srcdir=tmp_path / "src", freshenv=True)
    app.build()
    return app


def test_a_label_is_shown_as_text_linked_to_where_the_entry_is_written(built):
    # No warning: a label is no operation, so reprodocs_known_ops passes it by.
    assert strip_colors(built.warning.getvalue()) == ""
    soup = parse_html(built.outdir / "index.html")
    rows = {
        text_of(tr.select_one("td")): tr
        for tr in soup.select("table.nondeterministic-ops tbody tr")
    }
    assert sorted(rows) == sorted([*LABELS, "torch.one"])
    for label in LABELS:
        cell = rows[label].select_one("td")
        assert cell.select("code") == []  # text, not a literal nor an API link
        assert rows[label].get("id")  # the row is a hyperlink target
    assert rows["torch.one"].get("id") is None  # as before: only labelled rows
    # Linked to the target the entry leaves where it is written.
    inference = rows[LABELS[0]].select_one("td a")["href"]
    assert inference == "#nondeterministic-entry-inference-dp-scheduling-and-rl-rollout-order"
    assert soup.select_one(f"[id='{inference[1:]}']") is not None
    moe = rows[LABELS[1]].select_one("td a")["href"]
    page, _, anchor = moe.partition("#")
    assert page == "moe.html"
    assert parse_html(built.outdir / "moe.html").select_one(f"[id='{anchor}']") is not None
    assert rows[LABELS[2]].select_one("td a") is None  # the registry file has no page
    # The list shows the label the same way, each labelled item a target.
    [shown] = lists(soup)
    assert items(shown) == [*sorted(LABELS), "torch.one()"]  # :func: for an operation
    labelled = [li for li in shown.find_all("li") if text_of(li) in LABELS]
    assert len(labelled) == 3
    assert all(li.get("id") and not li.select("code") for li in labelled)


def test_the_label_key_is_exported_only_where_set(built):
    operations = exported_index(built.outdir)["operations"]
    by_label = {op.get("label"): op for op in operations}
    assert set(by_label) == {*LABELS, None}
    assert "label" not in by_label[None]  # an entry named by :op:: as before
    assert list(by_label[None])[:2] == ["name", "directive"]
    moe = by_label[LABELS[1]]
    assert list(moe)[:3] == ["name", "label", "directive"]
    assert moe["name"] is None
    assert moe["uri"] == "moe.html#nondeterministic-entry-moe-token-unpermute-combine"
    assert by_label[LABELS[2]]["registry_file"] == {"path": "registry.toml", "line": 1}


MISUSED = {
    "index.rst": """\
Catalog
=======

.. nondeterministic-entry::
   :op: torch.one
   :label: Both

.. nondeterministic-entry::
   :label:

.. nondeterministic-entry::
   :label: Twice

.. nondeterministic-entry::
   :label: Twice
   :when: called twice

.. nondeterministic-entry::
   :label: Twice

.. nondeterministic-ops::
""",
    "registry.toml": '[[entry]]\nlabel = " "\n\n[[entry]]\nop = "torch.two"\nlabel = "Two"\n',
}


def test_each_misuse_is_a_warning_at_the_entry_and_the_build_goes_on(make_app, tmp_path):
    srcdir = tmp_path / "src"
    write_project(srcdir, {**MISUSED, "conf.py": PAGES["conf.py"].replace("reprodocs_known", "#")})
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    warnings = strip_colors(app.warning.getvalue())
    assert "must name its operation" not in warnings  # the empty label says it once
    index, registry = srcdir / "index.rst", srcdir / "registry.toml"
    for expected in (
        f"{index}:4: WARNING: nondeterministic-entry: op and label both name the entry",
        f'{index}:8: ERROR: Error in "nondeterministic-entry" directive',  # docutils'
        (
            f"{index}:14: WARNING: nondeterministic-entry: the label 'Twice' is already the "
            "entry's in index (line 11)"
        ),
        f"{index}:18: WARNING: nondeterministic-entry: Twice already carries this note (line 11)",
        f"{registry}:1: WARNING: label is empty",
        f"{registry}:4: WARNING: torch.two is not in the registry: op and label both name",
    ):
        assert expected in warnings, warnings
    soup = parse_html(app.outdir / "index.html")
    shown = [text_of(tr.select_one("td")) for tr in soup.select("table tbody tr")]
    assert shown == ["Twice", "Twice"]  # the misnamed are not in the registry
    # Each repeat has an anchor of its own, its row one too.
    ids = [tr["id"] for tr in soup.select("table tbody tr")]
    assert len(set(ids)) == 2


def test_naming_problem():
    assert naming_problem({"op": "torch.one"}) is None
    assert naming_problem({"label": "MoE"}) is None
    assert naming_problem({"label": ""}) == "label is empty"
    assert "both name" in (naming_problem({"label": "MoE", "op": "torch.one"}) or "")


def test_anchor_of_is_numbered_when_the_page_has_it():
    assert anchor_of("MoE token (combine)", {}) == "nondeterministic-entry-moe-token-combine"
    taken = {"nondeterministic-entry-moe": None}
    assert anchor_of("MoE", taken) == "nondeterministic-entry-moe-2"


def test_repeated_labels_pairs_each_repeat_with_the_first():
    first, again, other = (
        Note("", "nondeterministic-entry", "any", "both", "a", 1, label="L"),
        Note("", "nondeterministic-entry", "any", "both", "b", 2, label="L"),
        Note("torch.one", "nondeterministic-entry", "any", "both", "b", 3),
    )
    assert repeated_labels([first, other, again]) == [(again, first)]


#: A module docstring in MyST, as Megatron-LM's docs render theirs.
AUTODOC2 = {
    "conf.py": """\
extensions = ["myst_parser", "autodoc2", "reprodocs"]
reprodocs_reproducibility_doc = "index"
reprodocs_entry_fields = [{"option": "where", "title": "Where", "kind": "values"}]
autodoc2_packages = ["megapkg"]
autodoc2_render_plugin = "myst"
autodoc2_docstring_parser_regexes = [(r".*", "myst")]
""",
    "index.md": """\
# Catalog

```{toctree}
apidocs/index
```

```{nondeterministic-ops}
```
""",
    "megapkg/__init__.py": '''\
"""MoE utilities.

```{nondeterministic-entry}
:label: MoE token unpermute (combine)
:where: megatron/core/transformer/moe/moe_utils.py
```
"""
''',
}


def test_a_label_in_a_module_docstring_rendered_by_autodoc2_as_myst(make_app, tmp_path):
    pytest.importorskip("autodoc2")
    srcdir = tmp_path / "src"
    write_project(srcdir / "megapkg", {})
    write_project(srcdir, AUTODOC2)
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    assert strip_colors(app.warning.getvalue()) == ""
    soup = parse_html(app.outdir / "index.html")
    [row] = soup.select("table.nondeterministic-ops tbody tr")
    cell = row.select_one("td")
    assert text_of(cell) == LABELS[1]
    assert cell.select("code") == [] and row.get("id")
    page, _, anchor = cell.select_one("a")["href"].partition("#")
    assert anchor == "nondeterministic-entry-moe-token-unpermute-combine"
    assert parse_html(app.outdir / page).select_one(f"[id='{anchor}']") is not None
    [operation] = exported_index(app.outdir)["operations"]
    assert (operation["name"], operation["label"]) == (None, LABELS[1])


ORDER_PAGES = {
    "conf.py": 'extensions = ["reprodocs"]\nreprodocs_reproducibility_doc = "index"\n',
    "index.rst": """\
Catalog
=======

.. toctree::

   more

.. nondeterministic-entry::
   :label: Zeta, written first

.. nondeterministic-entry::
   :op: torch.two

.. nondeterministic-entry::
   :label: Alpha, written second

.. nondeterministic-entry::
   :op: torch.one

.. nondeterministic-ops::
""",
    "more.rst": """\
More
====

.. nondeterministic-entry::
   :label: Beta, on the next page
""",
}


def test_the_operations_are_sorted_and_the_labelled_entries_keep_their_written_order(
    make_app, tmp_path
):
    write_project(tmp_path / "src", ORDER_PAGES)
    app = make_app("html", srcdir=tmp_path / "src", freshenv=True)
    app.build()
    assert strip_colors(app.warning.getvalue()) == ""
    soup = parse_html(app.outdir / "index.html")
    rows = soup.select("table.nondeterministic-ops tbody tr")
    assert [text_of(tr.select_one("td")) for tr in rows] == [
        "torch.one", "torch.two", "Zeta, written first", "Alpha, written second",
        "Beta, on the next page",
    ]  # fmt: skip
    operations = exported_index(app.outdir)["operations"]
    assert [entry.get("label") or entry["name"] for entry in operations] == [
        "torch.one", "torch.two", "Zeta, written first", "Alpha, written second",
        "Beta, on the next page",
    ]  # fmt: skip
