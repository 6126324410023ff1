"""reprodocs.migrate.alerts: ``migrate --alerts-from`` writes each item's
``:alert:`` where the sources tie one to its operation, and says why not
where they do not. The sources are in the shapes of torch's
test/test_torch.py and ATen's kernels; the alert names are torch's."""

from __future__ import annotations

import argparse
from pathlib import Path

import migrate_support
from migrate_support import LISTS, run
from reprodocs import migrate
from reprodocs.migrate.command import add_command

# The fixtures these tests take, by their names.
tree = migrate_support.tree

TEST_TORCH = """\
class TestTorchDeviceType(TestCase):
    def test_nondeterministic_alert_AvgPool3d(self, device):
        self.check_nondeterministic_alert(
            lambda: res.backward(grad), 'avg_pool3d_backward_cuda', torch.device(device).type == 'cuda')

    def test_nondeterministic_alert_put(self, device):
        self.check_nondeterministic_alert(lambda: a.put_(i, v, accumulate=False), 'put_')

    def test_nondeterministic_alert_put_accumulate(self, device):
        self.check_nondeterministic_alert(lambda: a.put_(i, v, accumulate=True), 'put_', True)
"""

SUMMARY_OPS = """\
Tensor _histc_cuda(const Tensor& self, int64_t nbins, const Scalar& min, const Scalar& max) {
  if (self.scalar_type() == ScalarType::Half) {
    TORCH_CHECK(false, "HalfTensor is not supported");
  }
  // See Note [Writing Nondeterministic Operations]
  // Nondeterministic because of atomicAdd usage
  globalContext().alertNotDeterministic("_histc_cuda");
  return _histc_cuda_template(self, nbins, min.to<double>(), max.to<double>());
}
"""


def sources(folder: Path) -> Path:
    """torch's test and one of ATen's kernels, in *folder*."""
    (folder / "test").mkdir(parents=True)
    (folder / "test/test_torch.py").write_text(TEST_TORCH)
    kernels = folder / "aten/src/ATen/native/cuda"
    kernels.mkdir(parents=True)
    (kernels / "SummaryOps.cu").write_text(SUMMARY_OPS)
    return folder


def test_the_alerts_tied_are_written_and_the_others_said(tree, capsys, monkeypatch):
    root = tree(LISTS)
    pytorch = sources(root.parent / "upstream")
    monkeypatch.chdir(root)

    status, _, err = run(capsys, "--write", "--alerts-from", str(pytorch), "torch", "docs")

    assert status == migrate.NOTHING_TO_MIGRATE
    # A test tied to the item's note alone; the only call naming histc.
    assert "      :alert: avg_pool3d_backward_cuda\n" in Path("docs/source/nn.rst").read_text()
    histc = Path("torch/_torch_docs.py").read_text()
    assert "   :op: torch.histc\n" in histc
    assert "   :when: called on a CUDA tensor\n   :alert: _histc_cuda\n" in histc
    test = f"{pytorch}/test/test_torch.py"
    assert (
        f"torch/__init__.py:54: torch.nn.AvgPool3d: :alert: avg_pool3d_backward_cuda "
        f"('avg_pool3d_backward_cuda', tied by test_nondeterministic_alert_AvgPool3d at {test}:3)"
    ) in err.splitlines()
    assert (
        "torch/__init__.py:66: torch.histc: :alert: _histc_cuda (raised by the only call naming "
        f"torch.histc, at {pytorch}/aten/src/ATen/native/cuda/SummaryOps.cu:7)"
    ) in err.splitlines()
    # torch.Tensor.put_'s three items share its tests: none is written.
    shared = (
        "torch.Tensor.put_: no :alert: written: several entries of torch.Tensor.put_ share its "
        "tests (test_nondeterministic_alert_put, test_nondeterministic_alert_put_accumulate)"
    )
    assert sum(line.endswith(shared) for line in err.splitlines()) == 3
    assert (
        "torch/__init__.py:44: torch.Tensor.scatter_add_: no :alert: written: no test or call "
        "names torch.Tensor.scatter_add_"
    ) in err.splitlines()

    # Run again: nothing to write, nothing to say of the items.
    status, out, err = run(capsys, "--write", "--alerts-from", str(pytorch), "torch", "docs")
    assert (status, out) == (migrate.NOTHING_TO_MIGRATE, "")
    assert ":alert:" not in err


def test_a_source_that_cannot_be_read_is_said_and_the_rest_migrated(tree, capsys, monkeypatch):
    root = tree(LISTS)
    monkeypatch.chdir(root)

    status, out, err = run(capsys, "--write", "--alerts-from", "no/such/tests", "torch", "docs")

    assert status == migrate.FILE_ERROR
    assert "rewrote torch/__init__.py\n" in out
    assert err.startswith("no/such/tests: no such file or directory\n")
    assert "torch.histc: no :alert: written: no test or call names torch.histc" in err


def test_alerts_from_is_given_once_for_each_source():
    # A greedy option would take the paths to migrate for sources.
    parser = argparse.ArgumentParser()
    add_command(parser.add_subparsers())
    arguments = parser.parse_args(["migrate", "--alerts-from", "a", "--alerts-from", "b", "torch"])
    assert (arguments.alerts_from, arguments.paths) == (["a", "b"], ["torch"])
