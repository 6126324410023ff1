"""Where an entry says it lives (``reprodocs.check_alerts.places``): the
places its fields' values name, and each found, missing or outside the
sources scanned."""

from __future__ import annotations

import os

import pytest

from reprodocs.check_alerts.places import Place, entry_places, locate


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (
            ["``megatron/core/transformer/moe/moe_utils.py``"],
            ["megatron/core/transformer/moe/moe_utils.py"],
        ),
        (
            ["``megatron/core/inference/engines/dynamic_engine.py``, ``megatron/rl/rl_utils.py``"],
            ["megatron/core/inference/engines/dynamic_engine.py", "megatron/rl/rl_utils.py"],
        ),
        (["``megatron/core/ssm/gated_delta_net/``"], ["megatron/core/ssm/gated_delta_net/"]),
        (
            ["assertion in ``megatron/core/ssm/gated_delta_net.py``"],
            ["megatron/core/ssm/gated_delta_net.py"],
        ),
        (
            ["rejected by ``--deterministic-mode`` (``megatron/training/determinism.py``)"],
            ["megatron/training/determinism.py"],
        ),
        (["``setup.py``"], ["setup.py"]),
        # Words, code that is no path, paths outside literals: no place.
        (["open gap"], []),
        (["rejected by ``--deterministic-mode``"], []),
        (["``index_put_(accumulate=False)`` row-wise writes", "``NCCL_ALGO=Ring``"], []),
        (["megatron/rl/rl_utils.py, bare"], []),
        (["``/usr/lib/x.py``", "``../up/x.py``", "``https://x.org/a``", "``a b/c``"], []),
        # Each place once, in the order written, from every value.
        (["``a/b.py``", "``c/``, ``a/b.py``"], ["a/b.py", "c/"]),
    ],
)
def test_the_places_of_an_entry_s_values(values, expected):
    assert list(entry_places(values)) == expected


@pytest.fixture
def sources(tmp_path, monkeypatch):
    for name in ("megatron/core/ssm/gated_delta_net/gdn.py", "megatron/rl/rl_utils.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    (tmp_path / "tests").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("root", ["megatron", ".", "megatron/core", "megatron/core/ssm/"])
def test_a_place_is_found_under_a_root_whichever_is_given(sources, root):
    place = locate("megatron/core/ssm/gated_delta_net/", [root])
    assert place == Place(
        "megatron/core/ssm/gated_delta_net/",
        str(sources / "megatron/core/ssm/gated_delta_net"),
        folder=True,
        rooted=True,
    )
    assert place.holds("megatron/core/ssm/gated_delta_net/gdn.py")
    assert not place.holds("megatron/core/ssm/gated_delta_net.py")
    assert not place.holds("megatron/core/ssm/gated_delta_net_other/gdn.py")


def test_a_file_holds_itself_alone(sources):
    place = locate("megatron/rl/rl_utils.py", ["megatron"])
    assert not place.folder and not place.missing
    assert place.holds(os.path.join(sources, "megatron", "rl", "rl_utils.py"))
    assert not place.holds("megatron/rl/other.py")


@pytest.mark.parametrize(
    ("text", "roots", "missing"),
    [
        # A file become a package: under the root, and not there.
        ("megatron/core/ssm/gated_delta_net.py", ["megatron"], True),
        ("megatron/core/ssm/gated_delta_net.py", ["."], True),
        # A folder written as a file, a file as a folder.
        ("megatron/rl/rl_utils.py/", ["megatron"], True),
        # Outside the roots: not known to be missing.
        ("tests/unit_tests/test_x.py", ["megatron"], False),
        ("other/x.py", ["."], False),
        # A file given is no root.
        ("megatron/core/ssm/gated_delta_net.py", ["megatron/rl/rl_utils.py"], False),
    ],
)
def test_a_place_not_found(sources, text, roots, missing):
    place = locate(text, roots)
    assert place.path is None
    assert place.missing is missing
    assert not place.holds("megatron/rl/rl_utils.py")


@pytest.mark.parametrize(
    ("text", "package"),
    [
        ("megatron/core/ssm/gated_delta_net.py", "megatron/core/ssm/gated_delta_net/"),
        ("megatron/core/ssm/mamba_mixer.py", ""),
    ],
)
def test_a_missing_module_s_package(sources, text, package):
    place = locate(text, ["megatron"])
    assert place.missing
    assert place.package == package
