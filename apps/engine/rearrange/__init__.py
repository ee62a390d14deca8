"""The Rearrange game `tile-rummy-rearrange` (SPEC 4): sets, the play check, moves, the state machine,
scoring and views. The exact table solver the bots use is `apps.engine.rearrange.solver`.

`RULES` is loaded on first use (the registry asks for it), so that importing the sets or the play check,
as the solver does, stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from apps.engine.rearrange.rules import RULES, RearrangeRules

__all__ = ["RULES", "RearrangeRules"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from apps.engine.rearrange import rules

        return getattr(rules, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
