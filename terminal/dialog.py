"""The dialog's fixed strings and the helpers that word it, shared by the local and network game.

A leaf: it imports only the engine, none of its siblings. Every string here
is the assignment's (the prompt, the invalid-move line, ``Game finished.``)
or an option's that must read the same in every kind of game.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from connect_four.engine import Game

__all__ = ["MARKERS", "PROMPT", "FINISHED", "typed_line", "invalid_move", "ending"]

# Players are numbered 0 (moves first) and 1; these are their names and letters.
MARKERS = "XO"
PROMPT = "Enter a column: "
FINISHED = "Game finished."


def typed_line(text: str | None) -> str:
    """An answer to the prompt as the game reads it.

    A line from a CRLF file keeps its carriage return: one is dropped.

    >>> typed_line("3\\r"), typed_line(None)
    ('3', '')
    """
    text = text or ""
    return text[:-1] if text.endswith("\r") else text


def invalid_move(game: Game) -> str:
    """The assignment's answer to a line that plays no move in ``game``."""
    return f"Invalid move. Enter a column number (0-{game.rules.columns - 1})."


def ending(game: Game, *, final_grid: str | None, announce: bool) -> list[str]:
    """The lines after ``game`` ended: its final grid (None after a quit), and --announce's.

    >>> from connect_four.engine import Game
    >>> ending(Game.from_moves("0,1,0,1,0,1,0"), final_grid=None, announce=True)
    ['Game finished.', 'X wins.', 'Moves: 0,1,0,1,0,1,0']
    """
    outcome = game.outcome()
    assert outcome is not None
    lines = [] if final_grid is None else ["\n" + final_grid]
    lines.append(FINISHED)
    if announce:
        if outcome.winner is None:
            lines.append("The game is a tie.")
        else:
            lines.append(f"{MARKERS[outcome.winner]} wins.")
        lines.append(f"Moves: {game.moves_string()}")
    return lines
