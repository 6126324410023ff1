"""The registry's entries beyond a note (issue 31): ``nondeterministic-entry``
renders nothing where it stands, a registry file's entries (TOML), aliases
and the name a list uses, "with" conditions, several devices or any, cases
as a nested list, alerts. The entries are items of torch 2.13.0's lists."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from sphinx.cmd.build import build_main
from sphinx.util.console import strip_colors

from conftest import exported_index, notes_in, parse_html, text_of


@pytest.fixture
def entries_project(rootdir, tmp_path) -> Path:
    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / "test-entries", srcdir)
    return srcdir


@pytest.fixture
def build_entries(make_app, entries_project):
    def build(**confoverrides):
        app = make_app("html", srcdir=entries_project, freshenv=True, confoverrides=confoverrides)
        app.build()
        return app

    return build


def list_items(app, index: int) -> list[tuple[str, list[str], list[str]]]:
    """The items of the page's *index*-th list: words, links, nested cases."""
    soup = parse_html(Path(app.outdir, "lists.html"))
    bullets = soup.select("ul.nondeterministic-ops")[index]
    return [
        (
            " ".join(item.p.get_text().split()),
            [a["href"] for a in item.p.find_all("a")],
            [text_of(case) for case in item.select("ul li")],
        )
        for item in bullets.find_all("li", recursive=False)
    ]


def warnings_of(app) -> list[str]:
    return [line for line in strip_colors(app.warning.getvalue()).splitlines() if line]


def test_the_lists_read_as_pytorch_s(build_entries):
    app = build_entries()
    assert warnings_of(app) == []
    # Sorted by the name shown, not by the operation behind it (index_add_
    # is listed as torch.index_add).
    assert list_items(app, 0) == [
        ("torch.Tensor.index_copy() when called on a CPU or CUDA tensor",
         ["ops.html#torch.Tensor.index_copy"], []),
        ("torch.Tensor.index_put() with accumulate=False", ["ops.html#torch.Tensor.index_put"], []),
        ("torch.index_add() when called on CUDA tensor", ["ops.html#torch.index_add"], []),
    ]  # fmt: skip
    assert list_items(app, 1) == [
        ("torch.Tensor.resize_() when called with a quantized tensor",
         ["ops.html#torch.Tensor.resize_"], []),
        ("torch.median() with indices output when called on a CUDA tensor",
         ["ops.html#torch.median"], []),
        ("torch.nn.MaxUnpool1d", ["ops.html#torch.nn.MaxUnpool1d"], []),
        (("torch.nn.functional.interpolate() when attempting to differentiate a CUDA tensor and "
         "one of the following modes is used:"), ["ops.html#torch.nn.functional.interpolate"],
         ["linear", "bilinear", "bicubic", "trilinear"]),
    ]  # fmt: skip


def test_an_entry_renders_nothing_where_it_stands(build_entries):
    app = build_entries()
    soup = parse_html(Path(app.outdir, "ops.html"))
    # The one note of the page is index_add_'s; the entries add nothing.
    assert len(notes_in(soup)) == 1
    median = soup.find(id="torch.median").find_next_sibling("dd")
    assert [text_of(p) for p in median.find_all("p")] == [
        "Returns the median of the values in input."
    ]


def test_the_table_shows_every_entry_with_its_alerts(build_entries):
    app = build_entries()
    table = parse_html(Path(app.outdir, "lists.html")).select("table.nondeterministic-ops")[0]
    headings = [text_of(th) for th in table.select("thead th")]
    assert headings[-1] == "Alerts"
    rows = {
        text_of(row.td): [text_of(cell) for cell in row.find_all("td")]
        for row in table.select("tbody tr")
    }
    assert rows["torch.median"][1:3] == ["CUDA", "both"]
    assert rows["torch.median"][-1] == "median CUDA with indices output"
    assert rows["torch.Tensor.index_copy"][1] == "CPU, CUDA"
    assert rows["torch.Tensor.index_put"][1] == "any"
    assert rows["torch.Tensor.index_put"][-2] == "acts deterministically with accumulate=False"
    assert rows["torch.Tensor.index_add_"][-1] == ""


def test_the_json_carries_the_registry_s_fields(build_entries):
    app = build_entries()
    operations = {op["name"]: op for op in exported_index(app.outdir)["operations"]}
    assert operations["torch.Tensor.index_add_"]["aliases"] == ["torch.index_add"]
    assert operations["torch.Tensor.index_add_"]["listed_as"] == "torch.index_add"
    assert operations["torch.Tensor.index_add_"]["renders"] is True
    median = operations["torch.median"]
    assert (median["directive"], median["renders"]) == ("nondeterministic-entry", False)
    assert (median["with"], median["when"]) == ("indices output", "called on a CUDA tensor")
    assert median["alerts"] == ["median CUDA with indices output"]
    interpolate = operations["torch.nn.functional.interpolate"]
    assert interpolate["cases"] == ["``linear``", "``bilinear``", "``bicubic``", "``trilinear``"]
    resize = operations["torch.Tensor.resize_"]
    assert (resize["docname"], resize["uri"]) == (None, "ops.html#torch.Tensor.resize_")


def test_the_drift_check_knows_an_operation_by_its_aliases(build_entries):
    known = ["torch.index_add", "torch.median", "torch.nn.MaxUnpool1d",
             "torch.nn.functional.interpolate", "torch.Tensor.index_copy",
             "torch.Tensor.index_put", "torch.Tensor.resize_"]  # fmt: skip
    assert warnings_of(build_entries(reprodocs_known_ops=known)) == []


@pytest.mark.parametrize(
    ("entry", "warning"),
    [
        (
            ":aliases: torch.median",
            (
                "nondeterministic-entry: the alias torch.median is the operation of the entry in ops "
                "(line 11)"
            ),
        ),
        (
            ":aliases: torch.index_add",
            (
                "nondeterministic-entry: the alias torch.index_add is already claimed by "
                "torch.Tensor.index_add_ in ops (line 38)"
            ),
        ),
    ],
)
def test_a_name_two_operations_claim_is_a_located_warning(
    build_entries, entries_project, entry, warning
):
    ops = entries_project / "ops.rst"
    text = ops.read_text(encoding="utf-8")
    ops.write_text(
        text.replace(":backend: cpu, CUDA\n", f":backend: cpu, CUDA\n      {entry}\n"),
        encoding="utf-8",
    )
    [line] = warnings_of(build_entries())
    assert line.startswith(f"{ops}:")
    assert warning in line
    suppressed = build_entries(suppress_warnings=["reprodocs.alias"])
    assert [line for line in warnings_of(suppressed) if "alias" in line] == []


@pytest.mark.parametrize(
    ("toml", "warning"),
    [
        ("# entries\n\n[[entry]\n", "registry.toml:3: WARNING: not TOML: "),
        ('[[entry]]\nop = "x"\n\n[[entry]]\nop = ', "registry.toml:5: WARNING: not TOML: "),
        (b'# \xe9\n[[entry]]\nop = "x"\n', "registry.toml:1: WARNING: not UTF-8"),
        ('[[entry]]\nop = "kept"\n\n[entries]\nop = "y"\n', "registry.toml:4: WARNING: unknown key 'entries'"),
        ('[[entry]]\nop = "x"\nmode = "raises"\n', "registry.toml:1: WARNING: x is not in the registry: unknown option 'mode'"),
        ('[[entry]]\nop = "x"\npass = "sideways"\n', 'registry.toml:1: WARNING: x is not in the registry: pass: "sideways" unknown'),
        ('\n[[entry]]\nop = "x"\ndeterministic-algorithms = "raise"\n',
         'registry.toml:2: WARNING: x is not in the registry: deterministic-algorithms: "raise" unknown'),
        ('[[entry]]\nop = "x"\nalert = ""\n', "registry.toml:1: WARNING: x is not in the registry: alert: "),
        ('[[entry]]\nop = ""\n', "registry.toml:1: WARNING: an entry must name its operation (op)"),
    ],
    ids=["not-toml", "not-toml-at-end", "not-utf-8", "unknown-key", "unknown-option", "pass",
         "mode", "empty-alert", "no-op"],
)  # fmt: skip
def test_a_bad_registry_file_is_a_warning_at_its_line(
    build_entries, entries_project, toml, warning
):
    """At the file itself and its line, never a document's name (issue 40);
    an entry with a wrong option is not in the registry, and is said so."""
    registry = entries_project / "registry.toml"
    registry.write_bytes(toml if isinstance(toml, bytes) else toml.encode())
    app = build_entries()
    lines = warnings_of(app)
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{entries_project}/{warning}"), lines[0]
    assert "[reprodocs.registry_file]" in lines[0] or not getattr(
        app.config, "show_warning_types", 0
    )
    assert "x" not in {entry["name"] for entry in exported_index(app.outdir)["operations"]}


def test_a_missing_registry_file_is_a_warning_at_the_setting(build_entries, entries_project):
    (entries_project / "registry.toml").unlink()
    [line] = warnings_of(build_entries())
    assert line.startswith(f"{entries_project / 'conf.py'}:3: WARNING: ")
    assert f"{entries_project / 'registry.toml'}: cannot read it: No such file" in line


def test_an_entry_of_the_registry_file_is_exported_with_its_line(build_entries):
    operations = exported_index(build_entries().outdir)["operations"]
    written = {entry["name"]: entry["registry_file"] for entry in operations}
    assert written.pop("torch.Tensor.resize_") == {"path": "registry.toml", "line": 3}
    assert set(written.values()) == {None}


def test_a_wrong_registry_file_setting_is_a_located_warning(build_entries):
    [line] = warnings_of(build_entries(reprodocs_registry_file=3))
    assert "reprodocs_registry_file" in line


def rebuilt(make_app, srcdir: Path, change) -> set[str]:
    """The pages an incremental build writes again after *change*."""
    app = make_app("html", srcdir=srcdir)
    app.build()
    before = {p.name: p.stat().st_mtime_ns for p in Path(app.outdir).glob("*.html")}
    change()
    app = make_app("html", srcdir=srcdir)
    app.build()
    after = {p.name: p.stat().st_mtime_ns for p in Path(app.outdir).glob("*.html")}
    return {name for name in after if after[name] != before[name]}


def test_editing_the_registry_file_rewrites_the_lists_only(make_app, entries_project):
    registry = entries_project / "registry.toml"
    edited = registry.read_text().replace("quantized tensor", "quantized CPU tensor")
    rewritten = rebuilt(make_app, entries_project, lambda: registry.write_text(edited))
    # The lists' page, and its toctree parent, which Sphinx writes with it
    # (and the index and search pages, which it writes whenever it writes one).
    assert rewritten - {"genindex.html", "search.html"} == {"lists.html", "index.html"}
    app = make_app("html", srcdir=entries_project)
    assert ("torch.Tensor.resize_() when called with a quantized CPU tensor",
            ["ops.html#torch.Tensor.resize_"], []) in list_items(app, 1)  # fmt: skip


def test_editing_an_entry_s_condition_rewrites_its_page_and_the_lists_only(
    make_app, entries_project
):
    ops = entries_project / "ops.rst"
    edited = ops.read_text().replace(
        ":when: called on a CPU or CUDA tensor", ":when: called on a CPU, CUDA or XPU tensor"
    )
    assert edited != ops.read_text()
    rewritten = rebuilt(make_app, entries_project, lambda: ops.write_text(edited))
    # The page the entry stands on (read again; it renders nothing of it),
    # the lists' page and its toctree parent (and genindex and search).
    assert rewritten - {"genindex.html", "search.html"} == {"ops.html", "lists.html", "index.html"}
    app = make_app("html", srcdir=entries_project)
    words = [text for text, _, _ in list_items(app, 0)]
    assert "torch.Tensor.index_copy() when called on a CPU, CUDA or XPU tensor" in words
    assert "torch.Tensor.index_copy() when called on a CPU or CUDA tensor" not in words


def test_w_fails_on_a_bad_entry(entries_project, tmp_path):
    (entries_project / "registry.toml").write_text("[[entry]]\nop = ''\n", encoding="utf-8")
    arguments = ["-q", "-b", "html", str(entries_project)]
    assert build_main([*arguments, str(tmp_path / "without")]) == 0
    assert build_main(["-W", *arguments, str(tmp_path / "with")]) != 0


@pytest.mark.parametrize("wording", ["pytorch-1.4", "pytorch-2"])
@pytest.mark.parametrize(
    ("options", "sentence"),
    [
        (
            (
                ":deterministic-algorithms: raises\n   :with: indices output\n"
                "   :when: called on a CUDA tensor"
            ),
            (
                "With indices output when called on a CUDA tensor, this operation will throw a "
                "RuntimeError if torch.use_deterministic_algorithms(True) is set."
            ),
        ),
        (
            ":deterministic-algorithms: deterministic\n   :with: ``accumulate=False``",
            (
                "With accumulate=False, this operation will act deterministically if "
                "torch.use_deterministic_algorithms(True) is set."
            ),
        ),
        (
            ":with: ``reduce='prod'``",
            "This is the case with reduce='prod'.",
        ),
        (
            (
                ":deterministic-algorithms: raises\n   :when: one of the following modes is used:\n"
                "   :cases: ``linear``, ``bicubic``"
            ),
            (
                "When one of the following modes is used: linear, bicubic, this operation will "
                "throw a RuntimeError if torch.use_deterministic_algorithms(True) is set."
            ),
        ),
    ],
)
def test_a_note_s_sentence_says_its_item_s_condition(build_page, options, sentence, wording):
    app = build_page(
        f".. py:function:: torch.median(input)\n\n   .. nondeterministic::\n"
        f"      :wording: {wording}\n      {options.replace(chr(10) + '   ', chr(10) + '      ')}\n"
    )
    assert warnings_of(app) == []
    note = notes_in(parse_html(Path(app.outdir, "index.html")))[0]
    assert sentence in " ".join(note.get_text().split())
