"""check-alerts' suggestions for migrate: each entry's alerts from the tests
tied to it, or from the one call site that is its operation's, and why not.
The fixtures are in the shapes of torch's test/test_torch.py, of
torch-xpu-ops' test/xpu/test_torch_xpu.py and of their kernels' calls."""

from __future__ import annotations

import textwrap

from reprodocs.check_alerts.compare import Located
from reprodocs.check_alerts.registry import Entry
from reprodocs.check_alerts.scan import file_alert_calls
from reprodocs.check_alerts.suggest import Suggestion, suggest_alerts
from reprodocs.check_alerts.ties import file_ties

TEST_TORCH = """
class TestTorchDeviceType(TestCase):
    def test_nondeterministic_alert_AvgPool3d(self, device):
        module = torch.nn.AvgPool3d(3)
        res = module(torch.randn(2, 3, 3, 3, requires_grad=True, device=device))
        self.check_nondeterministic_alert(
            lambda: res.backward(torch.ones_like(res), retain_graph=True),
            'avg_pool3d_backward_cuda',
            torch.device(device).type == 'cuda')

    def test_nondeterministic_alert_ReplicationPad1d(self, device):
        self.check_nondeterministic_alert(
            lambda: res.backward(grad, retain_graph=True),
            'replication_pad1d_backward_cuda',
            torch.device(device).type == 'cuda')

    def test_nondeterministic_alert_interpolate_linear(self, device):
        self.check_nondeterministic_alert(
            lambda: res.backward(grad),
            'upsample_linear1d_backward_out_cuda',
            torch.device(device).type == 'cuda')

    def test_nondeterministic_alert_interpolate_bilinear(self, device):
        self.check_nondeterministic_alert(
            lambda: res.backward(grad),
            'upsample_bilinear2d_backward_out_cuda',
            torch.device(device).type == 'cuda')

    def test_nondeterministic_alert_put(self, device):
        for op_call in [torch.Tensor.put, torch.Tensor.put_]:
            self.check_nondeterministic_alert(
                lambda: op_call(a, indices, values, accumulate=False),
                'put_')

    def test_nondeterministic_alert_put_accumulate(self, device):
        for op_call in [torch.Tensor.put, torch.Tensor.put_]:
            self.check_nondeterministic_alert(
                lambda: op_call(a, indices, values, accumulate=True),
                'put_',
                torch.device(device).type == 'cuda')
"""

TEST_TORCH_XPU = """
class TestTorchDeviceType(TestCase):
    def test_nondeterministic_alert_AdaptiveAvgPool2d(self, device):
        self.check_nondeterministic_alert(
            lambda: res.backward(grad, retain_graph=True),
            "adaptive_avg_pool2d_backward_" + torch.device(device).type,
            True,
        )

    def test_nondeterministic_alert_MaxPool3d(self, device):
        self.check_nondeterministic_alert(
            lambda: res.backward(grad, retain_graph=True),
            "max_pool3d_with_indices_backward_" + torch.device(device).type,
            True,
        )

    def test_nondeterministic_alert_FractionalMaxPool2d(self, device):
        self.check_nondeterministic_alert(
            lambda: res.backward(grad, retain_graph=True),
            "fractional_max_pool2d_backward_" + torch.device(device).type,
            True,
        )

    def test_nondeterministic_alert_NLLLoss(self, device):
        device_secific_alerts = {"cuda": "nll_loss2d_forward_out_cuda_template"}
        self.check_nondeterministic_alert(
            lambda: module(input, target),
            device_secific_alerts[torch.device(device).type],
            True,
        )
"""

KERNELS = {
    "AdaptiveAveragePooling2d.cpp": 'globalContext().alertNotDeterministic("adaptive_avg_pool2d_backward_xpu");',
    "DilatedMaxPool3d.cpp": """
        globalContext().alertNotDeterministic("max_pool3d_with_indices_backward_out_xpu");
        globalContext().alertNotDeterministic("max_pool3d_with_indices_backward_xpu");
    """,
    "ScatterGatherKernels.cpp": """
        void scatter_kernel(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
          // When indices are not unique, the behavior is non-deterministic
          globalContext().alertNotDeterministic("scatter_");
        }
        void scatter_add_kernel(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
          globalContext().alertNotDeterministic("scatter_add_cuda");
        }
        void scatter_reduce_kernel(const Tensor& self, const int64_t dim, const Tensor& index) {
          globalContext().alertNotDeterministic("scatter_reduce_kernel");
        }
        void scatter_gather_kernel(const Tensor& self) {
          globalContext().alertNotDeterministic("scatter_gather_kernel");
        }
    """,
    "Indexing.cpp": """
        globalContext().alertNotDeterministic("index_add_cuda_");
        globalContext().alertNotDeterministic("index_add_xpu");
    """,
}


def ties(source: str = TEST_TORCH, path: str = "test/test_torch.py") -> list[Located]:
    return [Located(path, tie) for tie in file_ties(textwrap.dedent(source).encode(), path)]


def calls(*files: str) -> list[Located]:
    return [
        Located(f"src/{name}", call)
        for name in files
        for call in file_alert_calls(textwrap.dedent(KERNELS[name]).encode(), ".cpp")
    ]


def entry(name: str, mode: str = "raises") -> Entry:
    return Entry(name, mode, f"ops.html#{name}")


def suggest(entries: list[Entry], found_ties=(), found_calls=()) -> list[Suggestion]:
    return suggest_alerts(entries, list(found_ties), list(found_calls))


def test_a_test_tied_to_one_entry_gives_it_the_alert_it_expects():
    [suggestion] = suggest([entry("torch.nn.AvgPool3d")], ties())
    assert suggestion.alerts == ("avg_pool3d_backward_cuda",)
    assert suggestion.reason == (
        "'avg_pool3d_backward_cuda', tied by test_nondeterministic_alert_AvgPool3d"
        " at test/test_torch.py:6"
    )


def test_an_entry_gets_all_its_tests_alerts():
    [suggestion] = suggest([entry("torch.nn.functional.interpolate")], ties())
    assert suggestion.alerts == (
        "upsample_linear1d_backward_out_cuda",
        "upsample_bilinear2d_backward_out_cuda",
    )
    assert "test_nondeterministic_alert_interpolate_bilinear" in suggestion.reason


def test_an_entry_acting_deterministically_gets_the_alert_it_avoids():
    [suggestion] = suggest([entry("torch.nn.ReplicationPad1d", "deterministic")], ties())
    assert suggestion.alerts == ("replication_pad1d_backward_cuda",)


def test_a_test_tied_to_several_entries_of_one_operation_gives_none():
    """torch.Tensor.put_'s three conditions: ``put`` and ``put_accumulate``
    do not say which of them each test is about."""
    entries = [
        entry("torch.Tensor.put_", "deterministic"),
        entry("torch.Tensor.put_"),
        entry("torch.Tensor.put_"),
    ]
    suggestions = suggest(entries, ties(), calls("ScatterGatherKernels.cpp"))
    assert [s.alerts for s in suggestions] == [(), (), ()]
    assert suggestions[0].reason == (
        "several entries of torch.Tensor.put_ share its tests "
        "(test_nondeterministic_alert_put, test_nondeterministic_alert_put_accumulate)"
    )


def test_a_pattern_is_resolved_by_the_one_call_name_it_matches():
    xpu = ties(TEST_TORCH_XPU, "test/xpu/test_torch_xpu.py")
    [suggestion] = suggest(
        [entry("torch.nn.AdaptiveAvgPool2d")], xpu, calls("AdaptiveAveragePooling2d.cpp")
    )
    assert suggestion.alerts == ("adaptive_avg_pool2d_backward_xpu",)


def test_a_pattern_matching_several_calls_gives_none():
    xpu = ties(TEST_TORCH_XPU, "test/xpu/test_torch_xpu.py")
    [suggestion] = suggest([entry("torch.nn.MaxPool3d")], xpu, calls("DilatedMaxPool3d.cpp"))
    assert suggestion.alerts == ()
    assert suggestion.reason == (
        "test_nondeterministic_alert_MaxPool3d at test/xpu/test_torch_xpu.py:11 expects "
        "alerts matching "
        "'max_pool3d_with_indices_backward_*', which several calls raise: "
        "max_pool3d_with_indices_backward_out_xpu, max_pool3d_with_indices_backward_xpu"
    )


def test_a_pattern_matching_no_call_gives_none():
    xpu = ties(TEST_TORCH_XPU, "test/xpu/test_torch_xpu.py")
    [suggestion] = suggest([entry("torch.nn.FractionalMaxPool2d")], xpu, calls("Indexing.cpp"))
    assert suggestion.alerts == ()
    assert "'fractional_max_pool2d_backward_*', which no call raises" in suggestion.reason


def test_a_test_whose_alert_cannot_be_read_gives_none_and_says_so():
    xpu = ties(TEST_TORCH_XPU, "test/xpu/test_torch_xpu.py")
    [suggestion] = suggest([entry("torch.nn.NLLLoss")], xpu)
    assert suggestion.alerts == ()
    assert suggestion.reason == (
        "test_nondeterministic_alert_NLLLoss at test/xpu/test_torch_xpu.py:26 expects an alert "
        "whose name cannot be read: "
        "device_secific_alerts[torch.device(device).type]"
    )


def test_the_tests_that_can_be_read_still_give_their_alerts():
    both = [*ties(), *ties(TEST_TORCH_XPU, "test/xpu/test_torch_xpu.py")]
    [suggestion] = suggest([entry("torch.nn.MaxPool3d")], both, calls("DilatedMaxPool3d.cpp"))
    assert suggestion.alerts == ()  # test_torch.py's fixture has no MaxPool3d test
    entries = [entry("torch.nn.AvgPool3d"), entry("torch.nn.NLLLoss")]
    avg, nll = suggest(entries, both)
    assert avg.alerts == ("avg_pool3d_backward_cuda",)
    assert nll.alerts == ()


def test_the_one_call_of_an_operation_no_test_names_gives_its_alert():
    """``scatter_`` is torch.Tensor.scatter's, ``scatter_add_cuda`` is
    scatter_add_'s (``scatter`` inside ``scatter_add`` aside), and
    ``scatter_gather_kernel`` names two operations, so it is neither's."""
    entries = [
        entry("torch.Tensor.scatter", "deterministic"),
        entry("torch.Tensor.scatter_add_"),
        entry("torch.Tensor.scatter_reduce"),
        entry("torch.gather"),
    ]
    scatter, scatter_add, _, gather = suggest(entries, ties(), calls("ScatterGatherKernels.cpp"))
    assert scatter.alerts == ("scatter_",)
    assert scatter.reason == (
        "raised by the only call naming torch.Tensor.scatter, at src/ScatterGatherKernels.cpp:4"
    )
    assert scatter_add.alerts == ("scatter_add_cuda",)
    assert gather == Suggestion(entries[3], (), "no test or call names torch.gather")


def test_only_the_entries_given_are_told_apart():
    """Without scatter_add_'s, scatter_reduce's and gather's entries, every
    scatter call is plain scatter's: migrate gives all the registry's entries."""
    [scatter] = suggest([entry("torch.Tensor.scatter")], (), calls("ScatterGatherKernels.cpp"))
    assert scatter.alerts == ()
    assert scatter.reason == (
        "no test names torch.Tensor.scatter; several calls name it: "
        "scatter_, scatter_add_cuda, scatter_gather_kernel, scatter_reduce_kernel"
    )


def test_several_calls_of_an_operation_give_none():
    [suggestion] = suggest([entry("torch.index_add", "deterministic")], (), calls("Indexing.cpp"))
    assert suggestion.alerts == ()
    assert suggestion.reason == (
        "no test names torch.index_add; several calls name it: index_add_cuda_, index_add_xpu"
    )


def test_a_call_of_an_operation_with_several_entries_gives_none():
    entries = [
        entry("torch.Tensor.scatter_reduce", "deterministic"),
        entry("torch.Tensor.scatter_reduce"),
    ]
    suggestions = suggest(entries, (), calls("ScatterGatherKernels.cpp"))
    assert [s.alerts for s in suggestions] == [(), ()]
    assert "are of an operation with 2 entries" in suggestions[1].reason


def test_an_entry_no_test_or_call_names_gets_none():
    [suggestion] = suggest(
        [entry("torch.nn.Conv1d", "deterministic")], ties(), calls("Indexing.cpp")
    )
    assert suggestion == Suggestion(
        entry("torch.nn.Conv1d", "deterministic"), (), "no test or call names torch.nn.Conv1d"
    )


def test_suggestions_follow_the_entries_order():
    entries = [entry("torch.nn.ReplicationPad1d"), entry("torch.nn.AvgPool3d"), entry("torch.bmm")]
    assert [s.entry for s in suggest(entries, ties())] == entries
