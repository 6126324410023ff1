"""reprodocs.migrate.includes: PyTorch 1.4's includes of the note files
rewritten, and the migrated docs, built, say what the files said."""

from __future__ import annotations

import migrate_support
from migrate_support import REPRODUCIBILITY_LINK, run

# The fixtures these tests take, by their names.
build_docs = migrate_support.build_docs
build_html = migrate_support.build_html
tree = migrate_support.tree


BACKWARD_1_4 = (
    "When using the CUDA backend, this operation may induce nondeterministic behaviour in "
    "its backward pass that is not easily switched off. Please see the notes on "
    "Reproducibility for background."
)


FORWARD_1_4 = (
    "When using the CUDA backend, this operation may induce nondeterministic behaviour "
    "that is not easily switched off. Please see the notes on Reproducibility for background."
)


CUDNN_1_4 = (
    "In some circumstances when using the CUDA backend with CuDNN, this operator may select "
    "a nondeterministic algorithm to increase performance. If this is undesirable, you can "
    "try to make the operation deterministic (potentially at a performance cost) by setting "
    "torch.backends.cudnn.deterministic = True."
)


#: The sentence (and link) reprodocs' cuDNN note has and PyTorch 1.4's file had not.
SEE_ALSO_1_4 = " Please see the notes on Reproducibility for background."


def test_migrated_1_4_notes_render_the_included_files(tree, capsys, build_docs):
    original = tree("pytorch-1.4", to="original")
    migrated = tree("pytorch-1.4", to="migrated")
    run(capsys, "--write", str(migrated))

    before, prose_before = build_docs(original)
    after, prose_after = build_docs(migrated)

    assert prose_after == prose_before

    backward = (BACKWARD_1_4, REPRODUCIBILITY_LINK)
    forward = (FORWARD_1_4, REPRODUCIBILITY_LINK)
    assert before == {
        "torch.bincount": [forward],
        "torch.Tensor.index_add_": [forward],
        "torch.nn.functional.embedding_bag": [backward],
        "torch.nn.functional.ctc_loss": [(CUDNN_1_4, []), backward],
        "torch.nn.functional.pad": [backward],
    }
    # The same notes, but for the cuDNN one's added link to Reproducibility.
    cudnn = (CUDNN_1_4 + SEE_ALSO_1_4, REPRODUCIBILITY_LINK)
    assert after == {**before, "torch.nn.functional.ctc_loss": [cudnn, backward]}
