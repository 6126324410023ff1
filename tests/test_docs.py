"""reprodocs' own documentation (docs/): every directive rendered live, the
live index, the public API documented. `make docs` (CI) builds it with -W -n."""

from __future__ import annotations

import runpy
import shutil
import tomllib
from pathlib import Path

import pytest
import yaml
from sphinx.util.console import strip_colors

import reprodocs
from conftest import exported_index, notes_in, parse_html, text_of
from reprodocs.base.vocabulary import (
    ENTRY_DIRECTIVE,
    LIST_OPTIONS,
    NOTE_DIRECTIVE,
    NOTE_DIRECTIVES,
    note_options,
)
from reprodocs.notes.directives import NOTE_DIRECTIVE_CLASSES
from reprodocs.notes.domain import Note
from reprodocs.notes.nondeterministic_ops import NondeterministicOpsDirective

REPO = Path(__file__).parents[1]
DOCS = REPO / "docs"


def test_every_note_directive_is_rendered_on_the_directives_page(docs_html):
    operations = exported_index(docs_html)["operations"]
    assert {op["directive"] for op in operations if op["docname"] == "directives"} == set(
        NOTE_DIRECTIVES
    )
    notes = notes_in(parse_html(docs_html / "directives.html").find(role="main"))
    assert len(notes) == len(operations)
    # Each links to the page reprodocs_reproducibility_doc names, a real page.
    assert {note.select_one("p:not(.admonition-title) a")["href"] for note in notes} == {
        "nondeterministic-ops.html"
    }


def test_the_directives_take_the_vocabulary_s_options():
    for directive in NOTE_DIRECTIVE_CLASSES:
        assert tuple(directive.option_spec) == note_options(directive.directive_name)
    assert {directive.directive_name for directive in NOTE_DIRECTIVE_CLASSES} == {
        *NOTE_DIRECTIVES,
        ENTRY_DIRECTIVE,
    }
    assert tuple(NondeterministicOpsDirective.option_spec) == LIST_OPTIONS


def test_every_directive_and_option_is_documented(docs_html):
    soup = parse_html(docs_html / "directives.html")
    for option in note_options(NOTE_DIRECTIVE):
        assert soup.find(id=f"option-{option}"), option
    summary = soup.find(role="main").select_one("table")
    rows = [[cell.get_text(strip=True) for cell in row("td")] for row in summary("tr")[1:]]
    assert sorted(row[0] for row in rows) == sorted(NOTE_DIRECTIVES)
    for name, backend, affected_pass, options in rows:
        assert options == ",".join(f":{option}:" for option in note_options(name))
        if name != NOTE_DIRECTIVE:
            assert (backend, affected_pass) == NOTE_DIRECTIVES[name]
    for directive in NOTE_DIRECTIVES:
        target = soup.find(id=f"directive-{directive}")
        assert target, directive
        section = target if target.name == "section" else target.find_parent("section")
        if directive != NOTE_DIRECTIVE:  # a preset links each option it takes
            links = {a["href"] for a in section.find_all("a", href=True)}
            assert {f"#option-{option}" for option in note_options(directive)} <= links
    options_table = parse_html(docs_html / "nondeterministic-ops.html").select("table")[1]
    documented = {code.get_text() for code in options_table.select("tbody tr td:first-child code")}
    assert documented == {f":{option}:" for option in LIST_OPTIONS}


def test_the_index_page_shows_the_live_tables(docs_html):
    soup = parse_html(docs_html / "nondeterministic-ops.html")
    every, backward, *_ = soup.select("table.nondeterministic-ops")
    operations = exported_index(docs_html)["operations"]
    assert len(every.select("tbody tr")) == len(operations)
    assert len(backward.select("tbody tr")) == sum(
        op["backend"] == "CUDA" and op["pass"] == "backward" for op in operations
    )


def test_the_api_page_documents_every_field_of_a_note(docs_html):
    soup = parse_html(docs_html / "api.html")
    for field in Note._fields:
        assert soup.find(id=f"reprodocs.notes.domain.Note.{field}"), field
    assert soup.find(id="reprodocs.notes.domain.notes_domain")


def test_the_changelog_page_is_changelog_md_with_this_version(docs_html):
    soup = parse_html(docs_html / "changelog.html")
    assert soup.find("h1").get_text().startswith("Changelog")
    headings = [h.get_text() for h in soup.find(role="main").find_all("h2")]
    assert any(heading.startswith(reprodocs.__version__ + " ") for heading in headings), headings


def test_read_the_docs_builds_this_site_as_make_docs_does():
    config = yaml.safe_load((REPO / ".readthedocs.yaml").read_text(encoding="utf-8"))
    assert (REPO / config["sphinx"]["configuration"]) == DOCS / "conf.py"
    assert config["sphinx"]["fail_on_warning"] is True
    (install,) = config["python"]["install"]
    extras = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    assert install["path"] == "." and set(install["extra_requirements"]) <= extras.keys()
    # Read the Docs passes no -n: conf.py asks for it.
    assert runpy.run_path(str(DOCS / "conf.py"))["nitpicky"] is True


def test_beyond_pytorch_s_example_builds_as_megatron_s_docs(make_app, tmp_path):
    """docs/examples/megatron, which the "Beyond PyTorch" page shows: its
    docs/ as Megatron-LM's conf.py sets them up (sphinx-autodoc2, Google
    docstrings through Napoleon then MyST), with reprodocs and the fields
    it declares; each entry in its table, the docstring's among them."""
    pytest.importorskip("autodoc2")
    shutil.copytree(DOCS / "examples" / "megatron", tmp_path / "megatron")
    app = make_app("html", srcdir=tmp_path / "megatron" / "docs", freshenv=True)
    app.build()
    assert strip_colors(app.warning.getvalue()) == ""
    soup = parse_html(app.outdir / "op-catalog.html")
    tables = [
        [[text_of(cell) for cell in row.select("th, td")] for row in table.select("tr")]
        for table in soup.select("table.nondeterministic-ops")
    ]
    assert tables == [
        [
            ["Operation", "Where", "Deterministic Path", "Default Path"],
            # Labelled entries in the order they are written: pages by name
            # (the docstring's API page first), then down each page.
            [
                "MoE token unpermute (combine)",
                "megatron/core/transformer/moe/moe_utils.py",
                "index_add_ , deterministic and CUDA-graph safe",
                "scatter_add_ (atomic accumulation)",
            ],
            [
                "Inference DP scheduling and RL rollout order",
                "megatron/core/inference/engines/dynamic_engine.py , megatron/rl/rl_utils.py",
                "sort by stable key",
                "completion order",
            ],
        ],
        [
            ["Operation or Feature", "Where Enforced or Observed", "Status"],
            [
                "TP communication overlap (--tp-comm-overlap)",
                "rejected by --deterministic-mode",
                "Overlapped collective ordering is not reproducible.",
            ],
        ],
    ]
    # Code as ``code`` in either syntax: a value is inline reStructuredText.
    codes = [code.get_text() for code in soup.select("table.nondeterministic-ops td code")]
    assert codes == [
        "megatron/core/transformer/moe/moe_utils.py",
        "index_add_",
        "scatter_add_",
        "megatron/core/inference/engines/dynamic_engine.py",
        "megatron/rl/rl_utils.py",
        "--deterministic-mode",
    ]
    [docstring_s] = [
        op for op in exported_index(app.outdir)["operations"] if op["docname"] != "op-catalog"
    ]
    assert docstring_s["docname"] == "apidocs/core/core.transformer.moe.moe_utils"
    assert docstring_s["deterministic_path"] == "``index_add_``, deterministic and CUDA-graph safe"
