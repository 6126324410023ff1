"""The fields a project declares in conf.py (``reprodocs_entry_fields``):
options of the entry directives and the registry file, columns of the
table, keys of nondeterministic.json; each misuse a warning naming the
setting, the build going on with the fields declared rightly."""

from __future__ import annotations

import pytest
from sphinx.util.console import strip_colors

from conftest import exported_index, parse_html, text_of
from reprodocs.base.entry_schema import LINE, VALUES
from reprodocs.notes.declared_fields import SETTING, read_declarations

#: Megatron-LM's catalog's columns, as a project declares them.
MEGATRON_FIELDS = """[
    {"option": "where", "title": "Where", "kind": "values"},
    {"option": "deterministic-path", "title": "Deterministic Path"},
    {"option": "default-path", "title": "Default Path"},
]"""

PAGES = {
    "index.rst": """\
Catalog
=======

.. toctree::

   moe

.. nondeterministic-entry::
   :op: torch.one
   :where: megatron/core/moe_utils.py, megatron/rl/
   :deterministic-path: ``index_add_`` -- ordered
   :default-path: ``scatter_add_``

.. nondeterministic-ops::
""",
    "moe.md": """\
# MoE

```{nondeterministic-entry}
:op: torch.three
:default-path: out-of-place scatter
```
""",
    "registry.toml": """\
[[entry]]
op = "torch.two"
where = ["megatron/core/layers.py"]
deterministic-path = "direct indexing"
""",
}


def write_project(srcdir, declaration: str) -> None:
    srcdir.mkdir(parents=True, exist_ok=True)
    (srcdir / "conf.py").write_text(
        'extensions = ["myst_parser", "reprodocs"]\n'
        'reprodocs_registry_file = "registry.toml"\n'
        'reprodocs_reproducibility_doc = "index"\n'
        f"{SETTING} = {declaration}\n",
        encoding="utf-8",
    )
    for name, text in PAGES.items():
        (srcdir / name).write_text(text, encoding="utf-8")


def table_of(app) -> tuple[list[str], dict[str, list[str]]]:
    soup = parse_html(app.outdir / "index.html")
    headings = [text_of(th) for th in soup.select("table.nondeterministic-ops thead th")]
    rows = [[text_of(td) for td in tr.select("td")] for tr in soup.select("table tbody tr")]
    return headings, {row[0]: row for row in rows}


def test_declared_fields_are_options_columns_and_keys(make_app, tmp_path):
    write_project(tmp_path / "src", MEGATRON_FIELDS)
    app = make_app("html", srcdir=tmp_path / "src", freshenv=True)
    app.build()
    assert strip_colors(app.warning.getvalue()) == ""
    headings, rows = table_of(app)
    assert headings[-3:] == ["Where", "Deterministic Path", "Default Path"]
    assert rows["torch.one"][-3:] == [
        "megatron/core/moe_utils.py, megatron/rl/",
        "index_add_ -- ordered",
        "scatter_add_",
    ]
    assert rows["torch.two"][-3:] == ["megatron/core/layers.py", "direct indexing", ""]
    assert rows["torch.three"][-3:] == ["", "", "out-of-place scatter"]  # written in MyST
    # A value is inline text, parsed where the entry is written (as :when:).
    soup = parse_html(app.outdir / "index.html")
    [one] = [tr for tr in soup.select("table tbody tr") if "torch.one" in text_of(tr)]
    cells = one.select("td")[-3:]
    assert [[code.get_text() for code in td.select("code")] for td in cells] == [
        [],
        ["index_add_"],
        ["scatter_add_"],
    ]
    operations = {op["name"]: op for op in exported_index(app.outdir)["operations"]}
    one = operations["torch.one"]
    assert list(one)[-3:] == ["where", "deterministic_path", "default_path"]
    assert one["where"] == ["megatron/core/moe_utils.py", "megatron/rl/"]
    assert operations["torch.three"]["deterministic_path"] is None
    assert operations["torch.three"]["where"] == []


def test_changing_the_declaration_reads_every_page_again(make_app, tmp_path):
    srcdir = tmp_path / "src"
    write_project(srcdir, MEGATRON_FIELDS)
    make_app("html", srcdir=srcdir, freshenv=True).build()
    fewer = '[{"option": "default-path", "title": "Default"}, {"option": "where"}]'
    (srcdir / "conf.py").write_text(
        (srcdir / "conf.py").read_text(encoding="utf-8").replace(MEGATRON_FIELDS, fewer),
        encoding="utf-8",
    )
    app = make_app("html", srcdir=srcdir)
    app.build()
    # The page's deterministic-path is now an unknown option: the page was read again.
    assert 'unknown option: "deterministic-path"' in app.warning.getvalue()
    headings, rows = table_of(app)
    assert list(rows) == ["torch.three"]  # the others name deterministic-path
    assert headings[-1] == "Default"


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("{}", "reprodocs_entry_fields must be a list of fields, each a dict with 'option' and 'title', not dict; no field is declared"),
        ('"where"', "reprodocs_entry_fields must be a list of fields"),
        ('["where"]', "reprodocs_entry_fields[0]: a field must be a dict, not str; this field is left out"),
        ('[{"title": "Where"}]', "reprodocs_entry_fields[0]: 'option' must be an option's name (lower-case letters, digits and hyphens), not None"),
        ('[{"option": "Where"}]', "not 'Where'; this field is left out"),
        ('[{"option": "where now"}]', "not 'where now'"),
        ('[{"option": 3}]', "not int"),
        ('[{"option": "when"}]', "reprodocs_entry_fields[0]: 'when' is a name reprodocs' own fields or options have"),
        ('[{"option": "listed_as"}]', "an option's name (lower-case letters, digits and hyphens), not 'listed_as'"),
        ('[{"option": "listed-as"}]', "reprodocs' own"),
        ('[{"option": "deterministic-algorithms"}]', "reprodocs' own"),
        ('[{"option": "docname"}]', "reprodocs' own"),
        ('[{"option": "registry-file"}]', "reprodocs' own"),  # its JSON key is the export's
        ('[{"option": "runtime-text"}]', "reprodocs' own"),
        ('[{"option": "format"}]', "reprodocs' own"),
        ('[{"option": "where", "kind": "several"}]', "'kind' must be one of line, values, not 'several'"),
        ('[{"option": "where", "title": 1}]', "'title' must be a non-empty string, not int"),
        ('[{"option": "where", "title": " "}]', "'title' must be a non-empty string"),
        ('[{"option": "where", "column": "Where"}]', "unknown key 'column' (known: option, title, kind)"),
        ('[{"option": "where"}, {"option": "where"}]', "reprodocs_entry_fields[1]: 'where' is declared twice (the first is used)"),
    ],
)  # fmt: skip
def test_each_misuse_is_a_problem_naming_the_setting(value, problem):
    fields, problems = read_declarations(eval(value))
    [found] = problems
    assert problem in found, found
    assert [field.option for field in fields] == (["where"] if "twice" in problem else [])


def test_a_declaration_reads_its_kind_and_title():
    fields, problems = read_declarations(
        ({"option": "where", "kind": "values"}, {"option": "status", "title": "Status"})
    )
    assert problems == []
    assert [(f.option, f.json_key, f.converter, f.several) for f in fields] == [
        ("where", "where", VALUES, True),
        ("status", "status", LINE, False),
    ]
    assert [f.column() for f in fields if f.column] == ["where", "Status"]
    assert read_declarations(None) == ((), [])


PATHS = ("deterministic-path", "default-path")


def test_a_misused_setting_is_warned_at_conf_py_and_the_build_goes_on(make_app, tmp_path):
    srcdir = tmp_path / "src"
    declaration = '[{"option": "where", "kind": "values"}, "x", {"op": 1}, {"option": "%s"}]'
    write_project(srcdir, " + ".join(declaration % name for name in PATHS))
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    warnings = [
        line for line in strip_colors(app.warning.getvalue()).splitlines() if SETTING in line
    ]
    # The warning's type, as Sphinx prints it after the message (7.2 prints none).
    typed = " [reprodocs.config]" if getattr(app.config, "show_warning_types", False) else ""
    assert warnings == [
        f"{srcdir / 'conf.py'}:4: WARNING: {SETTING}[{index}]: {problem}; "
        "this field is left out" + typed
        for index, problem in (
            (1, "a field must be a dict, not str"),
            (2, "unknown key 'op' (known: option, title, kind)"),
            (4, "'where' is declared twice (the first is used)"),
            (5, "a field must be a dict, not str"),
            (6, "unknown key 'op' (known: option, title, kind)"),
        )
    ]
    headings, rows = table_of(app)
    assert len(rows) == 3
    assert headings[-3:] == ["where", "deterministic-path", "default-path"]


TABLES = """\
:orphan:

Chosen
======

.. nondeterministic-ops::
   :columns: operation, where, deterministic-path, default-path
   :having: deterministic-path

.. nondeterministic-ops::
   :columns: operation, default-path, backend
   :having: default-path, where
"""


def test_a_table_chooses_its_columns_and_rows_by_field(make_app, tmp_path):
    srcdir = tmp_path / "src"
    write_project(srcdir, MEGATRON_FIELDS)
    (srcdir / "tables.rst").write_text(TABLES, encoding="utf-8")
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    assert strip_colors(app.warning.getvalue()) == ""
    soup = parse_html(app.outdir / "tables.html")
    first, second = soup.select("table.nondeterministic-ops")
    assert [text_of(th) for th in first.select("thead th")] == [
        "Operation", "Where", "Deterministic Path", "Default Path"
    ]  # fmt: skip
    assert [[text_of(td) for td in tr.select("td")] for tr in first.select("tbody tr")] == [
        ["torch.one", "megatron/core/moe_utils.py, megatron/rl/", "index_add_ -- ordered", "scatter_add_"],
        ["torch.two", "megatron/core/layers.py", "direct indexing", ""],
    ]  # fmt: skip
    assert [text_of(th) for th in second.select("thead th")] == [
        "Operation",
        "Default Path",
        "Backend",
    ]
    assert [[text_of(td) for td in tr.select("td")] for tr in second.select("tbody tr")] == [
        ["torch.one", "scatter_add_", "CUDA"],
    ]
    # Each row a hyperlink target, unique on the page.
    ids = [tr.get("id") for tr in soup.select("table tbody tr")]
    assert ids == ["nondeterministic-ops-torch-one", "nondeterministic-ops-torch-two",
                   "nondeterministic-ops-torch-one-2"]  # fmt: skip


def test_an_unknown_column_or_field_is_warned_at_the_directive(make_app, tmp_path):
    srcdir = tmp_path / "src"
    write_project(srcdir, MEGATRON_FIELDS)
    tables = TABLES.replace("operation, where,", "operation, wher,").replace(
        ":having: default-path, where", ":having: default-path, status"
    )
    (srcdir / "tables.rst").write_text(tables, encoding="utf-8")
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    warnings = strip_colors(app.warning.getvalue()).splitlines()
    assert [line.split(" WARNING: ")[0] for line in warnings] == [
        f"{srcdir / 'tables.rst'}:6:", f"{srcdir / 'tables.rst'}:10:"
    ]  # fmt: skip
    assert ":columns: 'wher' is not a column or field name" in warnings[0]
    assert ":having: 'status' is not a column or field name" in warnings[1]
    soup = parse_html(app.outdir / "tables.html")
    first, second = soup.select("table.nondeterministic-ops")
    assert [text_of(th) for th in first.select("thead th")][1] == "Deterministic Path"
    assert len(second.select("tbody tr")) == 2  # by the known one of :having:, default-path


def test_a_column_takes_the_heading_given_it_and_an_empty_one_is_warned(make_app, tmp_path):
    srcdir = tmp_path / "src"
    write_project(srcdir, MEGATRON_FIELDS)
    tables = TABLES.replace(
        "operation, where,", "operation=Operation or Feature, where = Where it is ,"
    ).replace("operation, default-path, backend", "operation, default-path=, backend")
    (srcdir / "tables.rst").write_text(tables, encoding="utf-8")
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    warnings = strip_colors(app.warning.getvalue()).splitlines()
    assert [line.split(" WARNING: ")[0] for line in warnings] == [f"{srcdir / 'tables.rst'}:10:"]
    assert ":columns: 'default-path=' gives the column 'default-path' no heading" in warnings[0]
    soup = parse_html(app.outdir / "tables.html")
    first, second = soup.select("table.nondeterministic-ops")
    assert [text_of(th) for th in first.select("thead th")] == [
        "Operation or Feature", "Where it is", "Deterministic Path", "Default Path"
    ]  # fmt: skip
    assert [text_of(th) for th in second.select("thead th")] == [
        "Operation", "Default Path", "Backend"
    ]  # fmt: skip


def test_the_names_taken_are_an_entrys_record_and_fields():
    """reprodocs.base.vocabulary.taken_names names the record's attributes
    (which migrate cannot import): they must be Note's."""
    from reprodocs.base.entry_schema import FIELDS, RECORD_ATTRIBUTES
    from reprodocs.notes.domain import Note

    attributes = {field.attribute for field in FIELDS if field.attribute}
    assert set(Note._fields) == attributes | set(RECORD_ATTRIBUTES)


def test_a_table_chooses_its_rows_by_a_field_s_value(make_app, tmp_path):
    """``:having: name=value`` keeps the rows with that value in the field
    (one of its values, for a field of several), markup and case aside; a
    ``name=`` with no value is warned at the directive, any value kept."""
    srcdir = tmp_path / "src"
    write_project(srcdir, MEGATRON_FIELDS)
    tables = TABLES.replace(
        ":having: deterministic-path", ":having: where=Megatron/RL/, deterministic-path="
    ).replace(":having: default-path, where", ":having: default-path=*Out-of-place* SCATTER")
    (srcdir / "tables.rst").write_text(tables, encoding="utf-8")
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    warnings = strip_colors(app.warning.getvalue()).splitlines()
    assert [line.split(" WARNING: ")[0] for line in warnings] == [f"{srcdir / 'tables.rst'}:6:"]
    assert (
        ":having: 'deterministic-path=' gives the field 'deterministic-path' no value; "
        "any value is kept" in warnings[0]
    )
    soup = parse_html(app.outdir / "tables.html")
    first, second = soup.select("table.nondeterministic-ops")
    assert [text_of(tr.select_one("td")) for tr in first.select("tbody tr")] == ["torch.one"]
    assert [text_of(tr.select_one("td")) for tr in second.select("tbody tr")] == ["torch.three"]


def test_a_column_named_twice_is_shown_once_and_warned(make_app, tmp_path):
    srcdir = tmp_path / "src"
    write_project(srcdir, MEGATRON_FIELDS)
    tables = TABLES.replace("operation, where,", "operation, where, where,")
    assert tables != TABLES
    (srcdir / "tables.rst").write_text(tables, encoding="utf-8")
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    warnings = strip_colors(app.warning.getvalue()).splitlines()
    assert len(warnings) == 1
    assert warnings[0].startswith(f"{srcdir / 'tables.rst'}:6: WARNING: nondeterministic-ops:")
    assert ":columns: names the column 'where' twice; it is shown once, first" in warnings[0]
    first = parse_html(app.outdir / "tables.html").select("table.nondeterministic-ops")[0]
    headings = [text_of(th) for th in first.select("thead th")]
    assert headings.count(headings[1]) == 1 and len(headings) == len(set(headings))
