"""What the navigation's parts register with its core, so that the core
names none of them.

``reprodocs.navigation``'s ``setup()`` makes one :class:`Registry` per
application and hands it to each theme adapter's ``setup_<adapter>(app,
registry)`` (its table of contents lists them). An adapter connects its own
handlers to Sphinx's events and registers here what the core must do for it
when a build starts: the kinds of per-build state it keeps
(:mod:`reprodocs.base.state`), made anew, and any cache of the theme's that
must be forgotten. The core does both in one place,
:meth:`Registry.renew`, whatever the adapters are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from reprodocs.base.state import new_build_state

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


@dataclass
class Registry:
    """One application's registrations, in the order made. It lives as long
    as the application: the core's ``env-get-updated`` handler holds it."""

    #: The kinds of per-build state made anew when a build starts.
    states: list[type] = field(default_factory=list)
    #: What forgets a theme's own cache of the last build, when one starts.
    forgetting: list[Callable[[Sphinx], object]] = field(default_factory=list)

    def add(self, *states: type, forget: Callable[[Sphinx], object] | None = None) -> None:
        """Register per-build *states*, and *forget*, called with the
        application when a build starts."""
        self.states.extend(states)
        if forget is not None:
            self.forgetting.append(forget)

    def renew(self, app: Sphinx, env: BuildEnvironment) -> list[type]:
        """A build starts: every registered state made anew (the last
        build's forgotten, whatever it held), every theme cache forgotten.
        Returns the kinds made anew."""
        for kind in self.states:
            new_build_state(env, kind)
        for forget in self.forgetting:
            forget(app)
        return list(self.states)
