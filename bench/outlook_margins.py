"""How often a heuristic estimate's word (likely win, unclear, likely loss) is borne out.

Draws random 6 x 7 positions of 8 to 14 stones (seeded), estimates each
column with the heuristic search (as :func:`connect_four.engine.columns.column_scores`
does where its exact search runs out), solves the same column exactly, and
prints, for each margin, how many estimates at or beyond it were wins,
draws and losses: the measurement behind ``connect_four.engine.outlook``'s
LIKELY_WIN_MARGIN and LIKELY_LOSS_MARGIN.

This is a measurement, not a test: it asserts nothing. Run it as

    python -m bench.outlook_margins [--seconds S] [--seed N]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from connect_four.engine import Game, Rules, SearchAborted
from connect_four.engine.analysis import deepen, solve
from connect_four.engine.budget import now
from connect_four.engine.convert import to_position

MARGINS = (0, 8, 16, 24, 32, 48, 64)


def _result(score: int) -> str:
    return "win" if score > 0 else "loss" if score < 0 else "draw"


def sample(seconds: float, seed: int) -> list[tuple[int, int]]:
    """(estimate, exact score) of each column sampled within ``seconds``, for the player to move."""
    rules = Rules(rows=6, columns=7)
    rng = random.Random(seed)
    pairs: list[tuple[int, int]] = []
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        game = Game(rules)
        for _ in range(rng.choice([8, 10, 12, 14])):
            if game.is_over():
                break
            game.play(rng.choice(game.legal_moves()))
        if game.is_over():
            continue
        for column in game.legal_moves():
            child = game.copy()
            child.play(column)
            if child.is_over():
                continue
            estimate = deepen(to_position(child), 0.05, now() + 5, 0, None)
            if estimate.exact:
                continue
            try:
                exact = solve(child, time_budget=0.3)
            except SearchAborted:
                continue
            pairs.append((-estimate.score, -exact.score))
    return pairs


def main() -> None:
    """Sample, then print one line per margin."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=100.0, help="sampling time (default 100)")
    parser.add_argument("--seed", type=int, default=5, help="seed of the positions (default 5)")
    args = parser.parse_args()
    pairs = sample(args.seconds, args.seed)
    print(f"{len(pairs)} estimated columns")
    for margin in MARGINS:
        high = Counter(_result(exact) for estimate, exact in pairs if estimate >= margin)
        low = Counter(_result(exact) for estimate, exact in pairs if estimate <= -margin)
        print(
            f"margin {margin:3d}: at or above +{margin}: {dict(high)}; "
            f"at or below -{margin}: {dict(low)}"
        )


if __name__ == "__main__":
    main()
