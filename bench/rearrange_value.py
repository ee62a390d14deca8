"""Benchmark and trainer (issue 18): the learned value of Rearrange positions that the Hard bot chooses by
in two-player games (`apps/engine/rearrange/bots/value.py`; its weights `value.json`).

The play-outs' continuation is the Greedy policy, and on the shipped bot's states no candidate beat its
planned play under that continuation (bench/README.md, "A fitted choice among the candidates"). A value
learned from whole games is a different evaluation: it averages the results of many games, not a few
play-outs of one. The weights in the repository were made by

    .venv/bin/python bench/rearrange_value.py collect --seed 301 --games 4000 --jobs 2 --out /tmp/v301.npz
    .venv/bin/python bench/rearrange_value.py train /tmp/v301.npz          # writes value.json
    .venv/bin/python bench/rearrange_value.py play --seed 1 --deals 100 --jobs 2   # against Greedy

`collect` plays whole two-player games on faces (`rearrange_search.Position`, the play-outs' fast game)
from deals of `Random(f"{seed}:{g}")`: every seat plays the fast policy (the solver's most tiles, table
jokers kept; the best opening), except that after opening, with tiles in the pool, a seat explores with
chance `--explore` (a draw, or a play holding back one of its tiles, half each). After every move it writes
the position the mover left, from the mover's side (`row_of`: the value's `features` with the table's faces
between the rack's and the sizes), and at the end whether that mover won (about 74 positions a game, 0.55 s
of CPU). Deterministic: the same command writes the same file.
`train` fits, in numpy (Adam, cross-entropy, 16 tanh units), first a network of the sizes alone on the
results, then the shipped network (the rack's faces and the sizes) on targets three of the mover's own moves
ahead (`recipe`), and prints held-out log losses (fitted on the even games, scored on the odd) beside a
network of every feature on the results alone. On another machine's BLAS the weights may differ in the last
bits, and so, through training, by more.
`play` runs the Hard bot with a value file against Greedy on `bench/bots.py`'s deals, beside the Hard bot
without the value (`RearrangeWeights(value=False)`: the search near the end) on the same games, and prints
both win rates, the games changed, the points a game and the CPU per move.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from apps.engine.bots.simulate import percentile  # noqa: E402
from apps.engine.rearrange.bots.hard import HardRearrangeBot, RearrangeWeights  # noqa: E402
from apps.engine.rearrange.bots.search import Position, fast_move, play, without  # noqa: E402
from apps.engine.rearrange.bots.value import FACES, WEIGHTS, WIDTH, PositionValue, features  # noqa: E402
from apps.engine.rearrange.bots.view import Faces  # noqa: E402
from apps.engine.rearrange.solver import solve  # noqa: E402
from apps.engine.tiles import full_set, tile_of  # noqa: E402
from bench.rearrange_oracle import play as play_game  # noqa: E402

Table = tuple[Faces, ...]
# The data's columns: the value's features (`features`: the rack's faces, then the sizes) with the table's faces
# between them (written to show what they are worth: nothing the held-out games keep).
COLUMNS = WIDTH + FACES
SIZES = np.arange(2 * FACES, COLUMNS)
READ = np.r_[0:FACES, 2 * FACES : COLUMNS]  # what the shipped value reads: all but the table's faces


def row_of(rack: Faces, table: Table, drew: bool, other: int, pool: int, opened: tuple[bool, bool]) -> np.ndarray:
    """One row of the data: `features` with the table's faces between the rack's and the sizes."""
    values = features(rack, table, drew, other, pool, opened)
    faces = [0.0] * FACES
    for meld in table:
        for tile in meld:
            faces[tile.key] += 1
    return np.array(values[:FACES] + faces + values[FACES:], dtype=np.float32)


# --- collect: whole games on faces ---------------------------------------------------------------------------


def _explored(position: Position, rng: random.Random) -> tuple[Table, Faces] | None:
    """A draw, or the solver's play holding back one of its tiles (at random), for the seat to move."""
    rack = position.racks[position.turn]
    full = solve(position.table, rack, free_jokers=False)
    if full is None:
        return None
    if len(full.placed) == len(rack):
        return (full.table, full.placed)  # it goes out
    if rng.random() < 0.5:
        return None
    numbered = sorted({tile for tile in full.placed if not tile.is_joker}, key=lambda tile: tile.key)
    if not numbered:
        return (full.table, full.placed)
    held = solve(position.table, rack, keep=[rng.choice(numbered)], free_jokers=False)
    return (full.table, full.placed) if held is None else (held.table, held.placed)


def one_game(seed: int, game: int, explore: float) -> tuple[list[np.ndarray], list[float]]:
    """The positions every move of one game left (from the mover's side) and whether that mover won."""
    rng = random.Random(f"{seed}:{game}")
    tiles = [tile_of(tile_id) for tile_id in full_set()]
    rng.shuffle(tiles)
    position = Position((), [tuple(tiles[:14]), tuple(tiles[14:28])], tiles[28:], [False, False], (False, False), 0)
    rows: list[np.ndarray] = []
    movers: list[int] = []
    for _ in range(400):
        if position.over:
            break
        seat = position.turn
        rack = position.racks[seat]
        opened = position.opened[seat]
        if opened and position.pool and rng.random() < explore:
            move = _explored(position, rng)
        else:
            move = fast_move(position.table, rack, opened)
        drew = move is None and bool(position.pool)
        play(position, move)
        left = rack if move is None else without(rack, move[1])
        other = position.racks[1 - seat]
        rows.append(row_of(left, position.table, drew, len(other), len(position.pool), (position.opened[seat], position.opened[1 - seat])))
        movers.append(seat)
    out = position.out
    results = [0.5 if out is None else float(out == mover) for mover in movers]
    return rows, results


def collect_chunk(job: tuple[int, Sequence[int], float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    seed, games, explore = job
    rows: list[np.ndarray] = []
    results: list[float] = []
    groups: list[int] = []
    for game in games:
        game_rows, game_results = one_game(seed, game, explore)
        rows += game_rows
        results += game_results
        groups += [game] * len(game_rows)
    return np.array(rows, dtype=np.float32).reshape(-1, COLUMNS), np.array(results, dtype=np.float32), np.array(groups, dtype=np.int32)


def collect(args: argparse.Namespace) -> int:
    games = list(range(args.start, args.start + args.games))
    chunks = [games[index : index + 50] for index in range(0, len(games), 50)]
    print(f"collect: seed {args.seed}, games {games[0]}-{games[-1]}, explore {args.explore}; {time.strftime('%H:%M:%S', time.gmtime())} UTC, load {os.getloadavg()[0]:.2f}", flush=True)
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for part in pool.map(collect_chunk, [(args.seed, chunk, args.explore) for chunk in chunks]):
            parts.append(part)
            print(f"  {sum(len(p[1]) for p in parts)} positions", flush=True)
    x = np.concatenate([part[0] for part in parts])
    y = np.concatenate([part[1] for part in parts])
    g = np.concatenate([part[2] for part in parts])
    np.savez_compressed(args.out, x=x, y=y, g=g)
    print(f"{len(y)} positions of {len(games)} games to {args.out}; ended {time.strftime('%H:%M:%S', time.gmtime())} UTC, load {os.getloadavg()[0]:.2f}")
    return 0


# --- the value: a small network ------------------------------------------------------------------------------


class Value:
    """The network as numpy arrays (for fitting): features -> tanh units -> the chance the mover wins."""

    def __init__(self, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: float, mean: np.ndarray, scale: np.ndarray) -> None:
        self.w1, self.b1, self.w2, self.b2, self.mean, self.scale = w1, b1, w2, b2, mean, scale

    def __call__(self, x: np.ndarray) -> np.ndarray:
        hidden = np.tanh(((x - self.mean) / self.scale) @ self.w1 + self.b1)
        return np.asarray(1 / (1 + np.exp(-(hidden @ self.w2 + self.b2))))

    def shipped(self) -> PositionValue:
        """The same network for the engine (pure Python floats), reading `READ` of the data's columns (the
        others must be unread: an infinite scale)."""
        assert np.isinf(np.delete(self.scale, READ)).all()
        return PositionValue(
            tuple(float(v) for v in self.mean[READ]),
            tuple(float(v) for v in self.scale[READ]),
            tuple(tuple(float(v) for v in column) for column in self.w1[READ].T),
            tuple(float(v) for v in self.b1),
            tuple(float(v) for v in self.w2),
            float(self.b2),
        )


def fit(x: np.ndarray, y: np.ndarray, hidden: int, epochs: int, seed: int, columns: np.ndarray | None = None) -> Value:
    """Adam on the cross-entropy against `y` (results, or values in 0..1), minibatches of 512, a little weight
    decay; only `columns` of the features if given (the others get an infinite scale: they read as 0)."""
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    scale = (x.std(axis=0) + 1e-3).astype(np.float32)
    if columns is not None:
        mask = np.zeros(x.shape[1], dtype=bool)
        mask[columns] = True
        scale = np.where(mask, scale, np.inf).astype(np.float32)
    z = (x - mean) / scale
    params = [
        rng.normal(0, 1 / np.sqrt(x.shape[1]), (x.shape[1], hidden)).astype(np.float32),
        np.zeros(hidden, np.float32),
        rng.normal(0, 1 / np.sqrt(hidden), hidden).astype(np.float32),
        np.zeros(1, np.float32),
    ]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    step = 0
    for _ in range(epochs):
        order = rng.permutation(len(y))
        for start in range(0, len(y), 512):
            batch = order[start : start + 512]
            inputs, target = z[batch], y[batch]
            w1, b1, w2, b2 = params
            h = np.tanh(inputs @ w1 + b1)
            p = 1 / (1 + np.exp(-(h @ w2 + b2[0])))
            d = (p - target) / len(batch)
            dh = np.outer(d, w2) * (1 - h * h)
            grads = [inputs.T @ dh, dh.sum(axis=0), h.T @ d, np.array([d.sum()], np.float32)]
            step += 1
            for i, grad in enumerate(grads):
                grad = grad + (1e-4 * params[i] if i in (0, 2) else 0)
                moments[i] = 0.9 * moments[i] + 0.1 * grad
                squares[i] = 0.999 * squares[i] + 0.001 * grad * grad
                params[i] = (params[i] - 0.003 * (moments[i] / (1 - 0.9**step)) / (np.sqrt(squares[i] / (1 - 0.999**step)) + 1e-8)).astype(np.float32)
    return Value(params[0], params[1], params[2], float(params[3][0]), mean, scale)


def log_loss(value: Value, x: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(value(x), 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def later(g: np.ndarray, steps: int) -> tuple[np.ndarray, np.ndarray]:
    """For each position, the index of the same mover's position `steps` of its own moves later in the same
    game (two players move in turn), and whether there is one.

    >>> later(np.array([5, 5, 5, 5, 5, 7, 7, 7]), 1)
    (array([2, 3, 4, 5, 6, 7, 8, 9]), array([ True,  True,  True, False, False,  True, False, False]))
    """
    index = np.arange(len(g)) + 2 * steps
    ok = index < len(g)
    ok[ok] &= g[index[ok]] == g[np.arange(len(g))[ok]]
    return index, ok


def recipe(x: np.ndarray, y: np.ndarray, g: np.ndarray, hidden: int, steps: int) -> tuple[Value, Value]:
    """The value shipped: (1) a small network of the sizes alone on the games' results; (2) a network of the
    rack's faces and the sizes (`READ`: the table's faces only let it memorise games) on targets that look
    `steps` of the mover's own moves ahead: the first network's value of the position then, or the result
    where the game ends sooner. The look-ahead targets carry far less noise than one result per game, which
    (with 4,000 games) the rack's faces only learn to memorise."""
    sizes = fit(x, y, hidden, 1, 0, SIZES)
    index, ok = later(g, steps)
    target = y.copy()
    target[ok] = sizes(x).astype(np.float32)[index[ok]]
    return sizes, fit(x, target, hidden, 2, 1, READ)


def train(args: argparse.Namespace) -> int:
    data = [np.load(path) for path in args.files]
    x = np.concatenate([part["x"] for part in data])
    y = np.concatenate([part["y"] for part in data])
    g = np.concatenate([part["g"] + number * 10_000_000 for number, part in enumerate(data)])
    held = g % 2 == 1
    print(f"{len(y)} positions of {len(np.unique(g))} games; mean result {y.mean():.3f}. Log loss against the results, fitted on the even games, held out the odd:")
    sizes, value = recipe(x[~held], y[~held], g[~held], args.hidden, args.steps)
    results = fit(x[~held], y[~held], args.hidden, 2, 1)
    for name, model in (("sizes only, on the results", sizes), ("every feature (the table's faces too), on the results", results), (f"the rack's faces and the sizes, {args.steps} moves ahead (shipped)", value)):
        print(f"  {name}: fitted {log_loss(model, x[~held], y[~held]):.4f}, held out {log_loss(model, x[held], y[held]):.4f}", flush=True)
    _, value = recipe(x, y, g, args.hidden, args.steps)
    payload = {
        "about": "bench/rearrange_value.py train: the Rearrange Hard bot's position value (apps/engine/rearrange/bots/value.py)",
        "data": [Path(path).name for path in args.files],
        "positions": int(len(y)),
        "hidden": args.hidden,
        "steps": args.steps,
        "value": value.shipped().as_json(),
    }
    Path(args.out).write_text(json.dumps(payload) + "\n")
    print(f"wrote {args.out}")
    return 0


# --- play: the value as the Hard bot's choice -------------------------------------------------------------------


def play_chunk(job: tuple[str, int, Sequence[int]]) -> tuple[list[float], list[float], list[float], list[int], list[int]]:
    path, seed, deals = job
    bot = HardRearrangeBot(value=PositionValue.from_json(json.loads(Path(path).read_text())["value"]))
    before = HardRearrangeBot(RearrangeWeights(value=False))
    ours: list[float] = []
    theirs: list[float] = []
    cpu: list[float] = []
    our_points: list[int] = []
    their_points: list[int] = []
    for deal in deals:
        for rotation in (0, 1):
            theirs.append(play_game(before, seed, deal, rotation, points=their_points))
            ours.append(play_game(bot, seed, deal, rotation, cpu, points=our_points))
    return ours, theirs, cpu, our_points, their_points


def play_command(args: argparse.Namespace) -> int:
    deals = list(range(args.start, args.start + args.deals))
    chunks = [deals[index : index + 10] for index in range(0, len(deals), 10)]
    print(f"play: value {args.value}, seed {args.seed}, deals {deals[0]}-{deals[-1]}; {time.strftime('%H:%M:%S', time.gmtime())} UTC, load {os.getloadavg()[0]:.2f}", flush=True)
    ours: list[float] = []
    theirs: list[float] = []
    cpu: list[float] = []
    our_points: list[int] = []
    their_points: list[int] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for part in pool.map(play_chunk, [(args.value, args.seed, chunk) for chunk in chunks]):
            ours += part[0]
            theirs += part[1]
            cpu += part[2]
            our_points += part[3]
            their_points += part[4]
            print(f"  {len(ours)} games: with the value {sum(ours) / len(ours):.2%}, without {sum(theirs) / len(theirs):.2%}", flush=True)
    changed = sum(1 for a, b in zip(ours, theirs, strict=True) if a != b)
    games = len(ours)
    print(
        f"{games} games against Greedy: Hard with the value {sum(ours):.1f} ({sum(ours) / games:.2%}), without it {sum(theirs):.1f} ({sum(theirs) / games:.2%}); "
        f"changed {changed}, net {sum(ours) - sum(theirs):+.1f}; points a game: with {sum(our_points) / games:+.1f}, without {sum(their_points) / games:+.1f}; "
        f"CPU per move with the value p50 {percentile(cpu, 0.5) * 1000:.1f} ms, p99 {percentile(cpu, 0.99) * 1000:.1f} ms; "
        f"ended {time.strftime('%H:%M:%S', time.gmtime())} UTC, load {os.getloadavg()[0]:.2f}"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    gather = commands.add_parser("collect")
    gather.add_argument("--seed", type=int, default=301)
    gather.add_argument("--start", type=int, default=0)
    gather.add_argument("--games", type=int, default=200)
    gather.add_argument("--explore", type=float, default=0.2)
    gather.add_argument("--jobs", type=int, default=1)
    gather.add_argument("--out", required=True)
    fitting = commands.add_parser("train")
    fitting.add_argument("files", nargs="+")
    fitting.add_argument("--hidden", type=int, default=16)
    fitting.add_argument("--steps", type=int, default=3)
    fitting.add_argument("--out", default=str(WEIGHTS))
    playing = commands.add_parser("play")
    playing.add_argument("--value", default=str(WEIGHTS))
    playing.add_argument("--seed", type=int, default=1)
    playing.add_argument("--start", type=int, default=0)
    playing.add_argument("--deals", type=int, default=100)
    playing.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    return {"collect": collect, "train": train, "play": play_command}[args.command](args)


if __name__ == "__main__":
    raise SystemExit(main())
