"""Note directives docutils cannot read (an unknown, repeated or empty
option, a wrong value), and options written at a directive's own indent:
each a warning at the directive naming the operation left out of the
registry, and why (issue 40)."""

from __future__ import annotations

import pytest
from sphinx.cmd.build import build_main
from sphinx.util.console import strip_colors

from conftest import exported_index, write_page_project

#: Each directive of the test root left out: its line, name, operation, and
#: the reason the warning gives (docutils' words, or the indent).
LEFT_OUT = [
    (6, "nondeterministic", "torch.foo", 'unknown option: "deterministic-algorithm"'),
    (9, "nondeterministic", "torch.twice", 'invalid option data: duplicate option "op"'),
    (13, "cuda-deterministic", "torch.preset", 'unknown option: "pass"'),
    (17, "nondeterministic", "this page's note", 'invalid option value: (option: "op"; value: None)'),
    (21, "nondeterministic", "torch.sideways", '"sideways" unknown; choose from "forward"'),
    (25, "nondeterministic", "torch.commas", "a value is empty (two commas, or one at an end)"),
    (29, "nondeterministic", "torch.mode", '"sometimes" unknown; choose from "raises"'),
    (33, "nondeterministic-entry", "torch.unindented",
     "its options (:op:, :deterministic-algorithms:) are written at the directive's own indent"),
    (37, "nondeterministic", "torch.below",
     "its options (:op:, :deterministic-algorithms:) are written at the directive's own indent"),
]  # fmt: skip


@pytest.mark.sphinx("html", testroot="unread")
def test_each_entry_left_out_is_a_located_warning(app):
    app.build()
    warnings = strip_colors(app.warning.getvalue()).splitlines()
    ours = [line for line in warnings if "is not in the registry" in line]
    index = app.srcdir / "index.rst"
    for line, directive, operation, reason in LEFT_OUT:
        prefix = f"{index}:{line}: WARNING: {directive}: {operation} is not in the registry: "
        [said] = [text for text in ours if text.startswith(prefix)]
        assert reason in said, said
    # In a docstring: at the docstring's line, on the function autodoc documents.
    [docstring] = [text for text in ours if "docstring of unreadmod.scatter" in text]
    assert ":3: WARNING: nondeterministic: unreadmod.scatter is not in the registry: " in docstring
    assert len(ours) == len(LEFT_OUT) + 1
    assert all(text.endswith("[reprodocs.option]") for text in ours) or not getattr(
        app.config, "show_warning_types", False
    )
    # Only the note written right is in the registry.
    operations = [op["name"] for op in exported_index(app.outdir)["operations"]]
    assert operations == ["torch.good"]


def test_w_fails_on_options_at_the_directive_s_own_indent(tmp_path):
    """docutils says nothing when a blank line parts them: the warning is
    reprodocs' own, and -W fails the build on it."""
    srcdir = write_page_project(
        tmp_path / "src", ".. nondeterministic::\n\n:op: torch.below\n:pass: forward\n"
    )
    arguments = ["-q", "-b", "html", "-D", "reprodocs_reproducibility_doc=index", str(srcdir)]
    assert build_main([*arguments, str(tmp_path / "without")]) == 0
    assert build_main(["-W", *arguments, str(tmp_path / "with")]) != 0


@pytest.mark.parametrize(
    "body",
    [
        ".. nondeterministic::\n   :op: torch.x\n\n:param x: a field list of another kind\n",
        ".. nondeterministic::\n   :op: torch.x\n\nText.\n\n:op: a field named op, further down\n",
    ],
    ids=["other-fields", "not-right-below"],
)
def test_a_field_list_that_is_not_the_directive_s_options_is_left_alone(build_page, body):
    app = build_page(body)
    assert "not in the registry" not in app.warning.getvalue()
    assert [op["name"] for op in exported_index(app.outdir)["operations"]] == ["torch.x"]


#: A MyST page: each note MyST runs without an option written in its block.
MYST_PAGE = """# Page

```{toctree}
notes/randomness
```

```{nondeterministic}
:op: torch.misspelled
:deterministic-algorithm: raises
```

```{nondeterministic}
:op: torch.sideways
:pass: sideways
```

```{cuda-deterministic}
---
op: torch.yaml
pass: forward
---
```

```{nondeterministic}
:op: torch.good
:deterministic-algorithms: raises
```
"""


def test_options_myst_does_not_read_leave_the_entry_out_located(make_app, tmp_path):
    srcdir = write_page_project(tmp_path / "src", "")
    (srcdir / "index.rst").unlink()
    (srcdir / "index.md").write_text(MYST_PAGE, encoding="utf-8")
    (srcdir / "conf.py").write_text('extensions = ["myst_parser", "reprodocs"]\n', encoding="utf-8")
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    warnings = strip_colors(app.warning.getvalue()).splitlines()
    ours = [line for line in warnings if "is not in the registry" in line]
    page = srcdir / "index.md"
    assert ours == [
        f"{page}:7: WARNING: nondeterministic: torch.misspelled is not in the registry: "
        "MyST did not read its options (:deterministic-algorithm:)" + typed(app),
        f"{page}:12: WARNING: nondeterministic: torch.sideways is not in the registry: "
        "MyST did not read its options (:pass:)" + typed(app),
        f"{page}:17: WARNING: cuda-deterministic: torch.yaml is not in the registry: "
        "MyST did not read its options (:pass:)" + typed(app),
    ]
    operations = [op["name"] for op in exported_index(app.outdir)["operations"]]
    assert operations == ["torch.good"]


def typed(app) -> str:
    """The warning's type, as Sphinx prints it after the message (7.2 prints none)."""
    return " [reprodocs.option]" if getattr(app.config, "show_warning_types", False) else ""
