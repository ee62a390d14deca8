"""The Rearrange game `tile-rummy-rearrange` (SPEC 4): sets, the play check, moves, the state machine,
scoring and views. The exact table solver the bots use is `apps.engine.solver`."""

from apps.engine.rearrange.rules import RULES, RearrangeRules

__all__ = ["RULES", "RearrangeRules"]
