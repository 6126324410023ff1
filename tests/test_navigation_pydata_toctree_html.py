"""pydata-sphinx-theme's ``generate_toctree_html("sidebar", ...)``, served
(``reprodocs.navigation.pydata_toctree_html``): its self-check. The pages
served are compared with the theme's in test_navigation_pydata.py."""

from __future__ import annotations

from reprodocs.navigation import pydata, pydata_sidebar
from test_navigation_pydata import assert_same, compare, pydata_settings


def test_self_check_gives_the_theme_s_own_sidebar_on_a_difference(
    make_app, rootdir, tmp_path, monkeypatch
):
    """Broken on purpose, the extension's sidebar differs from the theme's on
    the first page of each section: the theme's own is used there and on the
    section's other pages, and the log says so."""
    monkeypatch.setattr(pydata_sidebar, "quoted", lambda href: f'"{href} "')
    without, with_extension, app = compare(make_app, rootdir, tmp_path, "html", pydata_settings({}))
    assert "differs from the theme's own" in app.status.getvalue()
    assert_same(with_extension, without)


def test_self_check_compares_a_page_whose_own_link_is_marked(
    make_app, rootdir, tmp_path, monkeypatch
):
    """Wrong only where a page's own link is marked current (as a version
    table wrong about ``aria-current`` was, for 0.22.0 and 0.23.0): a
    section's root page, which its sidebar does not list, is the same, so
    the first page whose link is marked is compared too, and differs."""
    import pydata_sphinx_theme

    version = pydata_sphinx_theme.__version__
    monkeypatch.setitem(pydata.KNOWN_VERSIONS, version, not pydata.KNOWN_VERSIONS[version])
    without, with_extension, app = compare(make_app, rootdir, tmp_path, "html", pydata_settings({}))
    assert "sidebar on api/op_a differs from the theme's own" in app.status.getvalue()
    assert_same(with_extension, without)
