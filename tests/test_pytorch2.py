"""The demo inside pytorch_sphinx_theme2, as PyTorch's documentation builds.

That theme pins Sphinx <= 7.2.6, so it has an environment of its own
(``make test-pytorch2``, as CI runs it; see
``conftest.require_pytorch_sphinx_theme2``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import (
    BACKWARD_TEXT,
    DEMO,
    notes_in,
    parse_html,
    require_pytorch_sphinx_theme2,
    text_of,
)
from reprodocs.notes.nondeterministic_ops import JSON_VERSION

#: The Reproducibility page, as the notes' links name it.
LINK = "notes/randomness"


@pytest.fixture(scope="module")
def site(build_demo) -> Path:
    require_pytorch_sphinx_theme2()
    # As `make demo-pytorch2` builds it.
    return build_demo(confdir=DEMO / "pytorch2")


def test_pages_are_written_by_pytorch_sphinx_theme2(site):
    soup = parse_html(site / "cuda_deterministic_backward.html")
    stylesheets = [link["href"] for link in soup.select('link[rel="stylesheet"]')]
    assert any("pydata-sphinx-theme.css" in href for href in stylesheets), stylesheets
    assert not any("reprodocs.css" in href for href in stylesheets), stylesheets
    assert soup.select_one("article.bd-article") is not None


def test_notes_are_the_theme_s_admonitions(site):
    soup = parse_html(site / "cuda_deterministic_backward.html")
    (note,) = notes_in(soup.select_one("article.bd-article"))
    assert note.select_one("p.admonition-title").get_text() == "Note"
    paragraph = note.select("p")[1]
    assert text_of(paragraph) == BACKWARD_TEXT
    assert paragraph.find("a")["href"] == f"{LINK}.html"


def test_tables_have_the_theme_s_table_style(site):
    soup = parse_html(site / "notes" / "randomness.html")
    tables = soup.select("table.nondeterministic-ops")
    assert tables
    for table in tables:
        # pydata-sphinx-theme's own table markup: its class, in its scrolling box.
        assert "table" in table["class"]
        assert "pst-scrollable-table-container" in table.parent["class"]
    operations = json.loads((site / "nondeterministic.json").read_text())["operations"]
    assert len(tables[-1].select("tbody tr")) == len(operations)


def test_nondeterministic_json_is_written(site):
    index = json.loads((site / "nondeterministic.json").read_text(encoding="utf-8"))
    assert index["version"] == JSON_VERSION
    names = {operation["name"] for operation in index["operations"]}
    assert "torch.nn.functional.ctc_loss" in names
    page, _, anchor = next(
        op["uri"] for op in index["operations"] if op["name"] == "torch.bincount"
    ).partition("#")
    assert parse_html(site / page).find(id=anchor) is not None


def markdown_text(text: str) -> str:
    return " ".join(text.split())


def test_markdown_and_llms_output_carry_the_note(site):
    """The Markdown copy of each page and llms-full.txt, which the theme writes
    from the HTML, keep the note's words and its link."""
    link = f"[Reproducibility]({LINK}.html)"
    expected = BACKWARD_TEXT.replace("Reproducibility", link)
    page = markdown_text((site / "cuda_deterministic_backward.md").read_text(encoding="utf-8"))
    assert f"Note {expected}" in page
    assert expected in markdown_text((site / "llms-full.txt").read_text(encoding="utf-8"))
    assert f"]({LINK}.md)" in (site / "llms.txt").read_text(encoding="utf-8")
    # The table too, as a Markdown table with its links.
    reproducibility = (site / "notes" / "randomness.md").read_text(encoding="utf-8")
    assert "| [`torch.Tensor.index_add_`](../tensors.html#torch.Tensor.index_add_) |" in (
        reproducibility
    )
    # And PyTorch's two lists, with their links.
    assert (
        "- [`torch.Tensor.put_()`](../tensors.html#torch.Tensor.put_) when `accumulate=False`"
    ) in reproducibility
