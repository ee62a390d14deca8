"""The house game `tile-rummy` (SPEC 3): melds, moves, the state machine, scoring, views and helpers."""

from apps.engine.house.rules import RULES, HouseRules

__all__ = ["RULES", "HouseRules"]
