"""Wording sets: PyTorch 1.4's (the default) and PyTorch 2.x's, translated,
chosen by ``reprodocs_wording``; a name that is no set is a located warning."""

from __future__ import annotations

import pytest
from sphinx.cmd.build import build_main
from sphinx.util.console import strip_colors

from conftest import (
    note_wording,
    notes_in,
    parse_html,
    write_page_project,
)
from reprodocs.notes.wording import join_wide_sentences

#: PyTorch 2.x's notes as torch/_torch_docs.py writes them (reproducibility_notes).
PYTORCH_2_NOTES = {
    "cuda-deterministic": (
        "This operation may behave nondeterministically when given tensors on a CUDA device. "
        "See :doc:`/notes/randomness` for more information."
    ),
    "cuda-deterministic-backward": (
        "This operation may produce nondeterministic gradients when given tensors on a CUDA "
        "device. See :doc:`/notes/randomness` for more information."
    ),
    "cudnn-deterministic": (
        "In some circumstances when given tensors on a CUDA device and using CuDNN, this "
        "operator may select a nondeterministic algorithm to increase performance. If this is "
        "undesirable, you can try to make the operation deterministic (potentially at a "
        "performance cost) by setting ``torch.backends.cudnn.deterministic = True``. See "
        ":doc:`/notes/randomness` for more information."
    ),
}


@pytest.mark.parametrize("directive", PYTORCH_2_NOTES)
def test_pytorch_2_set_renders_pytorch_2x_notes_exactly(build_page, directive):
    # The preset, and the same note written as PyTorch 2.x's docstrings give it.
    app = build_page(
        f".. {directive}::\n\n.. note::\n\n   {PYTORCH_2_NOTES[directive]}\n",
        confoverrides={"reprodocs_wording": "pytorch-2"},
    )
    assert app.warning.getvalue() == ""
    preset, by_hand = notes_in(parse_html(app.outdir / "index.html"))
    assert str(preset) == str(by_hand)
    assert preset.find("a")["href"] == "notes/randomness.html"


#: (options of .. nondeterministic::, the PyTorch 2.x-voiced wording)
OTHER_NOTES = {
    "CUDA, both passes": (
        ":pass: both",
        (
            "This operation may behave nondeterministically and produce nondeterministic "
            "gradients when given tensors on a CUDA device."
        ),
    ),
    "ROCm, forward": (
        ":backend: rocm\n   :pass: forward",
        "This operation may behave nondeterministically when given ROCm tensors.",
    ),
    "MPS, backward": (
        ":backend: MPS\n   :pass: backward",
        "This operation may produce nondeterministic gradients when given MPS tensors.",
    ),
    "XLA, both passes": (
        ":backend: XLA",
        (
            "This operation may behave nondeterministically and produce nondeterministic "
            "gradients when given XLA tensors."
        ),
    ),
}


#: What setting torch.backends.cudnn.deterministic does for cuDNN and MIOpen.
ALGORITHM_ADVICE = (
    "this operator may select a nondeterministic algorithm to increase performance. If "
    "this is undesirable, you can try to make the operation deterministic (potentially at "
    "a performance cost) by setting torch.backends.cudnn.deterministic = True."
)


@pytest.mark.parametrize(
    ("wording", "sentence"),
    [
        ("pytorch-1.4", "In some circumstances when using the ROCm backend with MIOpen, "),
        (
            "pytorch-2",
            "In some circumstances when given tensors on a ROCm device and using MIOpen, ",
        ),
    ],
)
def test_miopen_is_worded_as_cudnn_its_cuda_counterpart(build_page, wording, sentence):
    app = build_page(
        ".. nondeterministic::\n   :backend: miopen\n", confoverrides={"reprodocs_wording": wording}
    )
    assert app.warning.getvalue() == ""
    (note,) = notes_in(parse_html(app.outdir / "index.html"))
    assert note_wording(note).startswith(sentence + ALGORITHM_ADVICE + " ")


@pytest.mark.parametrize(("options", "sentence"), OTHER_NOTES.values(), ids=OTHER_NOTES.keys())
def test_pytorch_2_set_words_other_backends_in_the_same_voice(build_page, options, sentence):
    app = build_page(
        f".. nondeterministic::\n   {options}\n   :alternative: ``torch.sort`` first\n",
        confoverrides={"reprodocs_wording": "pytorch-2"},
    )
    assert app.warning.getvalue() == ""
    (note,) = notes_in(parse_html(app.outdir / "index.html"))
    assert note_wording(note) == (
        f"{sentence} See Reproducibility for more information. "
        "A deterministic alternative is torch.sort first."
    )
    assert note.find("a")["href"] == "notes/randomness.html"


def test_pytorch_2_set_in_zh_cn(build_notes):
    app = build_notes(reprodocs_wording="pytorch-2", language="zh_CN")
    assert app.warning.getvalue() == ""
    note = notes_in(parse_html(app.outdir / "index.html"))[0]
    assert note_wording(note) == (
        "当输入张量位于 CUDA 设备上时，该操作可能产生非确定性的梯度。"
        "更多信息请参阅 Reproducibility。"
    )
    assert note.find("a")["href"] == "notes/randomness.html"
    cudnn = parse_html(app.outdir / "api.html").find(string=lambda s: "CuDNN" in s)
    assert cudnn.startswith("在某些情况下，当输入张量位于 CUDA 设备上并使用 CuDNN 时")


@pytest.mark.parametrize(
    ("lines", "joined"),
    [
        # Two Chinese sentences: one line, no space between them.
        (["行为。", "背景信息请参阅 :doc:`x` 说明。"], ["行为。背景信息请参阅 :doc:`x` 说明。"]),
        (["  行为。", "  背景。"], ["  行为。背景。"]),
        (["梯度。 更多信息？  请参阅 :doc:`x`。"], ["梯度。更多信息？请参阅 :doc:`x`。"]),
        # English, Korean (spaces between words, "." ends), a Chinese sentence
        # after an English one or before markup: apart.
        (["Off.", "Please see."], ["Off.", "Please see."]),
        (["See ``True``", "背景。"], ["See ``True``", "背景。"]),
        (["비결정적 동작.", "참조"], ["비결정적 동작.", "참조"]),
        (["梯度。 :doc:`x`"], ["梯度。 :doc:`x`"]),
        # A definition list (an indented line after its term) is structure.
        (["术语", "   定义。"], ["术语", "   定义。"]),
        (["行为。", "", "背景。"], ["行为。", "", "背景。"]),
    ],
)
def test_wide_sentences_are_joined_without_a_space(lines, joined):
    assert join_wide_sentences(lines) == joined


def test_project_note_template_wins_over_the_set(make_app, rootdir, tmp_path):
    # The override root's own reprodocs/note.rst.
    app = make_app(
        "html",
        srcdir=rootdir / "test-override",
        builddir=tmp_path / "build",
        freshenv=True,
        confoverrides={"reprodocs_wording": "pytorch-2"},
    )
    app.build()
    (note,) = notes_in(parse_html(app.outdir / "index.html"))
    assert note_wording(note) == "Our own wording on CUDA (backward), see Reproducibility."


def test_a_project_can_add_a_set(make_app, tmp_path):
    srcdir = write_page_project(tmp_path / "src", ".. cuda-deterministic::\n")
    (srcdir / "_templates" / "reprodocs" / "wording").mkdir(parents=True)
    (srcdir / "_templates" / "reprodocs" / "wording" / "terse.rst").write_text(
        "Nondeterministic on {{ backend }} ({{ affected_pass }}): {{ reproducibility }}.\n"
    )
    with (srcdir / "conf.py").open("a") as conf:
        conf.write('templates_path = ["_templates"]\nreprodocs_wording = "terse"\n')
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    assert app.warning.getvalue() == ""
    (note,) = notes_in(parse_html(app.outdir / "index.html"))
    assert note_wording(note) == "Nondeterministic on CUDA (forward): Reproducibility."


def test_unknown_set_is_a_warning_at_its_line_in_conf_py(make_app, tmp_path):
    srcdir = write_page_project(tmp_path / "src", ".. cuda-deterministic::\n")
    with (srcdir / "conf.py").open("a") as conf:
        conf.write('project = "Sets"\nreprodocs_wording = "pytorch-3"\n')
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    warnings = strip_colors(app.warning.getvalue())
    assert (
        f"{srcdir / 'conf.py'}:3: WARNING: reprodocs_wording: there is no wording set "
        "'pytorch-3' (the sets are pytorch-1.4, pytorch-2); using 'pytorch-1.4'"
    ) in warnings
    assert warnings.count("WARNING") == 1
    # The build went on, with the default set.
    (note,) = notes_in(parse_html(app.outdir / "index.html"))
    assert note_wording(note).startswith("When using the CUDA backend")


def test_unknown_set_fails_a_build_with_W_without_traceback(build_page, tmp_path, capsys):
    build_page("")  # writes the project
    srcdir = tmp_path / "src"
    unknown = ["-D", "reprodocs_wording=pytorch-3", "-b", "html", str(srcdir)]
    assert build_main(["-q", *unknown, str(tmp_path / "ok")]) == 0
    assert build_main(["-q", "-W", *unknown, str(tmp_path / "w")]) != 0
    stderr = strip_colors(capsys.readouterr().err)
    assert "WARNING: reprodocs_wording: there is no wording set 'pytorch-3'" in stderr
    assert "Traceback" not in stderr


# What deterministic mode does, and when, in both sets


#: (options, the sentence pytorch-1.4 and pytorch-2 add, its zh_CN)
SENTENCES = {
    "raises, when": (
        ":deterministic-algorithms: raises\n   :when: ``accumulate=True`` and called on a CUDA tensor",
        (
            "When accumulate=True and called on a CUDA tensor, this operation will throw a "
            "RuntimeError if torch.use_deterministic_algorithms(True) is set."
        ),
        (
            "当 accumulate=True and called on a CUDA tensor 时，如果设置了 "
            "torch.use_deterministic_algorithms(True)，该操作将抛出 RuntimeError。"
        ),
    ),
    "raises": (
        ":deterministic-algorithms: raises",
        (
            "If torch.use_deterministic_algorithms(True) is set, this operation will throw a "
            "RuntimeError when called."
        ),
        "如果设置了 torch.use_deterministic_algorithms(True)，调用该操作时将抛出 RuntimeError。",
    ),
    "deterministic, when": (
        ":deterministic-algorithms: Deterministic\n   :when: called on a CUDA tensor",
        (
            "When called on a CUDA tensor, this operation will act deterministically if "
            "torch.use_deterministic_algorithms(True) is set."
        ),
        (
            "当 called on a CUDA tensor 时，如果设置了 torch.use_deterministic_algorithms(True)，"
            "该操作将以确定性方式运行。"
        ),
    ),
    "deterministic": (
        ":deterministic-algorithms: deterministic",
        (
            "If torch.use_deterministic_algorithms(True) is set, this operation will act "
            "deterministically."
        ),
        "如果设置了 torch.use_deterministic_algorithms(True)，该操作将以确定性方式运行。",
    ),
    "when": (
        ":when: ``mode='max'``",
        "This is the case when mode='max'.",
        "这种情况发生在 mode='max' 时。",
    ),
}

#: The sentences of a CUDA forward note before and after the added one.
AROUND = {
    "pytorch-1.4": (
        (
            "When using the CUDA backend, this operation may induce nondeterministic behaviour "
            "that is not easily switched off."
        ),
        "Please see the notes on Reproducibility for background.",
    ),
    "pytorch-2": (
        "This operation may behave nondeterministically when given tensors on a CUDA device.",
        "See Reproducibility for more information.",
    ),
    "pytorch-1.4 zh_CN": (
        "使用 CUDA 后端时，该操作可能产生不易关闭的非确定性行为。",
        "背景信息请参阅 Reproducibility 说明。",
    ),
    "pytorch-2 zh_CN": (
        "当输入张量位于 CUDA 设备上时，该操作的行为可能是非确定性的。",
        "更多信息请参阅 Reproducibility。",
    ),
}


@pytest.mark.parametrize("wording_set", ["pytorch-1.4", "pytorch-2"])
@pytest.mark.parametrize(("options", "sentence", "zh_cn"), SENTENCES.values(), ids=SENTENCES.keys())
@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_note_says_it_in_both_sets(build_page, wording_set, options, sentence, zh_cn, language):
    app = build_page(
        f".. cuda-deterministic::\n   {options}\n",
        confoverrides={"reprodocs_wording": wording_set, "language": language, "nitpicky": True},
    )
    assert app.warning.getvalue() == ""
    (note,) = notes_in(parse_html(app.outdir / "index.html"))
    key = wording_set if language == "en" else f"{wording_set} zh_CN"
    before, after = AROUND[key]
    if language == "en":
        assert note_wording(note) == f"{before} {sentence} {after}"
    else:  # Chinese sentences take no space between them
        assert note_wording(note) == before + zh_cn + after
    # PyTorch's words: a RuntimeError is Python's class (resolved quietly, as
    # a built-in), the switch a literal.
    if "RuntimeError" in sentence:
        assert note.find("code", string="RuntimeError")["class"][:3] == ["xref", "py", "py-class"]
    if "use_deterministic_algorithms" in sentence:
        literal = note.find("code", string=lambda s: s and "use_deterministic" in s)
        assert "literal" in literal["class"]


# A wording per note


MIXED = (
    ".. py:function:: torch.bincount(input)\n\n"
    "   .. cuda-deterministic::\n\n"
    ".. py:function:: torch.histc(input)\n\n"
    "   .. cuda-deterministic::\n"
    "      :wording: pytorch-1.4\n\n"
    ".. py:function:: torch.cumsum(input)\n\n"
    "   .. cuda-deterministic::\n"
    "      :wording: pytorch-2\n"
)


@pytest.mark.parametrize("site", ["pytorch-1.4", "pytorch-2"])
def test_each_note_keeps_its_wording_on_a_mixed_site(build_page, site):
    app = build_page(MIXED, confoverrides={"reprodocs_wording": site})
    assert app.warning.getvalue() == ""
    bincount, histc, cumsum = (
        note_wording(note) for note in notes_in(parse_html(app.outdir / "index.html"))
    )
    assert histc == " ".join(AROUND["pytorch-1.4"][:1] + AROUND["pytorch-1.4"][1:])
    assert cumsum == " ".join(AROUND["pytorch-2"])
    assert bincount == " ".join(AROUND[site])
    assert {note.operation: note.wording for note in app.env.get_domain("reprodocs").notes()} == {
        "torch.bincount": "",
        "torch.histc": "pytorch-1.4",
        "torch.cumsum": "pytorch-2",
    }


def test_a_notes_wording_wins_over_the_projects_note_template(make_app, tmp_path):
    srcdir = write_page_project(tmp_path / "src", MIXED)
    (srcdir / "_templates" / "reprodocs").mkdir(parents=True)
    (srcdir / "_templates" / "reprodocs" / "note.rst").write_text("Ours on {{ backend }}.\n")
    with (srcdir / "conf.py").open("a") as conf:
        conf.write('templates_path = ["_templates"]\n')
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    assert app.warning.getvalue() == ""
    bincount, histc, cumsum = (
        note_wording(note) for note in notes_in(parse_html(app.outdir / "index.html"))
    )
    assert bincount == "Ours on CUDA."
    assert histc == " ".join(AROUND["pytorch-1.4"])
    assert cumsum == " ".join(AROUND["pytorch-2"])


def test_editing_a_set_a_note_names_rewords_it(make_app, tmp_path):
    # The site's set is pytorch-1.4; one note names pytorch-2, which the
    # project replaces: editing that template re-reads the noted page.
    srcdir = write_page_project(tmp_path / "src", MIXED)
    sets = srcdir / "_templates" / "reprodocs" / "wording"
    sets.mkdir(parents=True)
    (sets / "pytorch-2.rst").write_text("Version one on {{ backend }}.\n")
    with (srcdir / "conf.py").open("a") as conf:
        conf.write('templates_path = ["_templates"]\n')
    first = make_app("html", srcdir=srcdir)
    first.build()
    assert (
        note_wording(notes_in(parse_html(first.outdir / "index.html"))[2]) == "Version one on CUDA."
    )
    first.cleanup()
    (sets / "pytorch-2.rst").write_text("Version two on {{ backend }}.\n")
    again = make_app("html", srcdir=srcdir)
    again.build()
    assert again.warning.getvalue() == ""
    bincount, _, cumsum = notes_in(parse_html(again.outdir / "index.html"))
    assert note_wording(cumsum) == "Version two on CUDA."
    assert note_wording(bincount).startswith("When using the CUDA backend")
