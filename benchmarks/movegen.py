"""Legal-play generation speed: bgboard beside gnubg_nn.moves and OpenSpiel's backgammon.

Rates are in CPU time of this process (time.process_time), so other load on the machine
disturbs them little. The fixed set is 20,000 (position, roll) pairs met in OpenSpiel's own
random self-play (seeded), so all three generators run on the same positions in one run:

    python benchmarks/movegen.py [--positions 20000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import re
import time

from bgboard.engine.board import BLACK, WHITE, Position
from bgboard.engine.moves import legal_boards, legal_plays, mover_board


def openspiel_positions(n: int, seed: int):
    """(OpenSpiel state, our Position, dice) at each decision of seeded random games."""
    import pyspiel

    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)
    out = []
    state = game.new_initial_state()
    while len(out) < n:
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            pos, dice = _convert(state)
            out.append((state.clone(), pos, dice))
            state.apply_action(rng.choice(state.legal_actions()))
    return out


def _convert(state) -> tuple[Position, tuple[int, int]]:
    """OpenSpiel's o (player 1) is White: its point i+1 is board index i; x is Black."""
    text = str(state)
    points = tuple(state.board(1, i) - state.board(0, i) for i in range(24))
    bar = re.search(r"Bar:(.*)", text).group(1)
    dice = tuple(int(c) for c in re.search(r"Dice: (\d+)", text).group(1))
    turn = WHITE if state.current_player() == 1 else BLACK
    return Position(points, bar.count("o"), bar.count("x"), turn), (dice[0], dice[-1])


def rate(label: str, calls, work) -> float:
    start = time.process_time()
    for call in calls:
        work(call)
    per_second = len(calls) / (time.process_time() - start)
    print(f"{label:<38}{per_second:>12,.0f} positions/s")
    return per_second


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sample = openspiel_positions(args.positions, args.seed)
    plays = sum(len(legal_plays(pos, dice)) for _, pos, dice in sample)
    print(f"{len(sample):,} positions from OpenSpiel self-play (seed {args.seed}), "
          f"{plays:,} legal plays in all")
    plays_rate = rate("bgboard legal_plays (Play objects)", sample,
                      lambda s: legal_plays(s[1], s[2]))
    boards_rate = rate("bgboard legal_boards (end boards)",
                       [(mover_board(p), d) for _, p, d in sample],
                       lambda s: legal_boards(s[0], *s[1]))
    spiel = rate("OpenSpiel legal_actions (C++)", [s for s, _, _ in sample],
                 lambda s: s.legal_actions())
    try:
        import gnubg_nn
    except ImportError:
        print("gnubg_nn.moves: not installed (pip install gnubg-nn)")
    else:
        boards = [(p.to_gnubg(), d) for _, p, d in sample]
        rate("gnubg_nn.moves (C)", boards, lambda s: gnubg_nn.moves(s[0], *s[1]))
    print(f"bgboard / OpenSpiel: end boards {boards_rate / spiel:.2f}, Play objects "
          f"{plays_rate / spiel:.2f} (aim: at least 0.33)")


if __name__ == "__main__":
    main()
