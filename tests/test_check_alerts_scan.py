"""check-alerts' scan: the alert names a source raises, read from its bytes.
The names are torch's (ATen, torch/_meta_registrations.py,
torch/_decomp/decompositions.py, intel/torch-xpu-ops); the code around
them is written for the test in the shapes those sources use."""

from __future__ import annotations

import pytest

from reprodocs.check_alerts.scan import AlertCall, file_alert_calls


def names(source: str, suffix: str = ".cu") -> list[tuple[int, str | None, bool]]:
    return [
        (call.line, call.alert, call.pattern) for call in file_alert_calls(source.encode(), suffix)
    ]


def test_aten_calls_in_cuda_and_cpp():
    source = """\
Tensor scatter_add_cuda(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
    globalContext().alertNotDeterministic("scatter_add_cuda");
    return scatter_base_cuda<true>(self, dim, index, src);
}

Tensor& max_unpooling2d_forward_kernel(Tensor& output, const Tensor& self_) {
  at::globalContext().alertNotDeterministic("max_unpooling2d_forward_out");
  return output;
}
"""
    assert names(source) == [
        (2, "scatter_add_cuda", False),
        (7, "max_unpooling2d_forward_out", False),
    ]


def test_a_name_over_lines_and_adjacent_literals_joined():
    source = """\
  globalContext().alertNotDeterministic(
      "fractional_max_pool3d_backward_out_xpu");
  globalContext().alertNotDeterministic("embedding_bag_backward_cuda_"
                                        /* the mode */ "max");
"""
    assert names(source, ".cpp") == [
        (1, "fractional_max_pool3d_backward_out_xpu", False),
        (3, "embedding_bag_backward_cuda_max", False),
    ]


def test_names_with_spaces_and_escapes():
    source = r"""
  at::globalContext().alertNotDeterministic("median CUDA with indices output");
  at::globalContext().alertNotDeterministic("a \"quoted\" name");
"""
    assert [name for _, name, _ in names(source)] == [
        "median CUDA with indices output",
        'a "quoted" name',
    ]


def test_comments_strings_and_definitions_are_not_calls():
    source = """\
// TORCH_MLU is not support alertNotDeterministic now
// globalContext().alertNotDeterministic("bincount_mlu");
/* globalContext().alertNotDeterministic("in_a_block");
   still a comment */
const char* doc = "see alertNotDeterministic(\\"quoted\\")";
void Context::alertNotDeterministic(c10::string_view const& caller) {
  if (deterministicAlgorithms()) { TORCH_CHECK(false, caller); }
}
void alert_not_deterministic(const char *name) {
    (void)name;
}
  void alertNotDeterministic(c10::string_view const& caller);
"""
    assert names(source, ".h") == []


def test_a_name_that_cannot_be_read_is_kept_with_its_text():
    source = """\
  globalContext().alertNotDeterministic(name);
  globalContext().alertNotDeterministic(c10::str("upsample_", mode, "_backward"));
  globalContext().alertNotDeterministic("prefix_" + suffix);
"""
    calls = file_alert_calls(source.encode(), ".cu")
    assert calls == [
        AlertCall(1, None, text="name"),
        AlertCall(2, None, text='c10::str("upsample_", mode, "_backward")'),
        AlertCall(3, None, text='"prefix_" + suffix'),
    ]


def test_python_calls():
    source = """\
@register_meta(aten.max_unpool3d)
@out_wrapper()
def meta_max_unpool3d(self_, indices, output_size, stride, padding):
    utils.alert_not_deterministic('max_unpooling3d_forward_out')
    return self_


def meta_median_mode_dim(input, dim=-1, keepdim=False):
    if device_hint(input) == "cuda":
        utils.alert_not_deterministic("median CUDA with indices output")
    alert_not_deterministic(
        "adjacent " 'literals'
    )
"""
    assert names(source, ".py") == [
        (4, "max_unpooling3d_forward_out", False),
        (10, "median CUDA with indices output", False),
        (11, "adjacent literals", False),
    ]


def test_an_f_string_with_placeholders_is_a_pattern():
    source = """\
def _max_unpoolnd(self, indices, output_size, dim):
    utils.alert_not_deterministic(f"max_unpooling{dim}d_forward_out")
    utils.alert_not_deterministic(f"plain_{{braces}}")
    utils.alert_not_deterministic(rf"{op}_backward_{mode!r}")
"""
    assert names(source, ".py") == [
        (2, "max_unpooling*d_forward_out", True),
        (3, "plain_{braces}", False),
        (4, "*_backward_*", True),
    ]


def test_python_comments_docstrings_and_definitions_are_not_calls():
    source = '''\
def alert_not_deterministic(caller: str) -> None:
    """Call alert_not_deterministic("name") where an operation has no
    deterministic implementation."""
    # utils.alert_not_deterministic("commented_out")
    text = "alert_not_deterministic('in a string')"
    x = utils.something
    def _alert_not_deterministic(caller): ...
    aten_fast._alert_not_deterministic("embedding_dense_backward on Mojo")
'''
    assert names(source, ".py") == []
    assert names("def alert_not_deterministic(caller: str): ...\n", ".pyi") == []


def test_a_call_on_the_line_after_a_word_is_a_call():
    source = "    x = foo\n    alert_not_deterministic('put_')\n"
    assert names(source, ".py") == [(2, "put_", False)]


@pytest.mark.parametrize(
    "source",
    [
        b"nothing to see\n",
        b"\xff\xfe binary without the name",
    ],
)
def test_files_without_the_names_are_not_read(source):
    assert file_alert_calls(source, ".cpp") == []


def test_undecodable_bytes_around_a_call():
    source = b'\xff // \xfe\n  globalContext().alertNotDeterministic("index_put_cuda");\n'
    assert names(source.decode("latin-1"), ".cu")[0][1] == "index_put_cuda"
    assert file_alert_calls(source, ".cu") == [AlertCall(2, "index_put_cuda")]
