"""The demo site: PyTorch 1.4's notes on the functions that carried them."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import BACKWARD_TEXT, exported_index, notes_in, parse_html, text_of

#: Which functions carried which note in PyTorch 1.4 (shared/reference/README.md).
PYTORCH_1_4 = {
    "cuda-deterministic-backward": {
        f"torch.nn.functional.{name}"
        for name in (
            "embedding_bag", "ctc_loss", "upsample", "interpolate", "upsample_nearest",
            "upsample_bilinear", "grid_sample", "pad",
        )
    },
    "cuda-deterministic": {"torch.Tensor.index_add_", "torch.Tensor.scatter_add_", "torch.bincount"},
    "cudnn-deterministic": {
        *(f"torch.nn.functional.{name}" for name in (
            "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
            "conv_transpose3d", "ctc_loss",
        )),
        *(f"torch.nn.{name}" for name in (
            "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
            "ConvTranspose3d", "CTCLoss",
        )),
    },
}  # fmt: skip


@pytest.fixture(scope="module")
def demo_html(build_demo) -> Path:
    return build_demo()


def test_note_page_matches_the_original(demo_html):
    soup = parse_html(demo_html / "cuda_deterministic_backward.html")
    assert soup.title.get_text() != "<no title>"
    assert "no title" not in soup.find("h1").get_text()
    (note,) = notes_in(soup)
    paragraph = note.select("p")[1]
    assert text_of(paragraph) == BACKWARD_TEXT
    assert paragraph.find("a")["href"] == "notes/randomness.html"


def test_notes_are_on_the_functions_that_carried_them(demo_html):
    operations = exported_index(demo_html)["operations"]
    by_directive = {}
    for operation in operations:
        if operation["name"]:
            by_directive.setdefault(operation["directive"], set()).add(operation["name"])
    assert {d: by_directive.get(d, set()) for d in PYTORCH_1_4} == PYTORCH_1_4
    # Each note sits in its operation's own description on its page.
    for operation in operations:
        page, _, anchor = operation["uri"].partition("#")
        if anchor:
            description = parse_html(demo_html / page).find(id=anchor).find_parent("dl")
            assert notes_in(description), operation


def test_reproducibility_page_lists_every_note(demo_html):
    soup = parse_html(demo_html / "notes" / "randomness.html")
    assert soup.find("h1").get_text().startswith("Reproducibility")
    operations = exported_index(demo_html)["operations"]
    every = soup.select("table.nondeterministic-ops")[-1]
    assert len(every.select("tbody tr")) == len(operations)
