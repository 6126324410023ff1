"""The notes kept in the domain: notes that repeat or contradict each other,
on one page and across pages, under their conditions."""

from __future__ import annotations

import pytest
from sphinx.util.console import strip_colors

from reprodocs.notes.domain import Note


def test_notes_on_put_under_two_conditions_are_no_duplicates(build_registry):
    app = build_registry()
    assert app.warning.getvalue() == ""
    put_ = [
        n for n in app.env.get_domain("reprodocs").notes() if n.operation == "torch.Tensor.put_"
    ]
    assert [(n.when, n.deterministic_algorithms) for n in put_] == [
        ("``accumulate=False``", "raises"),
        ("``accumulate=True`` and called on a CUDA tensor", "raises"),
    ]
    assert put_[0] == Note(
        "torch.Tensor.put_",
        "nondeterministic",
        "CUDA",
        "forward",
        "api",
        30,
        deterministic_algorithms="raises",
        when="``accumulate=False``",
    )


@pytest.mark.parametrize(
    ("second", "warning"),
    [
        # The same condition twice is the same note twice.
        (
            ":pass: forward\n      :when: ``accumulate=False``",
            "already carries this note (line 10)",
        ),
        # Under another condition, another pass is no contradiction...
        (":pass: backward\n      :when: ``accumulate=True``", None),
        # ... under the same one it is.
        (
            ":pass: backward\n      :when: ``accumulate=False``",
            "is noted with :pass: backward here",
        ),
        # The same condition, and a note that says what deterministic mode
        # does beside one that does not: two claims, no contradiction.
        (
            (
                ":pass: forward\n      :when: ``accumulate=False``\n"
                "      :deterministic-algorithms: raises"
            ),
            None,
        ),
    ],
)
def test_duplicates_and_conflicts_count_the_condition(build_page, second, warning):
    app = build_page(
        ".. py:function:: torch.put(index)\n\n"
        "   .. nondeterministic::\n      :pass: forward\n      :when: ``accumulate=False``\n\n"
        f"   .. nondeterministic::\n      {second}\n"
    )
    warnings = strip_colors(app.warning.getvalue())
    if warning is None:
        assert warnings == ""
    else:
        assert warning in warnings
        assert warnings.count("WARNING") == 1


@pytest.mark.parametrize(
    ("second", "warning"),
    [
        # The same condition, the other effect of deterministic mode...
        (
            (
                "nondeterministic::\n      :when: ``accumulate=False``\n"
                "      :deterministic-algorithms: deterministic"
            ),
            (
                "nondeterministic: torch.put is noted with :deterministic-algorithms: "
                "deterministic here but raises in index (line 10)"
            ),
        ),
        # ... on another backend too: deterministic mode does one thing to a call...
        (
            (
                "cudnn-deterministic::\n      :when: ``accumulate=False``\n"
                "      :deterministic-algorithms: deterministic"
            ),
            (
                "cudnn-deterministic: torch.put is noted with :deterministic-algorithms: "
                "deterministic here but raises in index (line 10)"
            ),
        ),
        # ... under one condition; under another it may do the other.
        (
            (
                "nondeterministic::\n      :when: ``accumulate=True``\n"
                "      :deterministic-algorithms: deterministic"
            ),
            None,
        ),
    ],
)
def test_raises_and_deterministic_under_one_condition_conflict(build_page, second, warning):
    body = (
        ".. py:function:: torch.put(index)\n\n"
        "   .. nondeterministic::\n      :when: ``accumulate=False``\n"
        "      :deterministic-algorithms: raises\n\n"
        f"   .. {second}\n"
    )
    app = build_page(body)
    warnings = strip_colors(app.warning.getvalue())
    if warning is None:
        assert warnings == ""
    else:
        # Located at the second note, as a conflict of passes is.
        assert f"{app.srcdir / 'index.rst'}:14: WARNING: {warning}" in warnings
        assert warnings.count("WARNING") == 1
        app.cleanup()  # the next app registers Sphinx's nodes again, without warnings
        silenced = {"suppress_warnings": ["reprodocs.conflict"]}
        app = build_page(body, confoverrides=silenced)
        assert app.warning.getvalue() == ""
