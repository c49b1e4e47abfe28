"""Tutor engines: speed of ranking every play, and how good the builtin fallback is.

    python benchmarks/tutor.py [--positions 500] [--timing 100] [--seed 7]
    python benchmarks/tutor.py --fit      # refit the builtin weights (prints them)

Speed: wall time of `rank()` (all legal plays of a position and roll) per adapter and ply,
on self-play positions. Quality: the builtin's average equity loss per play, judged by gnubg
(the CLI adapter) at 2-ply: for each position, gnubg's 2-ply equity of gnubg's best play
minus gnubg's 2-ply equity of the builtin's choice (a random legal play and gnubg-nn's 0-ply
choice are judged the same way, for scale). Positions come from games where each
play is gnubg-nn's 0-ply choice with probability --greedy, otherwise a random legal play.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from bgboard.engine.analysis import installed, open_analyzer
from bgboard.engine.board import START, Position
from bgboard.engine.moves import legal_plays


def game_positions(n: int, seed: int, greedy: float) -> list[tuple[Position, tuple[int, int]]]:
    """`n` (position, roll) pairs with at least two legal plays, from seeded games."""
    rng = random.Random(seed)
    guide = open_analyzer("gnubg-nn") if greedy else None
    out: list[tuple[Position, tuple[int, int]]] = []
    pos = START if rng.random() < 0.5 else START.swap_turn()
    while len(out) < n:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(pos, dice)
        if len(plays) > 1:
            out.append((pos, dice))
        if not plays:
            pos = pos.swap_turn()
            continue
        pos = (guide.rank(pos, dice)[0].play if guide and rng.random() < greedy
               else rng.choice(plays)).position
        if pos.winner() is not None:
            pos = START if rng.random() < 0.5 else START.swap_turn()
    return out


def timing(samples, engines: list[str]) -> None:
    print("| engine | ply | ms per position (mean) | ms (max) |")
    print("|---|---|---|---|")
    for name in engines:
        with open_analyzer(name) as engine:
            for ply in sorted({0, min(2, engine.max_ply)}):
                times = []
                for pos, dice in samples:
                    start = time.perf_counter()
                    engine.rank(pos, dice, ply)
                    times.append(1000 * (time.perf_counter() - start))
                print(f"| {name} | {ply} | {statistics.mean(times):.1f} | {max(times):.1f} |")


def losses(samples, seed: int) -> None:
    """Equity lost per play against gnubg 2-ply: the builtin, and for scale a random legal
    play and gnubg-nn at 0-ply."""
    rng = random.Random(seed)
    pickers = {"builtin": open_analyzer("builtin"), "gnubg-nn 0-ply": open_analyzer("gnubg-nn")}
    lost: dict[str, list[float]] = {name: [] for name in [*pickers, "random play"]}
    with open_analyzer("gnubg") as judge:
        for pos, dice in samples:
            ranked = judge.rank(pos, dice, 2)
            top = judge.judge(ranked[0].play, 2).equity
            choices = {name: engine.rank(pos, dice)[0].play for name, engine in pickers.items()}
            choices["random play"] = rng.choice(legal_plays(pos, dice))
            for name, play in choices.items():
                equity = top if play.position == ranked[0].play.position else \
                    judge.judge(play, 2).equity
                lost[name].append(max(top - equity, 0.0))
    print(f"equity loss per play against gnubg 2-ply, {len(samples)} positions:")
    print("| player | average loss | median | plays losing nothing | blunders (> 0.12) |")
    print("|---|---|---|---|---|")
    for name, values in lost.items():
        print(f"| {name} | {statistics.mean(values):.4f} | {statistics.median(values):.4f} | "
              f"{sum(v == 0 for v in values)} | {sum(v > 0.12 for v in values)} |")


def fit(n: int, seed: int) -> None:
    """Least-squares fit of the builtin's three models to gnubg-nn 0-ply chances."""
    import numpy as np

    from bgboard.engine.analysis.builtin import FEATURES, features
    from bgboard.engine.analysis.cube import is_race

    teacher = open_analyzer("gnubg-nn")
    samples = game_positions(n, seed, greedy=0.7)
    x = np.array([features(pos) for pos, _ in samples])
    probs = np.array([teacher.evaluate(pos).as_tuple() for pos, _ in samples])
    win = np.clip(probs[:, 0], 0.005, 0.995)
    targets = {"WIN": np.log(win / (1 - win)), "WIN_GAMMON": probs[:, 1],
               "LOSE_GAMMON": probs[:, 3]}
    contact = x[:, 2 * len(FEATURES) + 1] == 1
    for name, target in targets.items():
        print(f"{name} = {{")
        for kind, rows in (("contact", contact), ("race", ~contact))[: 1 if name == "WIN" else 2]:
            weights = np.linalg.lstsq(x[rows], target[rows], rcond=None)[0]
            print(f'    "{kind}": ({", ".join(f"{w:.4f}" for w in weights)}),')
        print("}")
    fit_race([pos for pos, _ in samples if is_race(pos)], teacher)


def fit_race(races, teacher) -> None:
    """Grid search of the builtin's race formula (a, b, c) for the least mean error."""
    from bgboard.engine.analysis.builtin import race_win

    truth = [(p.pips(p.turn), p.pips(p.turn.other), teacher.evaluate(p).win) for p in races]
    grid = [(a / 2, math.exp(b / 10), c / 20) for a in range(4, 13) for b in range(-30, 1)
            for c in range(10, 19)]

    def error(race):
        return statistics.mean(abs(race_win(x, o, race) - w) for x, o, w in truth)

    best = min(grid, key=error)
    print(f"RACE = ({best[0]:.1f}, {best[1]:.4f}, {best[2]:.2f})  "
          f"# {len(truth)} races, mean error {error(best):.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--timing", type=int, default=100, help="positions timed per engine")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--greedy", type=float, default=0.5)
    parser.add_argument("--fit", action="store_true")
    args = parser.parse_args()
    if args.fit:
        fit(20000, 1)
        return
    samples = game_positions(args.positions, args.seed, args.greedy)
    print(f"engines installed: {', '.join(installed())}")
    timing(samples[: args.timing], installed())
    losses(samples, args.seed)


if __name__ == "__main__":
    main()
