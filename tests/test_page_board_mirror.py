"""The page's win check (service/static/board.js) against the engine's rule, under Node.

The page replays a game's moves to draw it and to say who won; its
``Board.lineThrough`` mirrors :func:`connect_four.engine.lines.winning_lines`.
Random games of several board shapes and chain lengths, played by
:class:`~connect_four.engine.game.Game` to their end, are replayed by the
page's own code in Node (tests/page_board.mjs): both must see the same
winner, the same winning cells, and the end at the same move. The games
hold wins in each of the four directions.
"""

from __future__ import annotations

import json
import random
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from node_support import node_program

from connect_four.engine.game import Game, Status
from connect_four.engine.lines import DIRECTIONS
from connect_four.engine.rules import Rules
from connect_four.service.routers.page import STATIC_FILES

pytestmark = pytest.mark.slow  # a Node process

HARNESS = Path(__file__).with_name("page_board.mjs")

SHAPES = [
    Rules(6, 7),
    Rules(5, 8),
    Rules(4, 4, 3),
    Rules(3, 9, 5),
    Rules(7, 3, 2),
    Rules(2, 2, 1),
    Rules(9, 9, 6),
]

GAMES_PER_SHAPE = 80


def _random_game(rules: Rules, rng: random.Random) -> Game:
    game = Game(rules)
    while not game.is_over():
        game.play(rng.choice(game.legal_moves()))
    return game


def _directions(game: Game) -> set[int]:
    """The directions of the winning lines through the last marker (indexes of DIRECTIONS)."""
    outcome = game.outcome()
    assert outcome is not None
    column = game.moves[-1]
    row = game.height(column) - 1
    return {
        n
        for n, (row_step, column_step) in enumerate(DIRECTIONS)
        if {(row + row_step, column + column_step), (row - row_step, column - column_step)}
        & outcome.cells
    }


def _page_answers(games: list[Game]) -> list[dict[str, object]]:
    cases = [
        {
            "rows": g.rules.rows,
            "columns": g.rules.columns,
            "connect": g.rules.connect,
            "moves": g.moves,
        }
        for g in games
    ]
    done = subprocess.run(
        [node_program(), str(HARNESS)],
        input=json.dumps({"limits": STATIC_FILES["limits.js"][0].decode(), "games": cases}),
        capture_output=True,
        text=True,
        check=True,
    )
    answers: list[dict[str, object]] = json.loads(done.stdout)
    return answers


def test_the_page_sees_the_same_wins_as_the_engine() -> None:
    rng = random.Random(34)
    games = [_random_game(rules, rng) for rules in SHAPES for _ in range(GAMES_PER_SHAPE)]
    answers = _page_answers(games)
    assert len(answers) == len(games)
    directions: Counter[int] = Counter()
    draws = 0
    for game, answer in zip(games, answers, strict=True):
        outcome = game.outcome()
        assert outcome is not None
        expected = {
            "winner": outcome.winner,
            "cells": [list(cell) for cell in sorted(outcome.cells)],
            "over": True,
        }
        assert answer == expected, (game, answer)
        if outcome.status is Status.DRAWN:
            draws += 1
        elif game.rules.connect > 1:
            directions.update(_directions(game))
    # Wins every way, and draws, were compared.
    assert all(directions[n] >= 5 for n in range(len(DIRECTIONS))), directions
    assert draws >= 1
