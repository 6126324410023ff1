"""The demo site: PyTorch 1.4's notes on the functions that carried them, and
PyTorch 2.x's lists of what torch.use_deterministic_algorithms(True) does,
generated from those notes."""

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


#: The introductions of use_deterministic_algorithms' two lists.
INTRODUCTIONS = {
    "deterministic": "will act deterministically when mode=True:",
    "raises": "will throw a RuntimeError when mode=True:",
}


def list_items(bullet_list) -> list[str]:
    return [" ".join(item.get_text().split()) for item in bullet_list.find_all("li")]


def test_reproducibility_page_has_pytorchs_two_lists(demo_html):
    soup = parse_html(demo_html / "notes" / "randomness.html")
    lists = soup.select("ul.nondeterministic-ops")
    assert len(lists) == 2
    operations = exported_index(demo_html)["operations"]
    for bullet_list, effect in zip(lists, INTRODUCTIONS, strict=True):
        introduction = " ".join(bullet_list.find_previous_sibling("p").get_text().split())
        assert introduction.endswith(INTRODUCTIONS[effect])
        # One item per note with that effect (and its own condition), linked
        # to where the operation is documented.
        noted = [op for op in operations if op["deterministic_algorithms"] == effect]
        assert noted
        items = bullet_list.find_all("li")
        assert len(items) == len(noted)
        for item, operation in zip(items, noted, strict=True):
            assert item.find("a")["href"] == "../" + operation["uri"]
            assert " when " in " ".join(item.get_text().split())
    # Tensor.put_ carries two notes, one under each condition.
    raises = list_items(lists[1])
    assert raises[:2] == [
        "torch.Tensor.put_() when accumulate=False",
        "torch.Tensor.put_() when accumulate=True and called on a CUDA tensor",
    ]
    assert "torch.nn.Conv2d when called on CUDA tensor" in list_items(lists[0])


def test_use_deterministic_algorithms_docstring_holds_the_same_lists(demo_html):
    soup = parse_html(demo_html / "torch.html")
    description = soup.find(id="torch.use_deterministic_algorithms").find_parent("dl")
    in_docstring = [list_items(ul) for ul in description.select("ul.nondeterministic-ops")]
    reproducibility = parse_html(demo_html / "notes" / "randomness.html")
    assert in_docstring == [
        list_items(ul) for ul in reproducibility.select("ul.nondeterministic-ops")
    ]


def test_a_note_keeps_its_own_wording(demo_html):
    # The site is worded as PyTorch 1.4; Tensor.put_'s notes, PyTorch 2.x's.
    soup = parse_html(demo_html / "tensors.html")
    description = soup.find(id="torch.Tensor.put_").find_parent("dl")
    for note in notes_in(description):
        assert text_of(note.select("p")[1]).startswith(
            "This operation may behave nondeterministically when given tensors on a CUDA device."
        )
    other = soup.find(id="torch.Tensor.scatter_add_").find_parent("dl")
    assert text_of(notes_in(other)[0].select("p")[1]).startswith("When using the CUDA backend")
