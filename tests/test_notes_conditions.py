"""reprodocs.notes.conditions: which builders show an entry, by the
``only`` and ``ifconfig`` directives around it; an entry that renders
nothing (``nondeterministic-entry``) as a note does."""

from __future__ import annotations

from conftest import exported_index, parse_html, text_of, write_page_project

ENTRIES = """\
.. py:function:: torch.everywhere(input)

   .. nondeterministic-entry::
      :backend: CUDA
      :pass: forward

.. only:: latex

   .. py:function:: torch.latex_only(input)

      .. nondeterministic-entry::
         :backend: CUDA
         :pass: forward

.. nondeterministic-ops::
"""


def test_an_entry_inside_only_is_listed_by_the_builders_showing_it(make_app, tmp_path):
    """It had no admonition to mark: its conditions were not read, so the
    HTML table and nondeterministic.json listed an entry written for LaTeX
    alone."""
    srcdir = write_page_project(tmp_path / "src", ENTRIES)
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    page = parse_html(app.outdir / "index.html")
    listed = text_of(page.select_one("table"))
    assert "torch.everywhere" in listed and "torch.latex_only" not in listed
    assert [op["name"] for op in exported_index(app.outdir)["operations"]] == ["torch.everywhere"]
    assert "<!--" not in (app.outdir / "index.html").read_text()  # the mark is gone

    app = make_app("latex", srcdir=srcdir, freshenv=True)
    app.build()
    tex = next(app.outdir.glob("*.tex")).read_text()
    assert "torch.latex\\_only" in tex[tex.rindex("Operation") :]
