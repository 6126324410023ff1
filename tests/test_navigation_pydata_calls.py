"""pydata-sphinx-theme's page functions' calls, read
(``reprodocs.navigation.pydata_calls``): which are served, and the depth they
ask for. The pages they give are compared with the theme's in
test_navigation_pydata.py."""

from __future__ import annotations

import pytest

from reprodocs.navigation.pydata_calls import (
    maxdepth,
    sidebar_arguments,
    suppress_arguments,
    unserved_sidebar,
)


def test_the_arguments_are_read_as_the_theme_s_signatures_read_them():
    assert sidebar_arguments("sidebar", 2, maxdepth=4) == ("sidebar", 2, 1, {"maxdepth": 4})
    assert suppress_arguments(includehidden=True) == (1, {"includehidden": True})
    with pytest.raises(TypeError):
        sidebar_arguments()


@pytest.mark.parametrize(
    ("kind", "startdepth", "show_nav_level", "options", "unserved"),
    [
        ("sidebar", 1, 1, {"maxdepth": 4, "collapse": False}, None),
        ("raw", 1, 1, {}, "generate_toctree_html('raw')"),
        ("sidebar", -1, 1, {}, "generate_toctree_html(startdepth=-1)"),
        ("sidebar", True, 1, {}, "generate_toctree_html(startdepth=True)"),
        ("sidebar", 1, "1", {}, "generate_toctree_html(show_nav_level='1')"),
        ("sidebar", 1, 1, {"b": 1, "a": 2}, "generate_toctree_html(a=..., b=...)"),
        ("sidebar", 0, 1, {}, "generate_toctree_html(startdepth=0) with another toctree()"),
    ],
)
def test_a_call_not_served_is_named_as_the_log_names_it(
    kind, startdepth, show_nav_level, options, unserved
):
    context = {"toctree": lambda **kwargs: ""}  # not the navigation's toctree()
    assert unserved_sidebar(kind, startdepth, show_nav_level, options, context) == unserved


@pytest.mark.parametrize(
    ("startdepth", "options", "depth"),
    [(1, {}, 0), (1, {"maxdepth": 3}, 3), (1, {"maxdepth": ""}, 0), (0, {"maxdepth": ""}, 0),
     (0, {"maxdepth": "2"}, 2), (0, {}, 0)],
)  # fmt: skip
def test_the_depth_is_read_as_the_theme_or_sphinx_reads_it(startdepth, options, depth):
    assert maxdepth(startdepth, options) == depth
