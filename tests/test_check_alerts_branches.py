"""The switches' sites in Python sources, in the shapes of Megatron-LM's
(``megatron/core/transformer/moe/moe_utils.py``,
``megatron/core/ssm/gated_delta_net/gdn.py``), and which entry names cover
a site."""

from __future__ import annotations

import textwrap

import pytest

from reprodocs.check_alerts.branches import (
    ASSERT,
    BRANCH,
    VALUE,
    Site,
    covers,
    file_sites,
    module_parts,
)
from reprodocs.check_alerts.patterns import switch

SWITCHES = tuple(
    s
    for s in map(
        switch, ["torch.are_deterministic_algorithms_enabled()", "config.deterministic_mode"]
    )
    if s is not None
)

SOURCE = '''\
"""Uses torch.are_deterministic_algorithms_enabled() in its docstring: no site."""
# if config.deterministic_mode: a comment, no site
DETERMINISTIC = torch.are_deterministic_algorithms_enabled()


def unpermute(tokens, probs):
    if torch.are_deterministic_algorithms_enabled():
        tokens.index_add_(0, probs, tokens)
    elif torch.are_deterministic_algorithms_enabled(strict=True):  # an argument: no site
        pass
    return "torch.are_deterministic_algorithms_enabled()"  # a string: no site


class GatedDeltaNet:
    def _setup(self):
        self.use_fla = not self.config.deterministic_mode and fla is not None
        self.config.deterministic_mode = True  # assigned: no site

    def forward(self, x):
        assert not (packed and self.config.deterministic_mode), "no packed path"
        y = conv1d(x) if self.config.deterministic_mode else fla_conv1d(x)
        while config.deterministic_mode:
            break
        kept = [t for t in x if config.deterministic_mode]
        match x:
            case _ if config.deterministic_mode:
                pass
        model_config.deterministic_mode  # another name: no site
        self.model_config.deterministic_mode
        return check(config.deterministic_mode)

        def inner():
            return torch.are_deterministic_algorithms_enabled()
'''


def test_each_site_with_its_kind_and_object():
    found = file_sites(SOURCE.encode(), SWITCHES)
    torch_switch, config_switch = (s.text for s in SWITCHES)
    assert found == [
        Site(3, torch_switch, VALUE, ""),
        Site(7, torch_switch, BRANCH, "unpermute"),
        Site(16, config_switch, VALUE, "GatedDeltaNet._setup"),  # assigned
        Site(20, config_switch, ASSERT, "GatedDeltaNet.forward"),
        Site(21, config_switch, BRANCH, "GatedDeltaNet.forward"),
        Site(22, config_switch, BRANCH, "GatedDeltaNet.forward"),
        Site(24, config_switch, BRANCH, "GatedDeltaNet.forward"),
        Site(26, config_switch, BRANCH, "GatedDeltaNet.forward"),
        Site(30, config_switch, VALUE, "GatedDeltaNet.forward"),
        Site(33, torch_switch, VALUE, "GatedDeltaNet.forward.inner"),
    ]


def test_a_file_naming_no_switch_is_not_parsed():
    assert file_sites(b"def broken(:\n", SWITCHES) == []
    with pytest.raises(SyntaxError):
        file_sites(b"def broken(:\n    config.deterministic_mode\n", SWITCHES)


def test_a_long_expression_is_walked_without_recursion():
    """2,000 terms nest deeper than Python's recursion limit (1,000), which
    a recursive walk would exceed; 20,000 are too deep for Python's own
    parser (3.11's gives up at 3,000, 3.13's between 3,000 and 10,000),
    which is said so."""
    terms = lambda count: " + ".join(["config.deterministic_mode"] * count)
    assert len(file_sites(f"x = {terms(2000)}\n".encode(), SWITCHES)) == 2000
    with pytest.raises(ValueError, match="too deeply nested"):
        file_sites(f"x = {terms(20000)}\n".encode(), SWITCHES)


def test_a_decorator_or_default_is_read_where_the_object_is_defined():
    source = textwrap.dedent("""\
        class Mixer:
            def forward(self, x=config.deterministic_mode):
                pass
    """)
    [site] = file_sites(source.encode(), SWITCHES)
    assert site.scope == "Mixer"


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("megatron/core/ssm/causal_conv1d.py", ("megatron", "core", "ssm", "causal_conv1d")),
        ("megatron/core/ssm/gated_delta_net/__init__.py", ("megatron", "core", "ssm",
                                                           "gated_delta_net")),
    ],
)  # fmt: skip
def test_a_path_as_a_module(path, expected):
    assert module_parts(path) == expected


MODULE = ("tmp", "megatron", "megatron", "core", "transformer", "moe", "moe_utils")


@pytest.mark.parametrize(
    ("name", "scope", "expected"),
    [
        ("megatron.core.transformer.moe.moe_utils.unpermute", ("unpermute",), True),
        ("moe_utils.unpermute", ("unpermute",), True),
        ("megatron.core.transformer.moe.moe_utils", ("unpermute",), True),  # the module
        ("megatron.core.transformer.moe.moe_utils.Router", ("Router", "forward"), True),
        ("megatron.core.transformer.moe.moe_utils.Router.forward", ("Router",), False),
        ("megatron.core.transformer.moe.moe_utils.permute", ("unpermute",), False),
        ("megatron.core.transformer.moe.other.unpermute", ("unpermute",), False),
        ("unpermute", ("unpermute",), False),  # no module
        ("megatron.core.transformer", ("unpermute",), True),  # a package holding it
        ("megatron.core.transformer.moe.unpermute", ("unpermute",), False),
        ("torch.Tensor.index_add_", ("unpermute",), False),
    ],
)
def test_an_entry_covers_its_object_and_what_is_in_it(name, scope, expected):
    assert covers(name, MODULE, scope) is expected
