"""The extension's ``toctree()`` is Sphinx's own, byte for byte, on generated
doc trees: for every page and every option set, html and dirhtml."""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from sphinx import addnodes
from sphinx.environment.adapters.toctree import TocTree

from conftest import examples
from test_navigation import OPTIONS, capture_menus

#: Title words: plain, with markup, escaped characters, and the words once
#: used as markers in the rendered menu.
WORDS = ("Alpha", "beta", "``code``", "*emphasis*", "Tom & <Jerry>", "reprodocsuri",
         "reprodocsclass", "Ünïcödé", "1.2")  # fmt: skip
#: Section adornments by level (0 is the document's title level).
ADORNMENTS = "=-~^"
DIRECTORIES = ("", "a/", "a/b/")


def heading(text: str, level: int) -> str:
    return f"{text}\n{ADORNMENTS[level] * (len(text) + 4)}\n\n"


titles = st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join)


@st.composite
def toctrees(draw, page: int, names: list[str]) -> str:
    """A toctree of page *page*: later pages (so no cycles, save by glob),
    external links, explicit titles; with random options; maybe in ``only``."""
    later = names[page + 1 :]
    entries = []
    for name in draw(st.lists(st.sampled_from(later), unique=True, max_size=4)) if later else []:
        kind = draw(st.sampled_from(("plain", "plain", "titled", "glob")))
        if kind == "titled":
            entries.append(f"{draw(titles)} </{name}>")
        elif kind == "glob":
            entries.append(("glob", f"/{name}*"))  # matches that page alone: no cycles
        else:
            entries.append(f"/{name}")
    if draw(st.booleans()):
        entries.append(draw(st.sampled_from(
            ("https://example.org/x", "External reprodocsuri <https://example.org/y?a=1&b=2>")
        )))  # fmt: skip
    if draw(st.integers(0, 5)) == 0:
        entries.append("self")
    glob = any(isinstance(entry, tuple) for entry in entries)
    entries = [entry[1] if isinstance(entry, tuple) else entry for entry in entries]
    options = []
    if glob:
        options.append(":glob:")
    if draw(st.integers(0, 5)) == 0:
        options.append(":hidden:")
    if draw(st.integers(0, 3)) == 0:
        options.append(":titlesonly:")
    if draw(st.integers(0, 4)) == 0:
        options.append(":numbered:")
    if draw(st.integers(0, 3)) == 0:
        options.append(":includehidden:")
    if maxdepth := draw(st.sampled_from((None, None, 1, 2, 3))):
        options.append(f":maxdepth: {maxdepth}")
    if draw(st.booleans()):
        options.append(f":caption: {draw(st.sampled_from(WORDS[:3] + WORDS[4:6]))}")
    text = ".. toctree::\n" + "".join(f"   {o}\n" for o in options) + "\n"
    text += "".join(f"   {entry}\n" for entry in entries) + "\n"
    if only := draw(st.sampled_from((None, None, None, "html", "never"))):
        text = f".. only:: {only}\n\n" + "".join(
            f"   {line}\n" if line else "\n" for line in text.splitlines()
        )
    return text


@st.composite
def pages(draw, page: int, names: list[str]) -> str:
    """A page: maybe ``:tocdepth:``, one or two top-level sections with
    subsections (one maybe in ``only``), toctrees anywhere among them."""
    text = ""
    if tocdepth := draw(st.sampled_from((None, None, None, 1, 2, 3))):
        text += f":tocdepth: {tocdepth}\n\n"
    for top in range(draw(st.integers(1, 2))):
        text += heading(draw(titles), 0) + "Text.\n\n"
        for _ in range(draw(st.integers(0, 2))):
            text += draw(toctrees(page, names)) if draw(st.integers(0, 2)) == 0 else ""
            sub = heading(f"{draw(titles)} {top}", 1) + "Text.\n\n"
            if draw(st.integers(0, 2)) == 0:
                sub += heading(draw(titles), 2) + "Text.\n\n"
            if draw(st.integers(0, 5)) == 0:
                sub = ".. only:: html\n\n" + "".join(
                    f"   {line}\n" if line else "\n" for line in sub.splitlines()
                )
            text += sub
        if draw(st.booleans()):
            text += draw(toctrees(page, names))
    return text


@st.composite
def sites(draw) -> dict[str, str]:
    """The sources of a site: index.rst and its pages, by file name."""
    count = draw(st.integers(2, 7))
    names = ["index"] + [f"{draw(st.sampled_from(DIRECTORIES))}p{i}" for i in range(1, count)]
    files = {"conf.py": 'exclude_patterns = ["_build"]\n'}
    for number, name in enumerate(names):
        files[f"{name}.rst"] = draw(pages(number, names))
    # The root lists at least one page, so that there is a menu.
    files["index.rst"] += f".. toctree::\n\n   /{names[1]}\n"
    return files


@settings(
    max_examples=examples(30),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    # No shrinking: an example is a whole site, shrinking one takes minutes
    # of builds; the failing site is printed as generated.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(files=sites(), builder=st.sampled_from(("html", "dirhtml")))
def test_menu_is_sphinx_menu_on_generated_trees(make_app, tmp_path_factory, files, builder):
    srcdir = tmp_path_factory.mktemp("site")
    for name, text in files.items():
        (srcdir / name).parent.mkdir(parents=True, exist_ok=True)
        (srcdir / name).write_text(text, encoding="utf-8")
    app = make_app(
        builder,
        srcdir=srcdir,
        freshenv=True,
        confoverrides={"extensions": ["reprodocs.navigation"]},
    )
    pairs = capture_menus(app, OPTIONS)
    app.build()
    assert {page for page, *_ in pairs} >= {"index"}
    for pagename, options, sphinx_menu, our_menu, linear in pairs:
        assert our_menu == sphinx_menu, (pagename, options)
        # Linear, save where a document leading to the page has, without
        # :tocdepth:, "only" in its table of contents.
        assert linear or not whole_copies_differ(app.env).isdisjoint(
            TocTree(app.env).get_toctree_ancestors(pagename)
        ), (pagename, options)


def whole_copies_differ(env) -> set[str]:
    return {
        docname
        for docname, toc in env.tocs.items()
        if not env.metadata[docname].get("tocdepth") and any(toc.findall(addnodes.only))
    }
