"""Wording sets: PyTorch 1.4's (the default) and PyTorch 2.x's, translated,
chosen by ``reprodocs_wording``; a name that is no set is a located warning."""

from __future__ import annotations

import pytest
from sphinx.cmd.build import build_main
from sphinx.util.console import strip_colors

from conftest import notes_in, parse_html, write_page_project
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


def wording_of(note) -> str:
    """The note's first paragraph after its title, as a reader sees it."""
    return " ".join(note.select("p")[1].get_text().split())


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
    assert wording_of(note).startswith(sentence + ALGORITHM_ADVICE + " ")


@pytest.mark.parametrize(("options", "sentence"), OTHER_NOTES.values(), ids=OTHER_NOTES.keys())
def test_pytorch_2_set_words_other_backends_in_the_same_voice(build_page, options, sentence):
    app = build_page(
        f".. nondeterministic::\n   {options}\n   :alternative: ``torch.sort`` first\n",
        confoverrides={"reprodocs_wording": "pytorch-2"},
    )
    assert app.warning.getvalue() == ""
    (note,) = notes_in(parse_html(app.outdir / "index.html"))
    assert wording_of(note) == (
        f"{sentence} See Reproducibility for more information. "
        "A deterministic alternative is torch.sort first."
    )
    assert note.find("a")["href"] == "notes/randomness.html"


def test_pytorch_2_set_in_zh_cn(build_notes):
    app = build_notes(reprodocs_wording="pytorch-2", language="zh_CN")
    assert app.warning.getvalue() == ""
    note = notes_in(parse_html(app.outdir / "index.html"))[0]
    assert wording_of(note) == (
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
    assert wording_of(note) == "Our own wording on CUDA (backward), see Reproducibility."


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
    assert wording_of(note) == "Nondeterministic on CUDA (forward): Reproducibility."


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
    assert wording_of(note).startswith("When using the CUDA backend")


def test_unknown_set_fails_a_build_with_W_without_traceback(build_page, tmp_path, capsys):
    build_page("")  # writes the project
    srcdir = tmp_path / "src"
    unknown = ["-D", "reprodocs_wording=pytorch-3", "-b", "html", str(srcdir)]
    assert build_main(["-q", *unknown, str(tmp_path / "ok")]) == 0
    assert build_main(["-q", "-W", *unknown, str(tmp_path / "w")]) != 0
    stderr = strip_colors(capsys.readouterr().err)
    assert "WARNING: reprodocs_wording: there is no wording set 'pytorch-3'" in stderr
    assert "Traceback" not in stderr
