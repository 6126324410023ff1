"""check-alerts' ties: the alert each ``test_nondeterministic_alert_*``
test expects. The alert names are torch's (test/test_torch.py); the tests
around them are written in its shape."""

from __future__ import annotations

import pytest

from reprodocs.check_alerts.ties import Tie, file_ties

TESTS = """\
class TestTorchDeviceType(TestCase):
    @skipIfMps
    def test_nondeterministic_alert_AvgPool3d(self, device):
        module = torch.nn.AvgPool3d(3)
        res = module(torch.randn(2, 3, 3, 3, requires_grad=True, device=device))
        grad = torch.ones_like(res)

        self.check_nondeterministic_alert(
            lambda: res.backward(grad, retain_graph=True),
            'avg_pool3d_backward_cuda',
            torch.device(device).type == 'cuda')

    def test_nondeterministic_alert_EmbeddingBag_max(self, device):
        self.check_nondeterministic_alert(
            lambda: res.backward(grad, retain_graph=True),
            caller_name="embedding_bag_backward_cuda_max")

    def test_nondeterministic_alert_cumsum(self, device, dtype):
        for op_call in [torch.Tensor.cumsum, torch.cumsum]:
            self.check_nondeterministic_alert(lambda: op_call(input, 0), 'cumsum_cuda_kernel')

    def test_nondeterministic_alert_MaxUnpool3d(self, device, dtype):
        for dim in (1, 2, 3):
            self.check_nondeterministic_alert(lambda: module(input), f"max_unpooling{dim}d_forward_out")

    def test_nondeterministic_alert_AdaptiveAvgPool2d(self, device):
        self.check_nondeterministic_alert(
            lambda: res.backward(grad, retain_graph=True),
            "adaptive_avg_pool2d_backward_" + torch.device(device).type,
            torch.device(device).type == "cuda" or torch.device(device).type == "xpu",
        )

    def test_nondeterministic_alert_put(self, device):
        name = "put_"
        self.check_nondeterministic_alert(lambda: a.put_(indices, values), name)

    def test_deterministic_interpolate_bilinear(self, device):
        self.check_nondeterministic_alert(lambda: res.backward(grad), 'not_a_tie')
"""


def test_each_check_of_an_alert_test_is_a_tie():
    ties = file_ties(TESTS.encode(), "test_torch.py")
    assert ties == [
        Tie("test_nondeterministic_alert_AvgPool3d", 8, "avg_pool3d_backward_cuda"),
        Tie("test_nondeterministic_alert_EmbeddingBag_max", 14, "embedding_bag_backward_cuda_max"),
        Tie("test_nondeterministic_alert_cumsum", 20, "cumsum_cuda_kernel"),
        Tie("test_nondeterministic_alert_MaxUnpool3d", 24, "max_unpooling*d_forward_out", True),
        Tie(
            "test_nondeterministic_alert_AdaptiveAvgPool2d",
            27,
            "adaptive_avg_pool2d_backward_*",
            True,
        ),
        Tie("test_nondeterministic_alert_put", 35, None, text="name"),
    ]
    assert [tie.operation for tie in ties[:2]] == ["AvgPool3d", "EmbeddingBag_max"]


@pytest.mark.parametrize(
    ("argument", "alert", "pattern"),
    [
        ("'cumsum_cuda_kernel'", "cumsum_cuda_kernel", False),
        ('f"median {torch.device(device).type.upper()} with indices output"',
         "median * with indices output", True),
        ('"upsample_" + mode + "_backward"', "upsample_*_backward", True),
        ('prefix + "_backward"', "*_backward", True),
        ("name", None, False),
        ("a + b", None, False),
        ("3", None, False),
    ],
)  # fmt: skip
def test_names_built_of_literals_are_read_as_patterns(argument, alert, pattern):
    source = f"def test_nondeterministic_alert_x(self):\n    self.check_nondeterministic_alert(f, {argument})\n"
    (tie,) = file_ties(source.encode(), "test.py")
    assert (tie.alert, tie.pattern) == (alert, pattern)
    assert tie.text == ("" if alert else argument)


def test_a_file_without_alert_tests_is_not_parsed():
    assert file_ties(b"def test_other(): (((\n", "test_nn.py") == []


def test_a_file_that_is_not_python_raises_syntax_error():
    with pytest.raises(SyntaxError):
        file_ties(b"def test_nondeterministic_alert_x(:\n", "test_broken.py")


def test_a_test_file_too_deep_for_python_s_parser_is_a_value_error():
    """Python's parser raises RecursionError (a traceback of check-alerts,
    with nothing on standard output): a ValueError, as branches says."""
    terms = " + ".join(["1"] * 20000)
    with pytest.raises(ValueError, match="too deeply nested for Python's parser"):
        file_ties(f"def test_nondeterministic_alert_x(self):\n    x = {terms}\n".encode(), "t.py")
