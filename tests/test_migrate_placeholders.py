"""reprodocs.migrate.placeholders: PyTorch 2.x's placeholders rewritten,
and the migrated docs, built, say the 2.x sentences."""

from __future__ import annotations

import migrate_support
from migrate_support import REPRODUCIBILITY_LINK, run
from reprodocs import migrate

# The fixtures these tests take, by their names.
build_docs = migrate_support.build_docs
build_html = migrate_support.build_html
tree = migrate_support.tree


def test_write_mode_rewrites_the_2_x_placeholders(tree, capsys):
    root = tree("pytorch-2")
    status, _, _ = run(capsys, "--write", "--wording", "pytorch-2", str(root))
    assert status == migrate.NOTHING_TO_MIGRATE
    functional = (root / "torch/nn/functional.py").read_text()

    # A note block whose body is the placeholder becomes the directive, at
    # the block's indentation, in both note forms.
    assert (
        """
    See :class:`~torch.nn.CTCLoss` for details.

    .. cudnn-deterministic::
       :runtime-text: {cudnn_reproducibility_note}

    .. cuda-deterministic-backward::
       :runtime-text: {backward_reproducibility_note}

    Args:
"""
        in functional
    )
    assert (
        '''
    r"""Compute grid sample.

    .. cuda-deterministic-backward::
       :runtime-text: {backward_reproducibility_note}

    .. note::
        NaN values in :attr:`grid` would be interpreted as ``-1``.
'''
        in functional
    )
    # A note block right after another one is set apart from it.
    assert (
        """
    Note:
        {depthwise_separable_note}

    .. cudnn-deterministic::
       :runtime-text: {cudnn_reproducibility_note}

    Note:
        ``padding='valid'`` is the same as no padding.
"""
        in functional
    )
    # The calls that format the docstrings are unchanged.
    assert functional.count(".format(**reproducibility_notes)") == 3
    assert "{groups_note}" in functional
    assert "{tf32_note}" in functional


BACKWARD_2 = (
    "This operation may produce nondeterministic gradients when given tensors on a CUDA "
    "device. See Reproducibility for more information."
)


FORWARD_2 = (
    "This operation may behave nondeterministically when given tensors on a CUDA device. "
    "See Reproducibility for more information."
)


CUDNN_2 = (
    "In some circumstances when given tensors on a CUDA device and using CuDNN, this "
    "operator may select a nondeterministic algorithm to increase performance. If this is "
    "undesirable, you can try to make the operation deterministic (potentially at a "
    "performance cost) by setting torch.backends.cudnn.deterministic = True. See "
    "Reproducibility for more information."
)


def test_migrated_2_x_notes_render_the_2_x_sentences(tree, capsys, build_docs):
    original = tree("pytorch-2", to="original")
    migrated = tree("pytorch-2", to="migrated")
    run(capsys, "--write", "--wording", "pytorch-2", str(migrated))

    before, prose_before = build_docs(original)
    after, prose_after = build_docs(migrated, reprodocs_wording="pytorch-2")

    assert prose_after == prose_before
    assert "This operator supports TensorFloat32." in prose_after["torch.nn.functional.conv1d"]

    backward = (BACKWARD_2, REPRODUCIBILITY_LINK)
    cudnn = (CUDNN_2, REPRODUCIBILITY_LINK)
    assert before == {
        "torch.bincount": [backward],
        "torch.Tensor.index_add_": [(FORWARD_2, REPRODUCIBILITY_LINK)],
        "torch.nn.functional.conv1d": [
            cudnn,
            (
                "This operator supports complex data types i.e. complex32, complex64, complex128.",
                [],
            ),
        ],
        "torch.nn.functional.embedding_bag": [backward],
        "torch.nn.functional.ctc_loss": [cudnn, backward],
        "torch.nn.functional.grid_sample": [
            backward,
            ("NaN values in grid would be interpreted as -1.", []),
        ],
        "torch.nn.functional.Conv2d": [
            ("A depthwise convolution when groups == in_channels.", []),
            cudnn,
            ("padding='valid' is the same as no padding.", []),
        ],
    }
    assert after == before


def test_on_a_site_of_another_wording_migrated_notes_keep_their_words(tree, capsys, build_docs):
    # Migrated with the site's wording, PyTorch 1.4's (the default): each
    # 2.x note gets :wording: pytorch-2, and says what it said.
    original = tree("pytorch-2", to="original")
    migrated = tree("pytorch-2", to="migrated")
    run(capsys, "--write", str(migrated))

    before, prose_before = build_docs(original)
    after, prose_after = build_docs(migrated)

    assert (after, prose_after) == (before, prose_before)
    assert BACKWARD_2 in [text for text, _ in after["torch.bincount"]]


def test_a_one_line_note_of_a_placeholder_becomes_the_directive(tmp_path, capsys):
    source = tmp_path / "ops.py"
    source.write_text(
        "def f():\n"
        '    """Summary.\n'
        "\n"
        "    .. note:: {cudnn_reproducibility_note}\n"
        "\n"
        "    .. note:: {backward_reproducibility_note}\n"
        "\n"
        "       The note goes on.\n"
        '    """\n'
    )
    status, _, err = run(capsys, "--write", str(source))

    lines = source.read_text().splitlines()
    assert lines[3:6] == [
        "    .. cudnn-deterministic::",
        "       :wording: pytorch-2",
        "       :runtime-text: {cudnn_reproducibility_note}",
    ]
    assert lines[7] == "    .. note:: {backward_reproducibility_note}"
    assert status == migrate.LEGACY_NOTES_REMAIN
    # The line the note left as is has in the file as written.
    assert err == (
        f"{source}:8: left as is: {{backward_reproducibility_note}} is not a paragraph of its own\n"
    )
