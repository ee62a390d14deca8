"""The house game's bots (SPEC 7), registered by level in `apps.engine.bots`.

| module | what |
|---|---|
| `view.py` | `SeatView`: a seat's view read back into tiles, and the public state a bot may plan from |
| `easy.py` | Easy: opens as soon as it can, lays what it has, discards its worst tile |
| `hard.py` | Hard: plans holds, jokers, takes of the last discard and lay-offs |
| `open.py` | how near a rack is to opening: what Hard discards before it has opened |
| `plan.py` | the melds a rack can make and what keeping a tile is worth |
"""

#: level -> "module:class": the levels this game's bots play, found by `apps.engine.bots.get_bot` (a bot's
#: module is imported when it is asked for).
BOTS: dict[str, str] = {
    "easy": "apps.engine.house.bots.easy:EasyHouseBot",
    "hard": "apps.engine.house.bots.hard:HardHouseBot",
}
