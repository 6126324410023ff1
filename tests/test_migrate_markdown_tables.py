"""reprodocs.migrate.markdown_tables: Megatron-LM's determinism catalog
(a verbatim copy, tests/migrate/megatron-catalog/NOTICE.md), its tables
migrated into labelled entries and the directives generating them, built
with Sphinx to the same two tables as the catalog kept by hand; what
cannot be migrated is left as it is and reported."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import exported_index, parse_html
from migrate_support import TREES, built_without_warning, run, snapshot
from reprodocs.migrate.markdown_tables import migrate_markdown

CATALOG = Path("docs/developer/determinism/op-catalog.md")
#: A row of a pipe table.
PIPE_ROW = re.compile(r"^\s*\|.*\|\s*$", re.MULTILINE)


@pytest.fixture
def megatron(tmp_path):
    """A copy of the catalog and the stub tree of the files it names."""

    def copy(to: str = "megatron") -> Path:
        return Path(shutil.copytree(TREES / "megatron-catalog", tmp_path / to))

    return copy


def build(root: Path) -> Path:
    """Build *root*'s docs with no warning; the output directory."""
    return built_without_warning(root / "docs", reprodocs_reproducibility_doc="index")


def words(element) -> str:
    """An element's words, whitespace collapsed, markup aside."""
    return " ".join(element.get_text().split())


def tables(outdir: Path) -> list[tuple[list[str], list[list[str]]]]:
    """The catalog page's tables: each one's headings and rows' cells."""
    soup = parse_html(outdir / "developer/determinism/op-catalog.html")
    return [
        (
            [words(th) for th in table.select("thead th")],
            [[words(td) for td in tr.select("td")] for tr in table.select("tbody tr")],
        )
        for table in soup.select("table")
    ]


def declaration(stderr: str) -> str:
    """The ``reprodocs_entry_fields`` migrate printed."""
    found = re.search(r"^reprodocs_entry_fields = \[\n.*?^\]\n", stderr, re.MULTILINE | re.DOTALL)
    assert found, stderr
    return found[0]


def test_the_catalog_migrated_builds_the_same_two_tables(megatron, capsys, monkeypatch):
    original = megatron("original")
    before = tables(build(original))
    assert [(len(headings), len(rows)) for headings, rows in before] == [(4, 9), (3, 4)]

    root = megatron()
    monkeypatch.chdir(root)
    status, out, err = run(capsys, "--write", "docs", "megatron")
    assert status == 0, err
    assert out == f"rewrote {CATALOG}\n"
    migrated = (root / CATALOG).read_text(encoding="utf-8")
    assert not PIPE_ROW.findall(migrated)  # no table row left by hand
    assert migrated.count("```{nondeterministic-entry}") == 13
    fields = declaration(err)
    assert (
        '{"option": "where-enforced-or-observed", "title": "Where Enforced or Observed"' in fields
    )
    with (root / "docs/conf.py").open("a", encoding="utf-8") as conf:
        conf.write(fields)

    outdir = build(root)
    assert tables(outdir) == before  # same headings, rows in order, each cell's words
    index = exported_index(outdir)
    assert len(index["operations"]) == 13

    # A second run changes nothing.
    built = snapshot(root / "docs")
    status, out, err = run(capsys, "--write", "docs", "megatron")
    assert (status, out, err) == (0, "", "")
    assert snapshot(root / "docs") == built


def test_a_dry_run_prints_the_diff_and_writes_nothing(megatron, capsys, monkeypatch):
    root = megatron()
    monkeypatch.chdir(root)
    before = snapshot(root)
    status, out, err = run(capsys, "docs")
    assert status == 1  # the tables are still kept by hand
    assert out.startswith(f"--- {CATALOG}\n+++ {CATALOG}\n")
    assert "+:label: MoE token unpermute (combine)\n" in out
    assert "+:columns: operation=Operation or Feature, where-enforced-or-observed, status\n" in out
    assert "-| TP communication overlap (`--tp-comm-overlap`) | rejected by" in out
    assert declaration(err).count('"kind": "line"') == 5
    assert snapshot(root) == before


TABLE = """\
# Catalog

| Operation | Where | Status |
| --- | :-: | --- |
| One op | `a.py` | open \\| gap |
{row}
"""


def migrate_page(tmp_path, capsys, text: str, *more: str) -> tuple[int, str, str, Path]:
    page = tmp_path / "page.md"
    page.write_text(text, encoding="utf-8")
    for index, other in enumerate(more):
        (tmp_path / f"page{index + 2}.md").write_text(other, encoding="utf-8")
    return (*run(capsys, "--write", str(tmp_path)), page)


@pytest.mark.parametrize(
    ("row", "problem"),
    [
        ("| Two | <br> | x |", "row 2: raw HTML"),
        ("| Two | ![i](i.png) | x |", "row 2: an image"),
        ("| Two | see [^1] | x |", "row 2: a footnote reference"),
        ("| Two | {py:func}`x` | x |", "row 2: a MyST role or substitution"),
        ("|  | b.py | x |", "row 2 has no label"),
        ("| One op | b.py | x |", "the label 'One op' is already an entry's (row 1)"),
        ("| Two | b.py | x | y |", "row 2 has more cells than the table has columns"),
    ],
)
def test_a_table_that_cannot_be_migrated_is_left_untouched(tmp_path, capsys, row, problem):
    text = TABLE.format(row=row)
    status, out, err, page = migrate_page(tmp_path, capsys, text)
    assert status == 1
    assert page.read_text(encoding="utf-8") == text
    assert err == f"{page}:3: left as is: {problem}" + err.partition(problem)[2]
    assert out == ""


def test_a_label_another_file_took_leaves_the_later_table(tmp_path, capsys):
    first = TABLE.format(row="")
    second = "# Other\n\n| Operation | Owner |\n| - | - |\n| One op | me |\n"  # none of its fields
    status, _, err, page = migrate_page(tmp_path, capsys, first, second)
    later = tmp_path / "page2.md"
    assert status == 1
    assert later.read_text(encoding="utf-8") == second
    assert f"{later}:3: left as is: the label 'One op' is already an entry's ({page}:3)" in err
    assert "```{nondeterministic-entry}" in page.read_text(encoding="utf-8")


def test_rows_are_chosen_by_a_column_no_other_table_of_the_file_has(tmp_path, capsys):
    second = "| Operation | Where | Note text |\n| - | - | - |\n| Two | b.py | |\n"
    text = TABLE.format(row="") + "\n" + second
    status, _, err, page = migrate_page(tmp_path, capsys, text)
    written = page.read_text(encoding="utf-8")
    assert ":having: status\n" in written  # where: the other table's too
    assert written.endswith(second)  # every row's column is the other's, or empty
    second_line = written.count("\n", 0, written.index(second)) + 1  # as written
    assert f"{page}:{second_line}: left as is: no column has a value in every row" in err
    assert status == 1


def test_a_line_right_after_the_rows_leaves_the_table_and_a_table_may_follow_a_paragraph():
    after = "A paragraph\n| Operation | Where |\n| - | - |\n| x | y |\nmore words\n"
    migration = migrate_markdown(after)
    assert migration.text == after
    assert migration.notices[0].line == 2
    assert "line 5, right after its rows, may be a row or not" in migration.notices[0].message
    migrated = migrate_markdown(after.replace("more words", "\nmore words"))
    assert migrated.text.startswith("A paragraph\n```{nondeterministic-entry}\n:label: x\n")


def test_other_tables_and_tables_in_code_are_left_alone():
    text = (
        "| Name | Where |\n| - | - |\n| x | y |\n\n"
        "```\n| Operation | Where |\n| - | - |\n| x | y |\n```\n\n"
        "~~~~markdown\n| Operation | Where |\n| - | - |\n| x | y |\n~~~~\n\n"
        "    | Operation | Where |\n    | - | - |\n    | x | y |\n"
    )
    migration = migrate_markdown(text)
    assert (migration.text, migration.notices) == (text, [])


def test_the_entries_keep_escaped_pipes_and_quote_what_myst_would_misread():
    text = "| Operation | Where |\n| --- | --- |\n| # one \\| two | 'x' # y |\n"
    written = migrate_markdown(text).text
    assert ":label: '# one | two'\n" in written
    assert ":where: '''x'' # y'\n" in written
    assert migrate_markdown(written).text == written


@pytest.mark.parametrize(
    ("heading", "problem"),
    [
        ("Note", "the heading 'Note' makes 'note', a name of reprodocs' own"),
        ("Affected pass", "the heading 'Affected pass' makes 'affected-pass', a name of reprodocs' own"),
        ("2nd path", "the heading '2nd path' makes no option's name"),
        ("Where | where", "two headings make the option 'where'"),
    ],
)  # fmt: skip
def test_a_heading_that_makes_no_field_of_its_own_leaves_the_table(heading, problem):
    columns = heading.count("|") + 2
    text = f"| Operation | {heading} |\n{'| - ' * columns}|\n{'| x ' * columns}|\n"
    migration = migrate_markdown(text)
    assert migration.text == text
    assert [(notice.line, notice.message) for notice in migration.notices] == [
        (1, f"left as is: {problem}")
    ]


def test_a_field_titled_otherwise_before_keeps_its_title_and_the_table_its_heading(
    tmp_path, capsys
):
    # Each table's rows chosen by a field of its own (owner, team): status
    # is two files'.
    first = "| Operation | Status | Owner |\n| - | - | - |\n| one | open | me |\n"
    second = "| Operation | State of it |\n| - | - |\n| two | shut |\n"
    later = "| Operation or feature | STATUS | Team |\n| - | - | - |\n| three | open | us |\n"
    status, _, err, _ = migrate_page(tmp_path, capsys, first, second, later)
    assert status == 0, err
    written = (tmp_path / "page3.md").read_text(encoding="utf-8")
    assert ":columns: operation=Operation or feature, status=STATUS, team\n" in written
    assert ":having: team\n" in written
    assert '{"option": "status", "title": "Status", "kind": "line"},\n' in err
    assert '{"option": "state-of-it", "title": "State of it", "kind": "line"},\n' in err
    assert "STATUS" not in err


def test_a_first_heading_holding_a_comma_leaves_the_table():
    text = "| Operation, or feature | Where |\n| - | - |\n| x | y |\n"
    migration = migrate_markdown(text)
    assert migration.text == text
    assert "holds a comma, which :columns: cannot" in migration.notices[0].message


def page_tables(html: Path) -> list[list[list[str]]]:
    """Each table of a page: its rows' cells, headings first."""
    soup = parse_html(html)
    return [
        [[words(cell) for cell in tr.select("th, td")] for tr in table.select("tr")]
        for table in soup.select("table")
    ]


def test_rows_are_chosen_by_no_column_another_file_of_the_run_has(tmp_path, capsys):
    # Each directive shows every entry of the project having its :having:
    # field: two files' tables chosen by the same column would each show
    # the other's rows too.
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text('extensions = ["myst_parser", "reprodocs"]\n', encoding="utf-8")
    (docs / "index.md").write_text("# Index\n\n```{toctree}\none\ntwo\n```\n", encoding="utf-8")
    one = "# One\n\n| Operation | Where | Status |\n| - | - | - |\n| Foo | a.py | open |\n"
    two = "# Two\n\n| Operation | Where |\n| - | - |\n| Bar | b.py |\n"
    (docs / "one.md").write_text(one, encoding="utf-8")
    (docs / "two.md").write_text(two, encoding="utf-8")
    outdir = built_without_warning(docs, reprodocs_reproducibility_doc="index")
    before = [page_tables(outdir / f"{name}.html") for name in ("one", "two")]

    status, _, err = run(capsys, "--write", str(docs))
    assert ":having: status\n" in (docs / "one.md").read_text(encoding="utf-8")
    assert (docs / "two.md").read_text(encoding="utf-8") == two  # where: one's too
    assert f"{docs / 'two.md'}:3: left as is: no column has a value in every row" in err
    assert status == 1
    with (docs / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write(declaration(err))
    outdir = built_without_warning(docs, reprodocs_reproducibility_doc="index")
    assert [page_tables(outdir / f"{name}.html") for name in ("one", "two")] == before


def test_a_table_with_no_rows_is_left_untouched(tmp_path, capsys):
    # Every column would choose its rows: the directive would show other
    # entries having it, or say that no operation is noted at all.
    text = "# Catalog\n\n| Operation | Where |\n| --- | --- |\n"
    status, out, err, page = migrate_page(tmp_path, capsys, text)
    assert status == 1
    assert page.read_text(encoding="utf-8") == text
    assert err == f"{page}:3: left as is: it has no rows to write as entries\n"
    assert out == ""


def test_a_second_run_leaves_a_table_whose_column_entries_written_before_have(tmp_path, capsys):
    # The first run writes the first table (chosen by status) and leaves the
    # second (where is the first's too); the second run must not choose the
    # second's rows by where, which the first table's entries now have.
    first = "| Operation | Where | Status |\n| - | - | - |\n| Foo | a.py | open |\n"
    second = "| Operation | Where |\n| - | - |\n| Bar | b.py |\n"
    status, _, err, page = migrate_page(tmp_path, capsys, f"# P\n\n{first}\n{second}")
    assert status == 1
    migrated = page.read_text(encoding="utf-8")
    assert migrated.endswith(second)
    status, out, err = run(capsys, "--write", str(tmp_path))
    assert page.read_text(encoding="utf-8") == migrated
    assert "left as is: no column has a value in every row" in err
    assert (status, out) == (1, "")


def test_a_table_with_a_value_where_a_directive_written_chooses_its_rows_is_left(tmp_path, capsys):
    written = "```{nondeterministic-ops}\n:columns: operation, status\n:having: status=open\n```\n"
    table = (
        "| Operation | Where | Status |\n| - | - | - |\n| Bar | b.py | |\n| Baz | c.py | shut |\n"
    )
    text = f"# P\n\n{written}\n{table}"
    status, _, err, page = migrate_page(tmp_path, capsys, text)
    assert page.read_text(encoding="utf-8") == text  # that directive would show Baz
    assert err == (
        f"{page}:8: left as is: a table directive already written chooses its rows by "
        "'status' (:having:), and would show this table's rows with a value there\n"
    )
    assert status == 1


def test_rows_are_chosen_by_no_field_an_entry_written_in_another_file_has(tmp_path, capsys):
    (tmp_path / "old.rst").write_text(
        ".. nondeterministic-entry::\n   :label: Old\n   :owner: you\n", encoding="utf-8"
    )
    text = "| Operation | Owner |\n| - | - |\n| Qux | me |\n"
    status, _, err, page = migrate_page(tmp_path, capsys, text)
    assert page.read_text(encoding="utf-8") == text  # its directive would show Old
    assert f"{page}:1: left as is: no column has a value in every row" in err
    assert status == 1


def test_a_table_in_a_list_item_is_written_in_it(tmp_path, capsys):
    # Unindented, the entries and the directive would end the list: its
    # next item would start another.
    text = "- one\n\n  | Operation | Where |\n  | - | - |\n  | Foo | a.py |\n\n- two\n"
    status, _, _, page = migrate_page(tmp_path, capsys, text)
    assert status == 0
    assert page.read_text(encoding="utf-8") == (
        "- one\n\n"
        "  ```{nondeterministic-entry}\n  :label: Foo\n  :where: a.py\n  ```\n\n"
        "  ```{nondeterministic-ops}\n  :columns: operation, where\n  :having: where\n  ```\n"
        "\n- two\n"
    )
