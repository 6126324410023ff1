"""How ``reprodocs.navigation.pydata_sidebar`` writes what the theme's
BeautifulSoup writes: addresses and links' insides (the sidebars
themselves are compared with the theme's in test_navigation_pydata.py)."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from hypothesis import given
from hypothesis import strategies as st

from reprodocs.navigation import pydata_sidebar


@pytest.mark.parametrize(
    "href",
    [
        "plain.html",
        "../a/b.html#x",
        "https://example.org/?a=1&b=2",
        'https://example.org/?q="x"',
        "https://example.org/?q='x'",
        "https://example.org/?q=\"x\"&r='y'<z>",
    ],
)
def test_addresses_are_quoted_as_beautifulsoup_writes_them(href):
    tag = BeautifulSoup("", "html.parser").new_tag("a", attrs={"href": href})
    assert f"<a href={pydata_sidebar.quoted(href)}></a>" == str(tag)


@given(st.text())
def test_a_link_s_inside_is_written_as_beautifulsoup_writes_it(text):
    """Plain text is written as it is, without a parse; any text, as the
    theme's soup writes it."""
    inner = text + "</a>"
    soup = BeautifulSoup(f'<a class="reference internal" href="#">{inner}', "html.parser")
    expected = (
        soup.contents[0].decode_contents() + "</a>"
        if len(soup.contents) == 1 and soup.contents[0].name == "a"
        else None
    )
    assert pydata_sidebar._soup_inner(inner) == expected
