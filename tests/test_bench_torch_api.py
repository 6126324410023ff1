"""bench/torch_api.py's site, PyTorch's API reference as its docs lay it out,
and its comparison of two builds' output (no build, no torch: a listing
made up here)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"


def _load_torch_api():
    spec = importlib.util.spec_from_file_location("bench_torch_api", BENCH / "torch_api.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


torch_api = _load_torch_api()

LISTING = {
    "version": "0.0",
    "site": "/nowhere/site-packages",
    "torch": ["abs", "add"],
    "nn": ["Linear"],
    "nn.functional": ["relu"],
}


def test_the_site_has_a_page_per_object_under_its_section(tmp_path):
    src = torch_api.generate_torch_site(tmp_path / "site", LISTING)
    generated = sorted(path.name for path in (src / "generated").iterdir())
    assert generated == [
        "torch.abs.rst",
        "torch.add.rst",
        "torch.nn.Linear.rst",
        "torch.nn.functional.relu.rst",
    ]
    assert (
        ".. autoclass:: Linear\n    :members:"
        in (src / "generated/torch.nn.Linear.rst").read_text()
    )
    assert ".. autofunction:: relu" in (src / "generated/torch.nn.functional.relu.rst").read_text()
    section = (src / "nn.functional.rst").read_text()
    assert ":toctree: generated" in section and "    relu\n" in section
    index = (src / "index.rst").read_text()
    assert all(f"   {name}\n" in index for name in ("torch", "nn", "nn.functional"))
    conf = (src / "conf.py").read_text()
    assert "sys.path.append('/nowhere/site-packages')" in conf
    assert conf.index("import torch") < conf.index("BENCH_PYTORCH2_CONF")


def test_outputs_differ_by_the_files_that_differ_uuids_aside(tmp_path):
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    for out, uuid in ((ours, "0" * 8), (theirs, "1" * 8)):
        (out / ".doctrees").mkdir(parents=True)
        (out / "a.html").write_text(f"<p>{uuid}-1111-2222-3333-444444444444</p>")
        (out / "a.md").write_text("same")
        (out / ".doctrees" / "a.html").write_text(uuid)
    assert torch_api.differences(torch_api.written(ours), torch_api.written(theirs)) == []
    (theirs / "a.md").write_text("other")
    (theirs / "llms.txt").write_text("only here")
    assert torch_api.differences(torch_api.written(ours), torch_api.written(theirs)) == [
        "a.md",
        "llms.txt",
    ]
