"""Entries in the docstrings sphinx-autodoc2 renders: read once, where the
object is described, though its module's summary table parses each
docstring too (and drops all but its first paragraph); in MyST, as
Megatron-LM's docs render theirs, and in reStructuredText."""

from __future__ import annotations

import pytest
from sphinx.util.console import strip_colors

from conftest import exported_index, parse_html, text_of

pytest.importorskip("autodoc2")

INDEX = """\
Catalog
=======

.. toctree::

   apidocs/index

.. nondeterministic-ops::
   :columns: operation, where
"""

#: A function whose docstring holds a note on it and an entry named by a
#: label; another whose docstring opens with an entry.
MYST = '''\
def unpermute(tokens):
    """Restore the tokens' order after the experts.

    ```{nondeterministic-entry}
    :label: MoE token unpermute (combine)
    :where: megatron/core/transformer/moe/moe_utils.py
    ```

    ```{cuda-deterministic}
    ```
    """


def route(tokens):
    """```{nondeterministic-entry}
    :label: MoE routing map and probabilities
    :where: megatron/core/transformer/moe/moe_utils.py
    ```

    Route the tokens to the experts.
    """
'''

RST = '''\
def unpermute(tokens):
    """Restore the tokens' order after the experts.

    .. nondeterministic-entry::
       :label: MoE token unpermute (combine)
       :where: megatron/core/transformer/moe/moe_utils.py

    .. cuda-deterministic::
    """


def route(tokens):
    """.. nondeterministic-entry::
       :label: MoE routing map and probabilities
       :where: megatron/core/transformer/moe/moe_utils.py

    Route the tokens to the experts.
    """
'''

CONF = """\
extensions = ["myst_parser", "reprodocs", "autodoc2"]
reprodocs_reproducibility_doc = "index"
reprodocs_entry_fields = [{"option": "where", "title": "Where", "kind": "values"}]
autodoc2_packages = ["megapkg"]
"""
MYST_CONF = """\
autodoc2_render_plugin = "myst"
autodoc2_docstring_parser_regexes = [(r".*", "myst")]
"""


@pytest.mark.parametrize(("docstrings", "settings"), [(MYST, MYST_CONF), (RST, "")],
                         ids=["myst", "rst"])  # fmt: skip
def test_a_docstring_s_entries_are_read_once_where_the_object_is_described(
    make_app, tmp_path, docstrings, settings
):
    srcdir = tmp_path / "src"
    (srcdir / "megapkg").mkdir(parents=True)
    (srcdir / "megapkg" / "__init__.py").write_text(docstrings, encoding="utf-8")
    (srcdir / "conf.py").write_text(CONF + settings, encoding="utf-8")
    (srcdir / "index.rst").write_text(INDEX, encoding="utf-8")
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    assert strip_colors(app.warning.getvalue()) == ""
    exported = exported_index(app.outdir)["operations"]
    assert sorted((entry["name"] or "", entry.get("label", "")) for entry in exported) == [
        ("", "MoE routing map and probabilities"),
        ("", "MoE token unpermute (combine)"),
        ("megapkg.unpermute", ""),
    ]
    page = parse_html(app.outdir / "apidocs" / "megapkg" / "megapkg.html")
    for entry in exported:
        anchor = entry["uri"].partition("#")[2]
        [target] = page.select(f"[id='{anchor}']")
        # in the object's description, not in the summary table
        assert target.find_parent("dl") is not None
    summaries = [text_of(row) for row in page.select("table.autosummary tr")]
    assert summaries == [
        "unpermute Restore the tokens’ order after the experts.",
        "route Route the tokens to the experts.",
    ]
    assert len(page.select("table.autosummary div.admonition")) == 0
    rows = parse_html(app.outdir / "index.html").select("table.nondeterministic-ops tbody tr")
    assert len(rows) == 3
