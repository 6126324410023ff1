"""Run one Sphinx build and print the CPU and wall seconds of its phases:
reading, writing (and within it the page templates, ``handle_page``), the
HTML builder's ``finish``, pytorch_sphinx_theme2's Markdown copies (its
worker processes' CPU included) and the whole build. Unlike cProfile it
slows nothing down and sees the theme's worker processes. ::

    python bench/phases.py -b html -E -q SRC OUT

The arguments are sphinx-build's. Used by ``bench/torch_api.py --phases``.
"""

from __future__ import annotations

import functools
import resource
import sys
import time
from collections.abc import Callable
from typing import Any

#: By phase: CPU seconds (this process and its waited-for children), wall seconds.
TIMES: dict[str, list[float]] = {}


def cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> Any:
        start_cpu, start_wall = cpu(), time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent = TIMES.setdefault(name, [0.0, 0.0])
            spent[0] += cpu() - start_cpu
            spent[1] += time.perf_counter() - start_wall

    return run


def main(argv: list[str]) -> int:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.builders.html import StandaloneHTMLBuilder
    from sphinx.cmd.build import main as sphinx_build

    Builder.read = timed("read", Builder.read)  # type: ignore[method-assign]
    Builder.write = timed("write", Builder.write)  # type: ignore[method-assign]
    StandaloneHTMLBuilder.handle_page = timed(  # type: ignore[method-assign]
        "write: page templates", StandaloneHTMLBuilder.handle_page
    )
    StandaloneHTMLBuilder.finish = timed("finish", StandaloneHTMLBuilder.finish)  # type: ignore[method-assign]
    Sphinx.build = timed("build", Sphinx.build)  # type: ignore[method-assign]
    try:
        from pytorch_sphinx_theme2 import llm_generation
    except ImportError:
        pass
    else:
        llm_generation._generate_md_files = timed(
            "Markdown copies", llm_generation._generate_md_files
        )
    status = sphinx_build(argv)
    for name, (seconds, wall) in TIMES.items():
        print(f"{name:24} CPU {seconds:6.1f} s  wall {wall:6.1f} s")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
