"""The one holder of state that lives for one build.

reprodocs keeps state for two lifetimes, each in one place:

* per document, saved with the environment: the notes extension's domain
  (``reprodocs.notes.domain``), which Sphinx purges and merges;
* per build: one object per kind, of a class the product declares, made on
  first use by :func:`build_state`. It lives as long as the build's
  environment object in memory (one ``sphinx-build`` run, one test
  application) and is never pickled. What must not outlive one
  ``app.build()`` (an application may build twice) is made anew by
  :func:`new_build_state` when the build starts (``env-get-updated``).
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, TypeVar, cast

if TYPE_CHECKING:
    from sphinx.environment import BuildEnvironment

State = TypeVar("State")

_states: weakref.WeakKeyDictionary[BuildEnvironment, dict[type, object]] = (
    weakref.WeakKeyDictionary()
)


def build_state(env: BuildEnvironment, kind: type[State]) -> State:
    """The build's one *kind* object (``kind()`` on first use)."""
    states = _states.setdefault(env, {})
    if kind not in states:
        states[kind] = kind()
    return cast("State", states[kind])


def new_build_state(env: BuildEnvironment, kind: type[State]) -> State:
    """A new *kind* object for the build that starts: the last build's is
    forgotten, whatever it held."""
    state = _states.setdefault(env, {})[kind] = kind()
    return state
