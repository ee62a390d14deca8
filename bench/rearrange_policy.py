"""Benchmark (issue 18): can a model fitted on many decisions choose among the Rearrange Hard bot's candidate
plays (and a draw) better than its planned play? Data, fit, and the held-out answer.

Per-move play-outs cannot tell the candidates apart: their results differ by a few hundredths of a win,
while one play-out's result is 0 or 1 (bench/README.md). A model fitted on thousands of decisions averages
that noise out; this script gathers the decisions and fits one (a linear model of each candidate's
advantage over the planned play, on what the seat can see). On 28,385 decisions it found no held-out gain
(bench/README.md), so the bot does not use it.

    .venv/bin/python bench/rearrange_policy.py collect --seed 101 --deals 200 --jobs 2 --out /tmp/d0.jsonl
    .venv/bin/python bench/rearrange_policy.py fit /tmp/d0.jsonl [--write /tmp/model.json]
    .venv/bin/python bench/rearrange_policy.py collect --seed 102 --deals 200 --jobs 2 \\
        --model /tmp/model.json --out /tmp/d1.jsonl          # the states the learned choice reaches (DAgger)

`collect` plays Hard (the shipped bot, or with `--model FILE` the learned choice) against Greedy on
deals shuffled by `Random(f"{seed}:{d}")`, both seatings (use seeds other than the goal runs' 1 and 2).
At each of Hard's decisions after opening with tiles in the pool, unless it goes out, it takes the
candidates the bot would weigh (`options`: `HardRearrangeBot._candidates`, i.e. the planned play, the
solver's most tiles, keeping jokers, holding back one tile; and a draw), applies each to the real game and
plays it out to the end by the Greedy policy for both seats (`rearrange_search.playout`, table jokers kept), every candidate with
the same real future (the pool's real order and the other's real rack: an unbiased sample of what that
candidate is worth), and writes one JSON line: the situation, each candidate's facts and result. The game
then goes on with the bot's own move (the games are `bench/rearrange_oracle.play`'s, the simulator's). Slow: seconds of CPU per game.

`fit` reads such files, fits the advantage of each candidate over the planned play (ridge regression on
`features`, in pure Python), and prints, on decisions held out by deal (two folds), what the model's choice
would have gained against the planned play per decision at several margins (the mean of the real results'
differences: an unbiased one-step estimate on those states), and the fitted weights. `collect --model FILE`
with a model written by `fit --write FILE` plays the learned choice, to gather the states it reaches (DAgger).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from apps.engine.game import JSON, Draw, Move, get_rules  # noqa: E402
from apps.engine.rearrange.bots.hard import HardRearrangeBot  # noqa: E402
from apps.engine.rearrange.bots.search import Candidate, after, evaluate, playout, without  # noqa: E402
from apps.engine.rearrange.bots.view import RearrangeSeatView  # noqa: E402
from apps.engine.rearrange.melds import rack_value  # noqa: E402
from apps.engine.rearrange.moves import Play  # noqa: E402
from apps.engine.rearrange.solver import Solution, solve  # noqa: E402
from apps.engine.rearrange.state import RearrangeState  # noqa: E402
from bench.rearrange_oracle import play, truth_of  # noqa: E402

SLUG = "tile-rummy-rearrange"


# --- the model: a decision's situation, each candidate's facts, the features, the fitted choice --------------


@dataclass(frozen=True, slots=True)
class Situation:
    """The context of one decision, from the seat's view."""

    rack: int  # tiles on the seat's rack
    other: int  # the fewest tiles another seat still in holds
    pool: int  # tiles left to draw
    table: int  # tiles on the table
    most: int  # tiles the solver's best play places (the Greedy bot's play)
    # Has every other seat still in opened (only then can it use the table)? Files gathered before the flag
    # existed (the README's 28,385 decisions) have five fields and read True: its terms are then 0.
    others_open: bool = True


@dataclass(frozen=True, slots=True)
class Facts:
    """What one candidate does, as the seat can see it."""

    placed: int  # rack tiles it places (0 for a draw)
    draws: bool
    reserve: int  # tiles the rack it leaves could place next turn on the table it leaves (table jokers kept)
    jokers: int  # jokers left on the rack
    left_value: int  # face value left on the rack (a joker 30)


def context(situation: Situation) -> tuple[float, ...]:
    """The terms every difference is multiplied by: a constant, the sizes (scaled to about 0..2), and whether
    a rack is short (the end is near)."""
    return (
        1.0,
        situation.other / 10,
        situation.rack / 10,
        situation.pool / 40,
        situation.table / 50,
        situation.most / 5,
        float(situation.other <= 4),
        float(situation.rack <= 4),
        float(not situation.others_open),
    )


def differences(candidate: Facts, planned: Facts) -> tuple[float, ...]:
    return (
        float(candidate.placed - planned.placed),
        float(candidate.draws) - float(planned.draws),
        float(candidate.reserve - planned.reserve),
        float(candidate.jokers - planned.jokers),
        (candidate.left_value - planned.left_value) / 10,
    )


def features(situation: Situation, candidate: Facts, planned: Facts) -> list[float]:
    """Every difference times every context term (all 0 for the planned play itself).

    >>> here = Situation(rack=9, other=12, pool=40, table=30, most=3)
    >>> planned = Facts(placed=3, draws=False, reserve=0, jokers=0, left_value=40)
    >>> features(here, planned, planned) == [0.0] * 45
    True
    >>> draw = Facts(placed=0, draws=True, reserve=3, jokers=0, left_value=60)
    >>> features(here, draw, planned)[:3]
    [-3.0, -3.5999999999999996, -2.7]
    """
    terms = context(situation)
    return [difference * term for difference in differences(candidate, planned) for term in terms]


@dataclass(frozen=True, slots=True)
class Model:
    weights: tuple[float, ...]
    margin: float  # how much better a candidate must be predicted to do than the planned play

    def advantage(self, situation: Situation, candidate: Facts, planned: Facts) -> float:
        """The predicted gain in win share of `candidate` over the planned play."""
        return sum(weight * value for weight, value in zip(self.weights, features(situation, candidate, planned), strict=True))

    def choose(self, situation: Situation, candidates: list[Facts]) -> int:
        """The index of the candidate to play (`candidates[0]` is the planned play): the best predicted
        advantage if it passes the margin, else 0. Ties go to the earlier candidate."""
        planned = candidates[0]
        best, best_gain = 0, self.margin
        for index, candidate in enumerate(candidates[1:], start=1):
            gain = self.advantage(situation, candidate, planned)
            if gain > best_gain:
                best, best_gain = index, gain
        return best


def _facts(seat: RearrangeSeatView, candidate: Candidate) -> Facts:
    """What `candidate` leaves, as the seat sees it."""
    rack = without(seat.rack, candidate.placed)
    table = seat.table if candidate.table is None else candidate.table
    later = solve(table, rack, free_jokers=False) if rack else None
    return Facts(
        placed=len(candidate.placed),
        draws=candidate.table is None,
        reserve=0 if later is None else len(later.placed),
        jokers=sum(1 for tile in rack if tile.is_joker),
        left_value=sum(rack_value(tile) for tile in rack),
    )


def options(bot: HardRearrangeBot, seat: RearrangeSeatView, full: Solution) -> tuple[Situation, list[Candidate], list[Facts]]:
    """A decision as the model sees it, from the view only: its situation, the Hard bot's candidates (its
    planned play first) and a draw last (unless the planned play is one), and each candidate's facts."""
    candidates = bot._candidates(seat, bot.planned_move(seat, full), full)
    if all(candidate.table is not None for candidate in candidates):
        candidates.append(Candidate("draw", None, ()))
    others = [seat.tiles[other] for other in seat.others()]
    situation = Situation(
        rack=len(seat.rack),
        other=min(others) if others else 0,
        pool=seat.pool,
        table=sum(len(meld) for meld in seat.table),
        most=len(full.placed),
        others_open=all(seat.opened[other] for other in seat.others()),
    )
    return situation, candidates, [_facts(seat, candidate) for candidate in candidates]


def labelled(seat: RearrangeSeatView) -> Solution | None:
    """The solver's best play when the decision is one the model makes (opened, tiles in the pool, and no
    play that goes out), else None."""
    if not seat.has_opened or not seat.pool:
        return None
    full = solve(seat.table, seat.rack)
    return full if full is not None and len(full.placed) < len(seat.rack) else None


class LearnedHardBot(HardRearrangeBot):
    """The Hard bot with the fitted model's choice wherever it decides (elsewhere: the shipped bot)."""

    def __init__(self, model: Model) -> None:
        super().__init__()
        self.model = model

    def next_move(self, view: JSON, rng: random.Random) -> Move:
        seat = RearrangeSeatView.of(view)
        full = labelled(seat)
        if full is None:
            return super().next_move(view, rng)
        situation, candidates, facts = options(self, seat, full)
        best = candidates[self.model.choose(situation, facts)]
        return Draw() if best.table is None else Play(best.table)


def load_model(path: str) -> Model:
    data = json.loads(Path(path).read_text())
    return Model(tuple(float(weight) for weight in data["weights"]), float(data["margin"]))


# --- the data ------------------------------------------------------------------------------------------------

PLAYOUT_ROUNDS = 500  # to the game's end


def label(looker: HardRearrangeBot, deal: int, rotation: int, decisions: list[dict[str, Any]], state: RearrangeState) -> None:
    """Before a move of Hard's (in seat `rotation`): if the model would decide it, every candidate's result
    played out to the end with the real future, appended to `decisions`."""
    seat = RearrangeSeatView.of(get_rules(SLUG).view_for(state, rotation))
    full = labelled(seat)
    if full is None:
        return
    situation, candidates, facts = options(looker, seat, full)
    real = truth_of(state)
    results = [evaluate(playout(after(seat, real, candidate), PLAYOUT_ROUNDS), rotation) for candidate in candidates]
    rows = zip(facts, candidates, results, strict=True)
    decisions.append(
        {
            "deal": deal,
            "rotation": rotation,
            "situation": dataclasses.astuple(situation),
            "candidates": [[*dataclasses.astuple(fact), candidate.name, result] for fact, candidate, result in rows],
        }
    )


def collect_deals(job: tuple[int, tuple[int, ...], str]) -> list[str]:
    """JSON lines of every labelled decision in the games of these deals (both seatings)."""
    seed, deals, model = job
    player = LearnedHardBot(load_model(model)) if model else HardRearrangeBot()
    looker = HardRearrangeBot()
    lines: list[str] = []
    for deal in deals:
        for rotation in (0, 1):
            decisions: list[dict[str, Any]] = []
            won = play(player, seed, deal, rotation, before=partial(label, looker, deal, rotation, decisions))
            lines += [json.dumps({**decision, "won": won}) for decision in decisions]
    return lines


def collect(args: argparse.Namespace) -> int:
    deals = tuple(range(args.start, args.start + args.deals))
    chunks = [deals[index : index + 10] for index in range(0, len(deals), 10)]
    started = time.process_time()
    print(f"collect: seed {args.seed}, deals {deals[0]}-{deals[-1]}, model {args.model or 'none (the shipped bot)'}; {time.strftime('%H:%M:%S', time.gmtime())} UTC, load {os.getloadavg()[0]:.2f}", flush=True)
    with ProcessPoolExecutor(args.jobs) as pool, open(args.out, "w") as out:
        count = 0
        for lines in pool.map(collect_deals, [(args.seed, chunk, args.model) for chunk in chunks]):
            out.writelines(line + "\n" for line in lines)
            out.flush()
            count += len(lines)
    print(f"{count} decisions to {args.out}; ended {time.strftime('%H:%M:%S', time.gmtime())} UTC, load {os.getloadavg()[0]:.2f} (parent CPU {time.process_time() - started:.1f} s)")
    return 0


# --- the fit ---------------------------------------------------------------------------------------------


class Row(NamedTuple):
    """One decision read back: the candidates' facts, kinds and results in the file's order (planned first)."""

    situation: Situation
    facts: list[Facts]
    results: list[float]
    group: int  # the deal, told apart by file (the folds hold out whole deals)
    kinds: list[str] = []  # "planned", "greedy", "keep", "hold", "draw"


def read(paths: Sequence[str]) -> list[Row]:
    rows: list[Row] = []
    for number, path in enumerate(paths):
        for line in Path(path).read_text().splitlines():
            data = json.loads(line)
            candidates = data["candidates"]
            rows.append(
                Row(
                    Situation(*data["situation"]),
                    [Facts(*candidate[:5]) for candidate in candidates],
                    [float(candidate[6]) for candidate in candidates],
                    number * 100_000 + int(data["deal"]),
                    [candidate[5].split(" ")[0] for candidate in candidates],
                )
            )
    return rows


def solve_linear(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the matrix is small and, with the ridge, regular).

    >>> [round(value, 9) for value in solve_linear([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0])]
    [0.8, 1.4]
    """
    size = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda index: abs(rows[index][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for index in range(size):
            if index != column and rows[index][column]:
                factor = rows[index][column] / rows[column][column]
                rows[index] = [value - factor * top for value, top in zip(rows[index], rows[column], strict=True)]
    return [rows[index][size] / rows[index][index] for index in range(size)]


def fit(rows: Sequence[Row], ridge: float) -> list[float]:
    """Least squares of each candidate's result less the planned play's on its features, plus `ridge`."""
    size = len(features(rows[0].situation, rows[0].facts[0], rows[0].facts[0]))
    gram = [[0.0] * size for _ in range(size)]
    moment = [0.0] * size
    for situation, facts, results, *_ in rows:
        for fact, result in zip(facts[1:], results[1:], strict=True):
            x = features(situation, fact, facts[0])
            y = result - results[0]
            for i, xi in enumerate(x):
                if xi:
                    moment[i] += xi * y
                    row = gram[i]
                    for j, xj in enumerate(x):
                        row[j] += xi * xj
    for i in range(size):
        gram[i][i] += ridge
    return solve_linear(gram, moment)


def gains(rows: Sequence[Row], model: Model) -> tuple[float, int]:
    """The mean real gain over the planned play of the model's choices, per decision, and how many it changed."""
    total, changed = 0.0, 0
    for situation, facts, results, *_ in rows:
        chosen = model.choose(situation, facts)
        if chosen:
            changed += 1
            total += results[chosen] - results[0]
    return total / max(len(rows), 1), changed


def fit_command(args: argparse.Namespace) -> int:
    rows = read(args.files)
    print(f"{len(rows)} decisions, {sum(len(row.facts) - 1 for row in rows)} candidates beside the planned play")
    by_name: dict[str, list[float]] = {}
    for row in rows:
        for kind, result in zip(row.kinds[1:], row.results[1:], strict=True):
            by_name.setdefault(kind, []).append(result - row.results[0])
    for name, values in sorted(by_name.items()):
        mean = sum(values) / len(values)
        spread = (sum((value - mean) ** 2 for value in values) / max(len(values) - 1, 1)) ** 0.5 / len(values) ** 0.5
        print(f"  {name}: {len(values)} cases, mean against the planned play {mean:+.4f} +- {spread:.4f}")
    margins = [float(margin) for margin in args.margins.split(",")]
    folds = 2
    for fold in range(folds):
        train = [row for row in rows if row.group % folds != fold]
        test = [row for row in rows if row.group % folds == fold]
        weights = fit(train, args.ridge)
        text = ", ".join(
            f"margin {margin}: {gain * 100:+.2f} ({changed})"
            for margin in margins
            for gain, changed in [gains(test, Model(tuple(weights), margin))]
        )
        print(f"fold {fold} (held out {len(test)}): gain per decision in hundredths of a win (decisions changed): {text}")
    weights = fit(rows, args.ridge)
    print("weights:", json.dumps([round(weight, 5) for weight in weights]))
    for margin in margins:
        gain, changed = gains(rows, Model(tuple(weights), margin))
        print(f"in sample, margin {margin}: {gain * 100:+.2f} per decision ({changed} changed)")
    if args.write:
        Path(args.write).write_text(
            json.dumps(
                {
                    "about": "bench/rearrange_policy.py fit: ridge regression of each candidate's result less the planned play's on its features",
                    "data": [Path(name).name for name in args.files],
                    "decisions": len(rows),
                    "ridge": args.ridge,
                    "margin": args.margin,
                    "weights": [round(weight, 6) for weight in weights],
                },
                indent=1,
            )
            + "\n"
        )
        print(f"wrote {args.write} (margin {args.margin})")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    gather = commands.add_parser("collect")
    gather.add_argument("--seed", type=int, default=101)
    gather.add_argument("--start", type=int, default=0)
    gather.add_argument("--deals", type=int, default=100)
    gather.add_argument("--jobs", type=int, default=1)
    gather.add_argument("--model", default="", help="a model written by `fit --write`: the learned choice plays")
    gather.add_argument("--out", required=True)
    fitting = commands.add_parser("fit")
    fitting.add_argument("files", nargs="+")
    fitting.add_argument("--ridge", type=float, default=10.0)
    fitting.add_argument("--margins", default="0,0.02,0.05,0.1")
    fitting.add_argument("--margin", type=float, default=0.05)
    fitting.add_argument("--write", default=None, help="write the model fitted on everything (with --margin) here")
    args = parser.parse_args(argv)
    return collect(args) if args.command == "collect" else fit_command(args)


if __name__ == "__main__":
    raise SystemExit(main())
