"""Bad input: a located warning naming the directive, the build goes on, no
traceback, and user text is escaped."""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sphinx.cmd.build import build_main
from sphinx.util.console import strip_colors

from conftest import examples, notes_in, parse_html, text_of

# Each misuse: the page's body, and the directive and line the warning must name
# (the page's title and toctree take lines 1-7).
MISUSES = {
    "argument": (".. cuda-deterministic-backward:: torch.pad\n", "cuda-deterministic-backward", 8),
    "unknown option": (".. cuda-deterministic::\n   :colour: red\n", "cuda-deterministic", 8),
    "option of the general form on a preset": (
        ".. cudnn-deterministic::\n   :backend: ROCm\n",
        "cudnn-deterministic",
        8,
    ),
    "invalid pass": (".. nondeterministic::\n   :pass: sideways\n", "nondeterministic", 8),
    "empty backend": (".. nondeterministic::\n   :backend:\n", "nondeterministic", 8),
    "empty op": (".. nondeterministic::\n   :op:\n", "nondeterministic", 8),
    "same note twice": (
        (
            ".. py:function:: torch.pad(input)\n\n"
            "   .. cuda-deterministic-backward::\n\n"
            "   .. nondeterministic::\n      :pass: backward\n"
        ),
        "nondeterministic",
        12,
    ),
}


@pytest.mark.parametrize(("body", "directive", "line"), MISUSES.values(), ids=MISUSES.keys())
def test_misuse_is_a_located_warning(build_page, body, directive, line):
    app = build_page(body)
    warnings = strip_colors(app.warning.getvalue())
    assert "Traceback" not in warnings
    messages = warnings.split(str(app.srcdir / "index.rst"))
    assert any(message.startswith(f":{line}:") and directive in message for message in messages), (
        warnings
    )
    assert (app.outdir / "index.html").is_file()


def test_misuse_fails_a_build_with_W(tmp_path, build_page):
    build_page(MISUSES["invalid pass"][0])  # writes the project
    srcdir = tmp_path / "src"
    assert build_main(["-q", "-b", "html", str(srcdir), str(tmp_path / "ok")]) == 0
    assert build_main(["-q", "-W", "-b", "html", str(srcdir), str(tmp_path / "w")]) != 0


def test_same_note_twice_names_the_first(build_page):
    app = build_page(MISUSES["same note twice"][0])
    assert (
        "index.rst:12: WARNING: nondeterministic: torch.pad already carries this note (line 10)"
    ) in strip_colors(app.warning.getvalue())
    # Its type, by what it is for (Sphinx 7.2 does not print types).
    silenced = {"suppress_warnings": ["reprodocs.duplicate"]}
    app = build_page(MISUSES["same note twice"][0], confoverrides=silenced)
    assert "already carries" not in app.warning.getvalue()


def test_user_text_is_escaped(build_page):
    app = build_page(
        ".. py:function:: torch.pad(input)\n\n"
        "   .. nondeterministic::\n"
        "      :backend: <script>alert(1)</script>\n"
        "      :op: <script>alert(2)</script>\n"
        "      :alternative: <script>alert(3)</script> *x*\n\n"
        "      <script>alert(4)</script>\n"
    )
    assert app.warning.getvalue() == ""
    soup = parse_html(app.outdir / "index.html")
    (note,) = notes_in(soup)
    assert note.find("script") is None
    text = text_of(note)
    for n in (1, 3, 4):
        assert f"<script>alert({n})</script>" in text
    assert note.find("em").get_text() == "x"
    (operation,) = {n.operation for n in app.env.get_domain("reprodocs").notes()}
    assert operation == "<script>alert(2)</script>"


#: reStructuredText's special characters mostly, and any other text sometimes.
option_value = st.text(
    alphabet=st.sampled_from([*string.punctuation, " ", "a", "Z", "0", "中", "é"]), max_size=24
) | st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=12)


@pytest.mark.slow
@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    options=st.dictionaries(
        st.sampled_from(["backend", "pass", "op", "alternative", "colour"]),
        option_value,
        max_size=4,
    ),
    content=option_value,
)
def test_any_option_values_never_crash_the_build(rebuild_page, options, content):
    body = ".. py:function:: torch.pad(input)\n\n   .. nondeterministic::\n"
    body += "".join(f"      :{name}: {value}\n" for name, value in options.items())
    body += f"\n      {content}\n"
    app = rebuild_page(body)
    warnings = strip_colors(app.warning.getvalue())
    assert "Traceback" not in warnings
    assert "Exception" not in warnings
    # Every message is located in the page; without any, the note was built.
    page = str(app.srcdir / "index.rst")
    assert all(
        message.startswith(page)
        for message in warnings.splitlines()
        if ": WARNING" in message or ": ERROR" in message
    ), warnings
    assert notes_in(parse_html(app.outdir / "index.html")) or page in warnings
