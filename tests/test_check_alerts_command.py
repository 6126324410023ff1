"""``python -m reprodocs check-alerts``: each verdict, each output format,
the ignore rules and each exit status, on a tree written in the shapes of
torch's sources (ATen's kernels, torch/_decomp, test/test_torch.py). The
alert names are torch's; the code around them is the test's."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from reprodocs.__main__ import main
from reprodocs.check_alerts import command
from reprodocs.check_alerts.compare import (
    STALE,
    STILL_RAISED,
    UNDOCUMENTED,
    UNREADABLE,
    WITHOUT_ALERT,
)

SOURCES = {
    "aten/src/ATen/native/cuda/ScatterGatherKernel.cu": """\
Tensor scatter_add_cuda(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
    globalContext().alertNotDeterministic("scatter_add_cuda");
    return scatter_base_cuda<true>(self, dim, index, src);
}
""",
    "aten/src/ATen/native/cuda/Sorting.cpp": """\
std::tuple<Tensor&, Tensor&> median_with_indices_impl(Tensor& values, Tensor& indices) {
  // If there are duplicate elements of a median value, the procedure for choosing
  // which of the duplicates to use for the indices output is nondeterministic.
  at::globalContext().alertNotDeterministic("median CUDA with indices output");
  return {values, indices};
}
""",
    "aten/src/ATen/native/TensorAdvancedIndexing.cpp": """\
Tensor& put_(Tensor& self, const Tensor& index, const Tensor& source, const bool accumulate) {
  if (self.device().type() == DeviceType::CUDA) {
    at::globalContext().alertNotDeterministic("put_");
  }
  return self;
}
""",
    "aten/src/ATen/native/cuda/Unreadable.cu": """\
void alert_for(const char* name) {
  at::globalContext().alertNotDeterministic(name);
}
""",
    "torch/_decomp/decompositions.py": """\
def _max_unpoolnd(self, indices, output_size, dim):
    utils.alert_not_deterministic(f"max_unpooling{dim}d_forward_out")
    return self
""",
    "test/test_torch.py": """\
class TestTorchDeviceType(TestCase):
    def test_nondeterministic_alert_AvgPool3d(self, device):
        self.check_nondeterministic_alert(
            lambda: res.backward(grad, retain_graph=True),
            'avg_pool3d_backward_cuda',
            torch.device(device).type == 'cuda')

    def test_nondeterministic_alert_cumsum(self, device, dtype):
        self.check_nondeterministic_alert(lambda: op_call(input, 0), 'cumsum_cuda_kernel')
""",
    "README.md": 'alertNotDeterministic("not_a_source")\n',
}


def operation(name, mode, alerts, uri):
    return {
        "name": name,
        "directive": "nondeterministic",
        "backend": "CUDA",
        "pass": "both",
        "docname": uri.partition(".")[0],
        "uri": uri,
        "deterministic_algorithms": mode,
        "when": None,
        "alerts": alerts,
    }


#: The registry: scatter_add_ and MaxUnpool2d agree with the code; cumsum
#: says it raises, which no source does (stale); median says it acts
#: deterministically, yet it raises; AvgPool3d names no alert.
OPERATIONS = [
    operation("torch.Tensor.scatter_add_", "raises", ["scatter_add_cuda"], "tensors.html#s"),
    operation("torch.nn.MaxUnpool2d", "raises", ["max_unpooling2d_forward_out"], "nn.html#m"),
    operation("torch.cumsum", "raises", ["cumsum_cuda_kernel"], "torch.html#cumsum"),
    operation(
        "torch.median", "deterministic", ["median CUDA with indices output"], "torch.html#median"
    ),
    operation("torch.nn.AvgPool3d", "raises", [], "nn.html#avg"),
]


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """The sources and the registry in tmp_path, which is the working directory."""
    for name, text in SOURCES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    registry = {"version": 3, "project": "torch", "operations": OPERATIONS}
    (tmp_path / "nondeterministic.json").write_text(json.dumps(registry), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def check(capsys, *arguments: str) -> tuple[int, str, str]:
    status = main(["check-alerts", *arguments])
    out, err = capsys.readouterr()
    return status, out, err


def findings(out: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in out.splitlines()[:-1]:
        where, kind, message = line.split(": ", 2)
        found.setdefault(kind, []).append(f"{where}: {message}")
    return found


def test_each_verdict_with_its_location(tree, capsys):
    status, out, err = check(capsys, "aten", "torch", "test", "--registry", "nondeterministic.json")
    assert (status, err) == (1, "")
    assert findings(out) == {
        UNREADABLE: [
            "aten/src/ATen/native/cuda/Unreadable.cu:2: an alert whose name cannot be read: name"
        ],
        UNDOCUMENTED: [
            (
                "aten/src/ATen/native/TensorAdvancedIndexing.cpp:3: raises the alert 'put_', "
                "which no entry names"
            ),
            (
                "test/test_torch.py:3: test_nondeterministic_alert_AvgPool3d expects the alert "
                "'avg_pool3d_backward_cuda', which no entry names"
            ),
        ],
        STALE: [
            (
                "torch.html#cumsum: torch.cumsum is documented to throw a RuntimeError, yet no "
                "source raises its alert 'cumsum_cuda_kernel'"
            )
        ],
        STILL_RAISED: [
            (
                "aten/src/ATen/native/cuda/Sorting.cpp:4: raises 'median CUDA with indices "
                "output', yet torch.median is documented to act deterministically"
            )
        ],
        WITHOUT_ALERT: [
            (
                "nn.html#avg: torch.nn.AvgPool3d names no alert (:alert:); its tests expect "
                "'avg_pool3d_backward_cuda'"
            )
        ],
    }
    assert out.splitlines()[-1] == (
        "check-alerts: 6 findings, 0 ignored; 5 alerts raised in 6 files, 2 tied by tests, "
        "5 entries"
    )


def test_agreement_exits_0(tree, capsys):
    registry = {"version": 3, "project": "torch", "operations": OPERATIONS[:2]}
    (tree / "agreeing.json").write_text(json.dumps(registry), encoding="utf-8")
    sources = ["aten/src/ATen/native/cuda/ScatterGatherKernel.cu", "torch"]
    status, out, _ = check(capsys, *sources, "--registry", "agreeing.json")
    assert status == 0
    assert out.startswith("check-alerts: 0 findings")


def test_the_registry_in_an_html_output_directory(tree, capsys):
    (tree / "html").mkdir()
    (tree / "nondeterministic.json").rename(tree / "html" / "nondeterministic.json")
    assert check(capsys, "aten", "--registry", "html")[0] == 1


@pytest.mark.slow  # a Sphinx build in a process of its own: on the full lines
def test_the_registry_of_a_docs_source_folder_is_built(tree, capsys):
    # A docs source folder, built in a scratch folder to read its registry:
    # torch.median's entry names the alert the kernel raises.
    docs = tree / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text('extensions = ["reprodocs"]\n', encoding="utf-8")
    (docs / "index.rst").write_text(
        "Ops\n===\n\n.. py:function:: torch.median(input)\n\n"
        "   .. nondeterministic-entry::\n"
        "      :deterministic-algorithms: raises\n"
        "      :alert: median CUDA with indices output\n",
        encoding="utf-8",
    )
    status, out, _ = check(capsys, "aten", "--registry", "docs", "--format", "json")
    assert status == 1  # the other alerts are undocumented
    report = json.loads(out)
    assert report["counts"]["entries"] == 1
    assert not [f for f in report["findings"] if "median CUDA" in (f["alert"] or "")]
    assert not list(docs.glob("_build*")) and sorted(p.name for p in docs.iterdir()) == [
        "conf.py",
        "index.rst",
    ]


@pytest.mark.slow  # Sphinx builds in processes of their own: on the full lines
@pytest.mark.parametrize(
    ("conf", "error"),
    [
        ("extensions = []\n", "the docs built write no nondeterministic.json"),
        ("raise ValueError('no')\n", "building the docs failed"),
    ],
)
def test_a_docs_source_folder_without_a_registry_exits_2(tree, capsys, conf, error):
    (tree / "docs").mkdir()
    (tree / "docs" / "conf.py").write_text(conf, encoding="utf-8")
    (tree / "docs" / "index.rst").write_text("Ops\n===\n", encoding="utf-8")
    status, out, err = check(capsys, "aten", "--registry", "docs")
    assert (status, out) == (2, "")
    assert err.startswith("docs: ") and error in err


def test_a_version_2_registry_names_no_alerts(tree, capsys):
    """Version 2 has no alerts: each entry is one without."""
    operations = [{k: v for k, v in op.items() if k != "alerts"} for op in OPERATIONS[:1]]
    registry = {"version": 2, "project": "torch", "operations": operations}
    (tree / "v2.json").write_text(json.dumps(registry), encoding="utf-8")
    status, out, _ = check(capsys, "torch", "--registry", "v2.json")
    assert status == 1
    assert list(findings(out)) == [UNDOCUMENTED, WITHOUT_ALERT]


def test_json_format(tree, capsys):
    status, out, _ = check(capsys, "aten", "test", "--registry", ".", "--format", "json")
    report = json.loads(out)
    assert status == 1
    assert report["version"] == 1
    assert report["counts"] == {"files": 5, "calls": 4, "ties": 2, "entries": 5, "branches": None}
    assert report["branches"] == []  # no switch configured
    kinds = [finding["kind"] for finding in report["findings"]]
    assert kinds == [UNREADABLE, UNDOCUMENTED, UNDOCUMENTED, STALE, STALE, STILL_RAISED,
                     WITHOUT_ALERT]  # fmt: skip
    stale = [finding for finding in report["findings"] if finding["kind"] == STALE]
    assert [(f["operation"], f["alert"], f["line"]) for f in stale] == [
        ("torch.nn.MaxUnpool2d", "max_unpooling2d_forward_out", None),
        ("torch.cumsum", "cumsum_cuda_kernel", None),
    ]


def test_github_format_annotates_lines(tree, capsys):
    status, out, _ = check(capsys, "aten", "--registry", ".", "--format", "github")
    lines = out.splitlines()
    assert status == 1
    assert lines[0] == (
        "::error file=aten/src/ATen/native/cuda/Unreadable.cu,line=2,"
        "title=check-alerts unreadable-call::an alert whose name cannot be read: name"
    )
    # An entry has no source line: its docs lead the message; ":" and ","
    # in properties, "%" and line ends in messages are escaped.
    assert "::error title=check-alerts stale-entry::torch.html#cumsum: torch.cumsum is" in out
    assert lines[-1].startswith("check-alerts: ")


def test_a_file_name_that_is_not_utf_8_leaves_the_report_whole(tree, capsys):
    """A source whose name is not UTF-8 (Python reads its byte as an
    unpaired surrogate): the JSON report had it as is, which standard
    output could not encode (a traceback) or wrote as a byte that is not
    UTF-8 (no JSON); it is JSON's escape, read back as the name it was."""
    name = os.fsdecode(b"aten/\xff.cpp")
    Path(tree, name).write_bytes(
        b'void f() { at::globalContext().alertNotDeterministic("named_badly"); }\n'
    )
    _, out, _ = check(capsys, "aten", "--registry", ".", "--format", "json")
    assert "\\udcff" in out.encode("utf-8").decode("ascii", "replace")
    [found] = [f for f in json.loads(out)["findings"] if f.get("alert") == "named_badly"]
    assert found["path"] == name
    _, out, _ = check(capsys, "aten", "--registry", ".", "--format", "github")
    assert "::error file=aten/\\xff.cpp,line=1,title=check-alerts undocumented-alert::" in out


def test_github_escapes():
    from reprodocs.check_alerts.formats import escaped

    assert escaped("a%b\nc\rd:e,f") == "a%25b%0Ac%0Dd:e,f"
    assert escaped("a:b,c", property_value=True) == "a%3Ab%2Cc"


def test_an_entry_of_the_registry_file_is_located_at_its_line(tree, capsys):
    """An entry of the registry file has no docs: its findings are at its
    file and line, in each format (issue 40)."""
    entry = {**operation("torch.Tensor.resize_", "raises", [], ""), "docname": None, "uri": None}
    entry["registry_file"] = {"path": "docs/registry.toml", "line": 7}
    registry = {"version": 3, "project": "torch", "operations": [entry]}
    (tree / "file.json").write_text(json.dumps(registry), encoding="utf-8")
    _, out, _ = check(capsys, "torch", "--registry", "file.json")
    assert findings(out)[WITHOUT_ALERT] == [
        "docs/registry.toml:7: torch.Tensor.resize_ names no alert (:alert:)"
    ]
    _, out, _ = check(capsys, "torch", "--registry", "file.json", "--format", "json")
    [found] = [f for f in json.loads(out)["findings"] if f["kind"] == WITHOUT_ALERT]
    assert (found["path"], found["line"]) == ("docs/registry.toml", 7)
    _, out, _ = check(capsys, "torch", "--registry", "file.json", "--format", "github")
    assert "::error file=docs/registry.toml,line=7,title=check-alerts entry-without-alert::" in out


@pytest.mark.parametrize("form", ["json", "github"])
@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        (["aten", "--registry", "README.md"], "README.md: not JSON: "),
        (["aten", "--registry", "missing.json"], "missing.json: cannot read it: "),
        (["aten", "--registry", ".", "--config", "README.md"], "README.md: "),
        (["aten", "missing-dir", "--registry", "."], "missing-dir: no such file or directory"),
        (["aten"], "check-alerts: the following arguments are required: --registry"),
        (["aten", "--registry"], "check-alerts: argument --registry: expected one argument"),
        (["aten", "--registry", ".", "--bogus"], "check-alerts: unrecognized arguments: --bogus"),
    ],
    ids=["not-json", "missing", "config", "source", "no-registry", "no-value", "unrecognized"],
)
def test_every_outcome_is_a_whole_report(tree, capsys, form, arguments, error):
    """JSON on standard output whatever happened, the errors in it; GitHub
    annotations for the errors; status 2 (issue 40)."""
    try:
        status, out, _ = check(capsys, *arguments, "--format", form)
    except SystemExit as exit_:  # argparse's, after the report
        status, (out, _) = exit_.code, capsys.readouterr()
    assert status == 2
    if form == "json":
        report = json.loads(out)
        [said] = report["errors"]
        assert said.startswith(error), said
        assert set(report) == {
            "version",
            "errors",
            "findings",
            "ignored",
            "unused_ignores",
            "branches",
            "counts",
        }
    else:
        said = out.splitlines()[0]
        assert said.startswith(f"::error title=check-alerts error::{error}"), said
        assert out.splitlines()[-1].startswith("check-alerts: ")


PYPROJECT_RULES = """\
[project]
name = "torch"

[tool.reprodocs.check-alerts]
ignore = [
  {alert = "put_", reason = "documented with index_put_ (issue 123)"},
  {path = "aten/src/ATen/native/cuda/Unreadable.cu", reason = "a helper: its callers name the alert"},
  {operation = "torch.nn.*", reason = "nn's alerts come in the next release"},
  {alert = "never_raised", reason = "kept for old branches"},
]
"""


def test_ignore_rules_in_pyproject_toml(tree, capsys):
    (tree / "pyproject.toml").write_text(PYPROJECT_RULES, encoding="utf-8")
    status, out, _ = check(capsys, "aten", "--registry", ".", "--format", "json")
    report = json.loads(out)
    assert status == 1
    assert {f["kind"] for f in report["findings"]} == {STALE, STILL_RAISED}
    # MaxUnpool2d's alert is raised in torch/, not scanned here: stale, but nn's.
    assert {(f["kind"], f["reason"]) for f in report["ignored"]} == {
        (STALE, "nn's alerts come in the next release"),
        (UNDOCUMENTED, "documented with index_put_ (issue 123)"),
        (UNREADABLE, "a helper: its callers name the alert"),
        (WITHOUT_ALERT, "nn's alerts come in the next release"),
    }
    assert [rule["alert"] for rule in report["unused_ignores"]] == ["never_raised"]


def test_the_nearest_pyproject_toml_with_the_table_is_read(tree, capsys, monkeypatch):
    (tree / "pyproject.toml").write_text(PYPROJECT_RULES, encoding="utf-8")
    (tree / "aten" / "pyproject.toml").write_text("[project]\nname = 'aten'\n", encoding="utf-8")
    monkeypatch.chdir(tree / "aten")
    _, out, _ = check(capsys, ".", "--registry", "../nondeterministic.json")
    # Paths are as the sources were given: from aten/, the path rule misses.
    assert "3 ignored" in out.splitlines()[-1]
    unused = [line for line in out.splitlines() if "matched nothing" in line]
    assert [line.split(": ", 1)[1] for line in unused] == [
        (
            "path = 'aten/src/ATen/native/cuda/Unreadable.cu' (a helper: its callers name the "
            "alert): this ignore rule matched nothing"
        ),
        "alert = 'never_raised' (kept for old branches): this ignore rule matched nothing",
    ]


def test_ignore_rules_in_conf_py(tree, capsys):
    conf = tree / "conf.py"
    conf.write_text(
        'project = "torch"\n'
        'reprodocs_check_alerts_ignore = [{"alert": "put_", "reason": "internal"}]\n',
        encoding="utf-8",
    )
    _, out, _ = check(capsys, "aten", "--registry", ".", "--config", str(conf))
    assert "put_" not in "".join(out.splitlines()[:-1])
    assert "1 ignored" in out.splitlines()[-1]


@pytest.mark.parametrize(
    ("rules", "error"),
    [
        ("ignore = 3", "].ignore: must be a list of rules (tables)"),
        ("ignore = [3]", "].ignore[0]: must be a table"),
        ('ignore = [{alert = "x"}]', "].ignore[0]: needs a reason (a string)"),
        ('ignore = [{alert = "x", reason = " "}]', "].ignore[0]: needs a reason (a string)"),
        (
            'ignore = [{reason = "r"}]',
            "].ignore[0]: needs one of alert, path, operation, as a string",
        ),
        (
            'ignore = [{alert = 1, reason = "r"}]',
            "].ignore[0]: needs one of alert, path, operation",
        ),
        ('ignore = [{alerts = "x", reason = "r"}]', "].ignore[0]: unknown keys: alerts"),
        ("ignore = [", "not TOML"),
    ],
)
def test_a_wrong_rule_is_named_and_exits_2(tree, capsys, rules, error):
    (tree / "pyproject.toml").write_text(f"[tool.reprodocs.check-alerts]\n{rules}\n")
    status, out, err = check(capsys, "aten", "--registry", ".")
    assert (status, out) == (2, "")
    assert err.startswith(f"{tree / 'pyproject.toml'}")
    assert error in err


@pytest.mark.parametrize("given", [True, False], ids=["config", "nearest"])
def test_a_pyproject_toml_not_in_utf_8_is_not_toml_in_json(tree, capsys, given):
    """tomllib lets a UnicodeDecodeError through: it was a traceback, with
    nothing on standard output."""
    (tree / "pyproject.toml").write_bytes(b'[tool.reprodocs.check-alerts]\nignore = ["\xff"]\n')
    config = ["--config", "pyproject.toml"] if given else []
    status, out, _ = check(capsys, "aten", "--registry", ".", "--format", "json", *config)
    assert status == 2
    [said] = json.loads(out)["errors"]
    path = "pyproject.toml" if given else str(tree / "pyproject.toml")
    assert said == f"{path}: not TOML: invalid start byte (at byte 41)"


def test_what_a_conf_py_prints_leaves_the_report_whole(tree, capsys):
    (tree / "conf.py").write_text(
        'print("conf.py read")\nreprodocs_check_alerts_ignore = []\n', encoding="utf-8"
    )
    args = ["aten", "--registry", ".", "--config", "conf.py", "--format", "json"]
    status, out, err = check(capsys, *args)
    assert status == 1
    assert json.loads(out)["counts"]["entries"] == len(OPERATIONS)
    assert err.startswith("conf.py read\n")


@pytest.mark.parametrize("asked", [["--form", "json"], ["--fo=json"], ["--forma", "json"]])
def test_an_abbreviated_format_option_is_the_format_asked_for_on_a_usage_error(capsys, asked):
    """argparse reads ``--form json`` as ``--format json``: so does the
    report of a command line it rejects (it was text)."""
    with pytest.raises(SystemExit) as exit_:
        check(capsys, "--registry", "nondeterministic.json", *asked)
    out, _ = capsys.readouterr()
    assert exit_.value.code == 2
    [said] = json.loads(out)["errors"]
    assert said == "check-alerts: the following arguments are required: SOURCE"


def test_a_conf_py_that_fails_exits_2(tree, capsys):
    (tree / "conf.py").write_text("import not_installed_anywhere\n", encoding="utf-8")
    status, _, err = check(capsys, "aten", "--registry", ".", "--config", "conf.py")
    assert status == 2
    assert err.startswith("conf.py: ")


@pytest.mark.parametrize(
    ("registry", "error"),
    [
        ("missing.json", "cannot read it"),
        ("README.md", "not JSON"),
        ('{"version": 9, "operations": []}', "not a nondeterministic.json of version 2 or 3"),
        ('{"version": 3, "operations": {}}', "its operations are not a list"),
        ('{"version": 3, "operations": [3]}', "operations[0]: not an operation"),
        ('{"version": 3, "operations": [{"name": "x", "alerts": [1]}]}', "arrays of strings"),
        # A string: its characters were each an alert.
        ('{"version": 3, "operations": [{"name": "x", "alerts": "foo"}]}', "arrays of strings"),
        ('{"version": 3, "operations": [{"name": "x", "aliases": "y"}]}', "arrays of strings"),
        # No name (required; null for a labelled entry): a KeyError's traceback before.
        ('{"version": 3, "operations": [{"alerts": ["x"]}]}', "operations[0]: not an operation"),
        # Nested deeper than Python's JSON reader goes: a RecursionError's traceback before.
        ("[" * 100_000 + "]" * 100_000, "not JSON: maximum recursion depth exceeded"),
    ],
)
def test_a_registry_that_cannot_be_read_exits_2(tree, capsys, registry, error):
    if registry.startswith(("{", "[")):
        (tree / "bad.json").write_text(registry, encoding="utf-8")
        registry = "bad.json"
    status, out, err = check(capsys, "aten", "--registry", registry)
    assert (status, out) == (2, "")
    assert err.startswith(registry) and error in err


def test_an_unreadable_source_is_named_and_exits_2(tree, capsys):
    os.mkfifo(tree / "aten" / "pipe.cpp")  # read, it would block for ever
    status, out, err = check(capsys, "aten", "missing-dir", "--registry", ".")
    assert status == 2
    assert err.splitlines() == [
        "aten/pipe.cpp: cannot read it: not a regular file",
        "missing-dir: no such file or directory",
    ]
    assert "findings" in out.splitlines()[-1]  # the rest is still compared


def test_a_test_file_that_is_not_python_is_named(tree, capsys):
    (tree / "test" / "test_broken.py").write_text("def test_nondeterministic_alert_x(:\n")
    status, _, err = check(capsys, "test", "--registry", ".")
    assert status == 2
    assert err.startswith("test/test_broken.py: cannot read its tests: ")


def test_command_line_misuse_exits_2(tree, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["check-alerts", "aten"])
    assert exit_.value.code == 2
    assert "--registry" in capsys.readouterr().err


def test_a_progress_line_on_a_terminal_only(tree, monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(command, "PROGRESS_EVERY", 0)
    terminal, pipe = Terminal(), io.StringIO()
    scanned = command.scan_sources(["aten"], terminal)
    assert command.scan_sources(["aten"], pipe) == scanned
    assert pipe.getvalue() == ""
    assert "\rcheck-alerts: 1 files scanned" in terminal.getvalue()
    assert terminal.getvalue().endswith("\r\033[K")


def test_directories_skip_hidden_folders_and_other_files(tree):
    (tree / "aten" / ".git").mkdir()
    (tree / "aten" / ".git" / "hook.py").write_text('alert_not_deterministic("hidden")\n')
    (tree / "aten" / "notes.txt").write_text('alertNotDeterministic("text")\n')
    files = list(command.source_files(["aten"], []))
    assert {path.name for path in files} == {
        "ScatterGatherKernel.cu", "Sorting.cpp", "TensorAdvancedIndexing.cpp", "Unreadable.cu"
    }  # fmt: skip
    assert os.sep.join(files[0].parts[:1]) == "aten"
    assert Path(files[0]).is_file()


def test_a_binary_file_and_links_in_the_tree(tree, capsys):
    """A binary file is read as bytes (a name in it still counts). Links in
    a directory are not followed, as migrate's (issue 40): one into the
    tree is passed over (its file is scanned there); one elsewhere, one
    leading nowhere and one that loops are said by name, on standard
    error, and change no exit status."""
    (tree / "aten" / "kernel.so.cpp").write_bytes(b"\x7fELF\x00\xff\xfe" * 1000)
    (tree / "aten" / "loop").symlink_to(tree / "aten")
    (tree / "aten" / "self.cpp").symlink_to(tree / "aten" / "self.cpp")
    (tree / "aten" / "gone.cpp").symlink_to(tree / "nowhere.cpp")
    (tree / "aten" / "gone").symlink_to(tree / "nowhere")
    (tree / "aten" / "again.cpp").symlink_to(tree / "aten" / "kernel.so.cpp")
    (tree / "aten" / "tests.py").symlink_to(tree / "test" / "test_torch.py")
    status, out, err = check(capsys, "aten", "--registry", ".")
    real = tree.resolve()
    assert status == 1
    assert err.splitlines() == [
        f"aten/gone: not followed: a symbolic link to {real / 'nowhere'}, which does not exist",
        f"aten/gone.cpp: not followed: a symbolic link to {real / 'nowhere.cpp'}, which does not exist",
        "aten/self.cpp: not followed: a symbolic link that loops",
        f"aten/tests.py: not followed: a symbolic link to {real / 'test/test_torch.py'}",
    ]  # fmt: skip
    assert "Traceback" not in out + err
    assert "in 5 files" in out.splitlines()[-1]  # neither aten/loop/ nor again.cpp again


# -- A library's switches (Megatron-LM's) ---------------------------------------------

MEGATRON_SOURCES = {
    "megatron/core/transformer/moe/moe_utils.py": """\
def unpermute(tokens, probs):
    if torch.are_deterministic_algorithms_enabled():
        return tokens.index_add_(0, probs, tokens)
    return tokens.scatter_add_(0, probs, tokens)


def permute(tokens):
    return tokens
""",
    "megatron/core/tensor_parallel/layers.py": """\
class VocabParallelEmbedding:
    def __init__(self, config):
        self.deterministic_mode = config.deterministic_mode
""",
    "megatron/core/ssm/gated_delta_net/gdn.py": """\
class GatedDeltaNet:
    def forward(self, x):
        if self.config.deterministic_mode:
            return conv1d(x)
        return fla_conv1d(x)
""",
    "megatron/training/determinism.py": "def apply_determinism_to_args(args):\n    pass\n",
}

MEGATRON_PYPROJECT = """\
[tool.reprodocs.check-alerts]
alert-functions = []
switches = ["torch.are_deterministic_algorithms_enabled()", "config.deterministic_mode"]
"""

#: unpermute and VocabParallelEmbedding cover their sites; permute's module
#: is scanned but permute reads no switch, nor does determinism.py;
#: megatron.rl is not scanned (not known); gdn.py's site is covered by none.
MEGATRON_OPERATIONS = [
    operation("megatron.core.transformer.moe.moe_utils.unpermute", "", [], "moe.html#u"),
    operation("megatron.core.tensor_parallel.layers.VocabParallelEmbedding", "", [], "tp.html#v"),
    operation("megatron.core.transformer.moe.moe_utils.permute", "", [], "moe.html#p"),
    operation("megatron.training.determinism", "", [], "training.html#d"),
    operation("megatron.rl.rl_utils.get_environment_rollouts", "", [], "rl.html#r"),
]


@pytest.fixture
def megatron(tmp_path, monkeypatch):
    for name, text in MEGATRON_SOURCES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(MEGATRON_PYPROJECT, encoding="utf-8")
    registry = {"version": 3, "project": "Megatron", "operations": MEGATRON_OPERATIONS}
    (tmp_path / "nondeterministic.json").write_text(json.dumps(registry), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_megatron_s_switches_each_site_and_entry(megatron, capsys):
    status, out, err = check(capsys, "megatron", "--registry", ".", "--list-branches")
    assert (status, err) == (1, "")
    lines = out.splitlines()
    gdn = "megatron/core/ssm/gated_delta_net/gdn.py"
    assert lines[:3] == [
        f"{gdn}:3: branch on config.deterministic_mode in GatedDeltaNet.forward: no entry",
        (
            "megatron/core/tensor_parallel/layers.py:3: value on config.deterministic_mode in "
            "VocabParallelEmbedding.__init__: megatron.core.tensor_parallel.layers."
            "VocabParallelEmbedding"
        ),
        (
            "megatron/core/transformer/moe/moe_utils.py:2: branch on "
            "torch.are_deterministic_algorithms_enabled() in unpermute: "
            "megatron.core.transformer.moe.moe_utils.unpermute"
        ),
    ]
    # No alert function configured: no entry is faulted for naming no alert.
    assert findings("\n".join(lines[3:])) == {
        "uncovered-branch": [
            (
                f"{gdn}:3: branch on config.deterministic_mode in GatedDeltaNet.forward, "
                "which no entry covers"
            )
        ],
        "entry-without-branch": [
            (
                "moe.html#p: megatron.core.transformer.moe.moe_utils.permute reads no switch "
                "(megatron/core/transformer/moe/moe_utils.py)"
            ),
            (
                "training.html#d: megatron.training.determinism reads no switch "
                "(megatron/training/determinism.py)"
            ),
        ],
    }
    assert lines[-1] == (
        "check-alerts: 3 findings, 0 ignored; 0 alerts raised in 4 files, 0 tied by tests, "
        "5 entries; 3 switch sites, 2 covered"
    )


def test_megatron_s_sites_in_json(megatron, capsys):
    status, out, _ = check(capsys, "megatron", "--registry", ".", "--format", "json")
    report = json.loads(out)
    assert status == 1
    assert report["counts"]["branches"] == 3
    [unpermute] = [b for b in report["branches"] if b["scope"] == "unpermute"]
    assert unpermute == {
        "path": "megatron/core/transformer/moe/moe_utils.py",
        "line": 2,
        "switch": "torch.are_deterministic_algorithms_enabled()",
        "kind": "branch",
        "scope": "unpermute",
        "entries": ["megatron.core.transformer.moe.moe_utils.unpermute"],
    }


def test_an_ignore_rule_covers_a_branch_finding(megatron, capsys):
    (megatron / "pyproject.toml").write_text(
        MEGATRON_PYPROJECT
        + 'ignore = [{path = "megatron/core/ssm/*", reason = "catalogued by hand"},\n'
        + '  {operation = "megatron.training.*", reason = "validation, not a path"}]\n',
        encoding="utf-8",
    )
    status, out, _ = check(capsys, "megatron", "--registry", ".")
    assert status == 1
    assert list(findings(out)) == ["entry-without-branch"]
    assert "2 ignored" in out.splitlines()[-1]


def test_without_switches_no_site_is_looked_for(megatron, capsys):
    (megatron / "pyproject.toml").write_text("[tool.reprodocs.check-alerts]\n", encoding="utf-8")
    _, out, _ = check(capsys, "megatron", "--registry", ".", "--list-branches")
    assert "switch sites" not in out
    # PyTorch's patterns: each entry naming no alert is said so.
    assert len(findings(out)["entry-without-alert"]) == 5


@pytest.mark.parametrize("form", ["text", "json"])
@pytest.mark.parametrize(
    ("table", "error"),
    [
        ('switches = ["f(1)"]', ".switches[0]: 'f(1)' is neither a dotted name"),
        ("switches = 1", ".switches: must be a list of strings"),
        ('switch = ["a.b"]', ": unknown keys: switch"),
        ('alert-functions = ["a b"]', ".alert-functions[0]: 'a b' is not a function's name"),
    ],
)
def test_a_wrong_pattern_is_named_and_exits_2(megatron, capsys, form, table, error):
    (megatron / "pyproject.toml").write_text(
        f"[tool.reprodocs.check-alerts]\n{table}\n", encoding="utf-8"
    )
    status, out, err = check(capsys, "megatron", "--registry", ".", "--format", form)
    assert status == 2
    said = err if form == "text" else json.loads(out)["errors"][0]
    assert said.startswith(f"{megatron / 'pyproject.toml'} [tool.reprodocs.check-alerts]{error}")


def test_a_python_file_that_does_not_parse_is_named(megatron, capsys):
    broken = megatron / "megatron" / "broken.py"
    broken.write_text("if config.deterministic_mode\n", encoding="utf-8")
    status, _, err = check(capsys, "megatron", "--registry", ".")
    assert status == 2
    assert err.startswith("megatron/broken.py: cannot read its branches: ")


# -- Megatron-LM's catalog: labelled entries placed by their fields --------------------


def labelled(label, line, **fields):
    """A labelled entry of the registry file (at *line*), with the project's *fields*."""
    return {
        "name": None,
        "label": label,
        "directive": "nondeterministic-entry",
        "docname": None,
        "uri": None,
        "alerts": [],
        "registry_file": {"path": "docs/registry.toml", "line": line},
        **fields,
    }


#: A file (moe_utils.py's site), a folder (gdn.py's), a file become a
#: package, a place holding no switch, and words alone.
CATALOG = [
    labelled(
        "MoE token unpermute (combine)",
        2,
        where="``megatron/core/transformer/moe/moe_utils.py``",
        default_path="``scatter_add_`` (atomic accumulation)",
    ),
    labelled("Gated-delta-net causal conv1d", 7, where="``megatron/core/ssm/gated_delta_net/``"),
    labelled("Gated-delta-net kernel", 12, where="``megatron/core/ssm/gated_delta_net.py``"),
    labelled(
        "Fused cross-entropy loss (``--cross-entropy-loss-fusion``)",
        17,
        where_enforced_or_observed=(
            "rejected by ``--deterministic-mode`` (``megatron/training/determinism.py``)"
        ),
    ),
    labelled(
        "Cross-allocation floating-point collectives", 22, where_enforced_or_observed="open gap"
    ),
]


@pytest.fixture
def catalog(megatron):
    registry = {"version": 3, "project": "Megatron", "operations": CATALOG}
    (megatron / "nondeterministic.json").write_text(json.dumps(registry), encoding="utf-8")
    return megatron


def test_the_catalog_s_rows_cover_sites_by_file_and_by_folder(catalog, capsys):
    status, out, err = check(capsys, "megatron", "--registry", ".", "--list-branches")
    assert (status, err) == (1, "")
    lines = out.splitlines()
    gdn, layers = (
        "megatron/core/ssm/gated_delta_net/gdn.py",
        "megatron/core/tensor_parallel/layers.py",
    )
    assert lines[:3] == [
        (
            f"{gdn}:3: branch on config.deterministic_mode in GatedDeltaNet.forward: "
            "Gated-delta-net causal conv1d"
        ),
        (
            f"{layers}:3: value on config.deterministic_mode in VocabParallelEmbedding.__init__: "
            "no entry"
        ),
        (
            "megatron/core/transformer/moe/moe_utils.py:2: branch on "
            "torch.are_deterministic_algorithms_enabled() in unpermute: MoE token unpermute (combine)"
        ),
    ]
    # The row of words alone ("open gap") is passed by.
    assert findings("\n".join(lines[3:])) == {
        "uncovered-branch": [
            (
                f"{layers}:3: value on config.deterministic_mode in VocabParallelEmbedding.__init__, "
                "which no entry covers"
            )
        ],
        "entry-without-branch": [
            (
                "docs/registry.toml:17: Fused cross-entropy loss (``--cross-entropy-loss-fusion``): "
                "no switch is read in megatron/training/determinism.py"
            )
        ],
        "missing-place": [
            (
                "docs/registry.toml:12: Gated-delta-net kernel names "
                "megatron/core/ssm/gated_delta_net.py, which does not exist "
                "(a package is there: megatron/core/ssm/gated_delta_net/)"
            )
        ],
    }
    assert lines[-1].endswith("5 entries; 3 switch sites, 2 covered")


def test_a_row_whose_files_are_not_scanned_is_not_known_missing(catalog, capsys):
    """Given megatron/core alone, megatron/training is outside the sources."""
    status, out, _ = check(capsys, "megatron/core", "--registry", ".")
    assert status == 1
    assert "entry-without-branch" not in findings(out)
    assert len(findings(out)["missing-place"]) == 1


def test_the_catalog_s_rows_in_json(catalog, capsys):
    status, out, _ = check(
        capsys, "megatron", "--registry", ".", "--format", "json", "--list-branches"
    )
    report = json.loads(out)  # the listing is the report's "branches": nothing else printed
    assert status == 1
    assert {b["scope"]: b["entries"] for b in report["branches"]} == {
        "GatedDeltaNet.forward": ["Gated-delta-net causal conv1d"],
        "VocabParallelEmbedding.__init__": [],
        "unpermute": ["MoE token unpermute (combine)"],
    }
    [missing] = [f for f in report["findings"] if f["kind"] == "missing-place"]
    assert (missing["path"], missing["line"], missing["operation"]) == (
        "docs/registry.toml",
        12,
        "Gated-delta-net kernel",
    )


def test_the_catalog_s_rows_in_github_annotations(catalog, capsys):
    status, out, _ = check(
        capsys, "megatron", "--registry", ".", "--format", "github", "--list-branches"
    )
    assert status == 1
    assert (
        "::notice file=megatron/core/ssm/gated_delta_net/gdn.py,line=3,"
        "title=check-alerts branch::branch on config.deterministic_mode in "
        "GatedDeltaNet.forward: Gated-delta-net causal conv1d"
    ) in out.splitlines()
    assert (
        "::error file=docs/registry.toml,line=12,title=check-alerts missing-place::"
        "Gated-delta-net kernel names megatron/core/ssm/gated_delta_net.py, which does not exist "
        "(a package is there: megatron/core/ssm/gated_delta_net/)"
    ) in out.splitlines()
    # Without --list-branches, no notice.
    _, out, _ = check(capsys, "megatron", "--registry", ".", "--format", "github")
    assert "::notice" not in out


def test_an_ignore_rule_covers_a_row_by_its_label(catalog, capsys):
    (catalog / "pyproject.toml").write_text(
        MEGATRON_PYPROJECT
        + 'ignore = [{operation = "Gated-delta-net kernel", reason = "moved"}]\n',
        encoding="utf-8",
    )
    _, out, _ = check(capsys, "megatron", "--registry", ".")
    assert "missing-place" not in findings(out)
    assert "1 ignored" in out.splitlines()[-1]


@pytest.mark.parametrize("form", ["text", "json"])
def test_a_field_that_is_not_text_exits_2_located(catalog, capsys, form):
    registry = {"version": 3, "project": "M", "operations": [{**CATALOG[0], "where": 3}]}
    (catalog / "nondeterministic.json").write_text(json.dumps(registry), encoding="utf-8")
    status, out, err = check(capsys, "megatron", "--registry", ".", "--format", form)
    said = err.rstrip("\n") if form == "text" else json.loads(out)["errors"][0]
    assert status == 2
    assert said == (
        "nondeterministic.json: operations[0]: its field 'where' must be a string or an array "
        "of strings"
    )
    assert "Traceback" not in out + err


@pytest.mark.slow  # a Sphinx build in a process of its own: on the full lines
def test_the_catalog_of_a_docs_folder_with_declared_fields(megatron, capsys):
    """Where Megatron keeps its rows: a registry file and a MyST page, with
    the fields conf.py declares; the build's JSON gives them, and the
    registry file's line locates a row."""
    docs = megatron / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text(
        'extensions = ["reprodocs", "myst_parser"]\n'
        'reprodocs_registry_file = "registry.toml"\n'
        'reprodocs_entry_fields = [{"option": "where", "title": "Where"}]\n',
        encoding="utf-8",
    )
    (docs / "registry.toml").write_text(
        '[[entry]]\nlabel = "Gated-delta-net kernel"\n'
        'where = "``megatron/core/ssm/gated_delta_net.py``"\n',
        encoding="utf-8",
    )
    (docs / "index.md").write_text(
        "# Catalog\n\n```{nondeterministic-entry}\n:label: MoE token unpermute (combine)\n"
        ":where: ``megatron/core/transformer/moe/moe_utils.py``\n```\n",
        encoding="utf-8",
    )
    status, out, _ = check(capsys, "megatron", "--registry", "docs", "--list-branches")
    assert status == 1
    assert (
        "megatron/core/transformer/moe/moe_utils.py:2: branch on "
        "torch.are_deterministic_algorithms_enabled() in unpermute: MoE token unpermute (combine)"
    ) in out.splitlines()
    assert findings(out.split("\n", 3)[3])["missing-place"] == [
        (
            "docs/registry.toml:1: Gated-delta-net kernel names "
            "megatron/core/ssm/gated_delta_net.py, which does not exist "
            "(a package is there: megatron/core/ssm/gated_delta_net/)"
        )
    ]
