"""pydata-sphinx-theme's ``suppress_sidebar_toctree``, served
(``reprodocs.navigation.pydata_suppress``): the theme's own answer, asked
once per section and arguments. The pages are compared with the theme's in
test_navigation_pydata.py."""

from __future__ import annotations

from collections import Counter

from reprodocs.base.state import build_state
from reprodocs.navigation.outcomes import Outcomes
from reprodocs.navigation.pydata_suppress import page_suppress


class Environment:
    """A site's toctrees: the root, two sections of two pages each."""

    def __init__(self) -> None:
        self.toctree_includes = {
            "index": ["one", "two"],
            "one": ["one/a", "one/b"],
            "two": ["two/a", "two/b"],
        }
        self.tocs: dict[str, object] = {}
        self.found_docs = ("index", "one", "one/a", "one/b", "two", "two/a", "two/b")


class Builder:
    def __init__(self) -> None:
        self.env = Environment()

    def get_target_uri(self, docname: str) -> str:
        return f"{docname}.html"


def test_the_theme_answers_once_per_section_and_arguments():
    builder = Builder()
    asked: Counter[tuple[object, ...]] = Counter()

    def theme_suppress(*args, **kwargs):
        asked[args, tuple(sorted(kwargs.items()))] += 1
        return False

    for page in ("one/a", "one/b", "two/a", "two/b", "one/a"):
        assert page_suppress(builder, page, theme_suppress, 1, maxdepth=2) is False
    assert page_suppress(builder, "one/a", theme_suppress, 1, maxdepth=3) is False
    # one and two with maxdepth=2, one with maxdepth=3
    assert sum(asked.values()) == 3


def test_a_page_outside_every_section_has_none_and_includehidden_has_one():
    builder = Builder()

    def theme_suppress(*args, **kwargs):
        raise AssertionError("not asked")

    assert page_suppress(builder, "index", theme_suppress) is True
    assert page_suppress(builder, "one/a", theme_suppress, includehidden=True) is False


def test_a_call_not_served_is_the_theme_s_own_and_told():
    builder = Builder()
    calls = []

    def theme_suppress(*args, **kwargs):
        calls.append((args, kwargs))
        return "theirs"

    assert page_suppress(builder, "one/a", theme_suppress, 0) == "theirs"
    assert page_suppress(builder, "one/b", theme_suppress, colour="red") == "theirs"
    assert len(calls) == 2
    assert build_state(builder.env, Outcomes).pages == {
        "one/a": "suppress_sidebar_toctree(startdepth=0)",
        "one/b": "suppress_sidebar_toctree(colour=...)",
    }
