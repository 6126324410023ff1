"""bench/megatron_docs.py's pure parts: the copy of a checkout it builds, a
build's warnings read from its log and compared, the navigation's summary
(no build, no Megatron-LM: a made-up checkout and logs)."""

from __future__ import annotations

import importlib.util
import runpy
from collections import Counter
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"


def _load_megatron_docs():
    spec = importlib.util.spec_from_file_location("bench_megatron_docs", BENCH / "megatron_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


megatron_docs = _load_megatron_docs()


def test_the_copy_holds_the_tree_but_git_and_builds_and_adds_the_extensions_asked_for(
    tmp_path, monkeypatch
):
    checkout = tmp_path / "checkout"
    (checkout / "docs" / "_build").mkdir(parents=True)
    (checkout / "docs" / "_build" / "old.html").write_text("stale")
    (checkout / "docs" / "conf.py").write_text('extensions = ["myst_parser"]\n')
    (checkout / "megatron" / "core").mkdir(parents=True)
    (checkout / "megatron" / "core" / "a.py").write_text("")
    (checkout / "tests").mkdir()
    (checkout / "tests" / "test_a.py").write_text("")
    (checkout / ".git").mkdir()
    docs = megatron_docs.prepare(checkout, tmp_path / "copy")
    assert docs == tmp_path / "copy" / "docs"
    assert (tmp_path / "copy" / "megatron" / "core" / "a.py").is_file()
    assert not (docs / "_build").exists()
    assert (tmp_path / "copy" / "tests" / "test_a.py").is_file()
    assert not (tmp_path / "copy" / ".git").exists()
    for added, expected in (
        ("", ["myst_parser"]),
        ("reprodocs,reprodocs.navigation", ["myst_parser", "reprodocs", "reprodocs.navigation"]),
    ):
        monkeypatch.setenv("BENCH_EXTENSIONS", added)
        assert runpy.run_path(str(docs / "conf.py"))["extensions"] == expected


def test_warnings_are_messages_with_their_lines_and_without_the_copy_s_path(tmp_path):
    root = tmp_path / "copy"
    stderr = (
        f"{root}/docs/index.md:3: WARNING: one [myst.xref_missing]\n"
        f"{root}/docs/apidocs/a.md:7: ERROR: Unknown directive type.\n"
        "\n"
        "```{frobnicate}\n"
        f"{root}/docs/index.md:3: WARNING: one [myst.xref_missing]\n"
    )
    warned = megatron_docs.warnings_of(stderr, root)
    assert warned == Counter(
        {
            "docs/index.md:3: WARNING: one [myst.xref_missing]": 2,
            "docs/apidocs/a.md:7: ERROR: Unknown directive type.\n\n```{frobnicate}": 1,
        }
    )


def test_a_new_warning_is_one_the_base_does_not_give_as_often():
    base = Counter({"a": 1, "b": 2})
    assert megatron_docs.new_warnings(base, Counter({"b": 2, "a": 1})) == []
    assert megatron_docs.new_warnings(base, Counter({"b": 3, "c": 1})) == ["b", "c"]


def test_the_navigation_s_summary_is_read_from_the_log():
    log = (
        "writing output... [100%] index\n"
        "reprodocs.navigation: pydata-sphinx-theme 0.20.0: menus served on 3 of 3 pages\n"
        "build succeeded.\n"
    )
    assert megatron_docs.navigation_summary(log) == [
        "reprodocs.navigation: pydata-sphinx-theme 0.20.0: menus served on 3 of 3 pages"
    ]


def test_each_build_s_cpu_time_over_the_theme_alone_s():
    runs = {
        "alone": [{"cpu": 100.0}, {"cpu": 120.0}],
        "reprodocs+navigation": [{"cpu": 55.0}],
    }
    assert megatron_docs.ratios(runs) == {"alone": 1.0, "reprodocs+navigation": 0.5}
