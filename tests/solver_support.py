"""What the solver tests share: the backend fixture, the Pons sample, random quiet positions."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from ci_support import unavailable

from connect_four.engine.accelerator import (
    PURE_PYTHON_VARIABLE,
    Backend,
    accelerator,
    wide_accelerator,
)
from connect_four.engine.bitboard import Position
from connect_four.engine.convert import to_position
from connect_four.engine.game import Game
from connect_four.engine.rules import Rules

SAMPLE = Path(__file__).parent / "data" / "pons_sample.txt"

NOT_BUILT = (
    "the accelerator connect_four.engine._native is not built: `pip install -e .` builds it "
    "with the machine's C compiler"
)

WIDE_NOT_BUILT = (
    "the accelerator connect_four.engine._native128 (boards of 65 to 128 bits) is not built: "
    "`pip install -e .` builds it where the C compiler has unsigned __int128"
)

NO_INT128 = (
    "this C compiler has no unsigned __int128: connect_four.engine._native128 cannot be built"
)


def pons_sample() -> list[tuple[str, list[int], int]]:
    """(set, 0-based moves, score) of each line of the copied Pons sample."""
    cases = []
    for line in SAMPLE.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, digits, score = line.split()
        cases.append((name, [int(d) - 1 for d in digits], int(score)))
    return cases


def require_accelerator() -> None:
    """Skip without the accelerator on a developer's machine; fail in CI (CI=true)."""
    if accelerator() is None:
        unavailable(NOT_BUILT)


def require_wide_accelerator() -> None:
    """The same for the 128-bit search, which only a compiler with __int128 can build.

    The 64-bit module, built by the same compiler, tells whether it has one:
    only then does a missing 128-bit module fail in CI.
    """
    require_accelerator()
    if wide_accelerator() is None:
        narrow = accelerator()
        assert narrow is not None
        if not narrow.COMPILER_HAS_INT128:
            pytest.skip(NO_INT128)
        unavailable(WIDE_NOT_BUILT)


@pytest.fixture(params=["python", "native"])
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Backend:
    """Each exact-search backend in turn, also as the one "auto" solvers pick.

    The environment variable that forces pure Python is set for "python" and
    cleared for "native", so solve(), analyse() and the levels follow too.
    """
    name: Backend = request.param
    if name == "native":
        require_accelerator()
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1" if name == "python" else "0")
    return name


class SteppingClock:
    """A ``time`` stand-in whose clock advances ``step`` seconds at every read.

    The searches read the clock every few hundred nodes, so ``step`` sets
    how slow the machine looks, whatever its real load: a test cannot race.
    """

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def monotonic(self) -> float:
        self.now += self.step
        return self.now


def quiet_position(rules: Rules, rng: random.Random, empty: int) -> Position | None:
    """A position with ``empty`` empty cells, reached by random moves that end nothing.

    Random play on a wide board with a short chain is almost always won long
    before the board fills up; here a move that wins is never played, and a
    dead end (every move wins) takes back moves until another way opens.
    None if that costs more than a few plays a cell.
    """
    game = Game(rules)
    plays = 0

    def extend() -> bool:
        nonlocal plays
        if rules.cells - len(game.moves) <= empty:
            return True
        columns = game.legal_moves()
        rng.shuffle(columns)
        for column in columns:
            plays += 1
            if plays > 10 * rules.cells:
                return False
            game.play(column)
            if not game.is_over() and extend():
                return True
            game.pop()
        return False

    return to_position(game) if extend() else None
