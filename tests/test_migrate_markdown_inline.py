"""reprodocs.migrate.markdown_inline: a Markdown cell's inline markup as
inline reStructuredText, each construct and the escaping of plain text;
what has no faithful form is refused. Each conversion is also parsed by
docutils, so the words it shows are checked, not only its spelling."""

from __future__ import annotations

import pytest
from docutils.core import publish_doctree

from reprodocs.migrate.markdown_inline import Unconvertible, plain_text, to_rst


def shown(rst: str) -> str:
    """The words docutils shows for *rst*, one paragraph of inline text."""
    document = publish_doctree(rst, settings_overrides={"report_level": 5})
    return document.astext()


@pytest.mark.parametrize(
    ("markdown", "rst", "words"),
    [
        ("`index_add_` — ordered", "``index_add_`` — ordered", "index_add_ — ordered"),
        ("``a ` b``", ":literal:`a \\` b`", "a ` b"),  # code holding a backtick
        ("` a `", "``a``", "a"),  # one space stripped at each end
        ("`C:\\`", ":literal:`C:\\\\`", "C:\\"),  # code ending in a backslash
        ("foo`bar`baz", "foo\\ ``bar``\\ baz", "foobarbaz"),  # inside a word
        ("an *em* word", "an *em* word", "an em word"),
        ("an _em_ word", "an *em* word", "an em word"),
        ("a **strong** b __too__", "a **strong** b **too**", "a strong b too"),
        ("[site](https://example.org/a_b)", "`site <https://example.org/a_b>`__", "site"),
        ("<https://example.org>", "`https://example.org <https://example.org>`__", "https://example.org"),
        ("a \\* b \\| c \\_d", "a \\* b \\| c _d", "a * b | c _d"),
        ("&amp; &copy;", "& ©", "& ©"),
        ("2 * 3 | 4", "2 \\* 3 \\| 4", "2 * 3 | 4"),
        ("name_ and __init__ and snake_case", "name\\_ and **init** and snake_case", "name_ and init and snake_case"),
        ("a `b` c:role:`x`", "a ``b`` c:role:``x``", "a b c:role:x"),
        ("causal_conv1d >= 1.6.0", "causal_conv1d >= 1.6.0", "causal_conv1d >= 1.6.0"),
    ],
)  # fmt: skip
def test_each_construct_is_converted_and_shows_the_same_words(markdown, rst, words):
    assert to_rst(markdown) == rst
    assert shown(rst) == words


@pytest.mark.parametrize(
    "markdown",
    [
        "a <br> b",  # raw HTML
        "![logo](logo.png)",  # an image
        "see [^1]",  # a footnote reference
        "{py:func}`torch.sum`",  # a MyST role
        "{{ version }}",  # a substitution
        "[glossary](./glossary.md)",  # relative: a document to MyST
        "[a `code` link](https://example.org)",  # markup in a link
        "*an `em` with code*",  # markup in an emphasis
        "***both***",
        "` `",  # code of spaces only
        "[ref][label]",  # reference-style
    ],
)
def test_what_has_no_faithful_form_is_refused(markdown):
    with pytest.raises(Unconvertible):
        to_rst(markdown)


def test_plain_text_is_the_words_shown():
    assert (
        plain_text("Fused loss (`--fusion`) *now* [x](https://e.org)")
        == "Fused loss (--fusion) now x"
    )
