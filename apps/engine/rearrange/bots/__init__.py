"""The Rearrange game's bots (SPEC 7), registered by level in `apps.engine.bots`.

| module | what |
|---|---|
| `view.py` | `RearrangeSeatView`: a seat's view read back into tiles |
| `easy.py` | Easy: adds what fits, opens when it can, draws otherwise |
| `greedy.py` | Greedy: the solver's biggest play every turn (a benchmark baseline, not offered to players) |
| `hard.py` | Hard: the solver's candidates ranked by play-outs and a position value |
| `search.py` | the play-outs Hard ranks candidates with, on faces |
| `value.py` | the position value (a small network; its weights in `value.json`, beside it) |
"""

#: level -> "module:class": the levels this game's bots play, found by `apps.engine.bots.get_bot` (a bot's
#: module is imported when it is asked for).
BOTS: dict[str, str] = {
    "easy": "apps.engine.rearrange.bots.easy:EasyRearrangeBot",
    "hard": "apps.engine.rearrange.bots.hard:HardRearrangeBot",
    "greedy": "apps.engine.rearrange.bots.greedy:GreedyRearrangeBot",
}
