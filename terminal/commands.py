"""In-game commands typed at the prompt instead of a column: u, q, ?, ?? and h.

They work only when --commands turns them on; ? and ?? also with --hint. This
module acts on the game and returns the lines to show; connect.py prints
them, as the course's grader sees only its ``print``, and loads this module
only when a command can be typed.
"""

from __future__ import annotations

from connect_four.engine import Game

from .dialog import MARKERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Collection

__all__ = [
    "UNDO",
    "QUIT",
    "HINT",
    "SCORES",
    "HELP",
    "INTRODUCTION",
    "HELP_TEXT",
    "Reply",
    "answer",
    "command_for",
    "moves_to_undo",
]

UNDO = "undo"
QUIT = "quit"
HINT = "hint"
SCORES = "scores"
HELP = "help"
_KEYS = {"u": UNDO, "q": QUIT, "?": HINT, "??": SCORES, "h": HELP}

INTRODUCTION = "Commands: u undo, q quit, ? hint, ?? scores, h help."
HELP_TEXT = "\n".join(
    [
        "Type a column number to drop your disc there, or a command:",
        "  u  undo the last move (against the computer, back to your previous turn)",
        "  q  quit the game",
        "  ?  hint: the solver's suggested column and how the game stands",
        "  ?? the score of every column you can play",
        "  h  this list",
    ]
)


def command_for(text: str) -> str | None:
    """The command a typed line names (either case), or None for anything else.

    >>> command_for("u"), command_for("Q"), command_for("3"), command_for("undo")
    ('undo', 'quit', None, None)
    """
    return _KEYS.get(text.lower())


def moves_to_undo(game: Game, start: int, humans: Collection[int]) -> int:
    """How many moves ``u`` takes back; 0 when there is nothing to undo.

    The computer's replies since the last human move go, then that move,
    so the same human is to move again. Moves before ``start`` (the
    position the game began from) are never taken back.

    >>> game = Game.from_moves("3,4,2")
    >>> moves_to_undo(game, 0, humans={0, 1})   # two players: the last move
    1
    >>> moves_to_undo(game, 0, humans={1})      # O against the computer
    2
    >>> moves_to_undo(game, 2, humans={1})      # O's only move is the start
    0
    """
    history = game.history
    count = 0
    for move in reversed(history[start:]):
        count += 1
        if move.player in humans:
            return count
    return 0


class Reply:
    """What to show after a typed line, and whether the player's turn is over.

    ``quitter`` is the player who quit with ``q``, else None.
    """

    __slots__ = ("lines", "turn_over", "quitter")

    def __init__(
        self, lines: list[str], turn_over: bool = False, quitter: int | None = None
    ) -> None:
        self.lines = lines
        self.turn_over = turn_over
        self.quitter = quitter


def answer(
    text: str,
    game: Game,
    *,
    commands: bool = False,
    hint: Callable[[Game], str] | None = None,
    scores: Callable[[Game], list[str]] | None = None,
    start: int = 0,
    humans: Collection[int] = (0, 1),
) -> Reply | None:
    """Do on ``game`` what a typed command asks; None when ``text`` is no command.

    With ``commands`` the keys of :func:`command_for` act (``u`` never undoes
    the first ``start`` moves, and stops at a move of one of ``humans``);
    ``?`` asks ``hint``, when given, for a line, and ``??`` asks ``scores``
    for the lines scoring every column. Anything else is left to the caller:
    a column number, or an invalid move.

    >>> game = Game.from_moves("3")
    >>> answer("u", game) is None
    True
    >>> answer("u", game, commands=True).lines, game.moves
    (['Undone: X in column 3.'], [])
    >>> answer("?", game, hint=lambda game: "Hint: play 3.").lines
    ['Hint: play 3.']
    >>> answer("??", game, scores=lambda game: ["Scores: 3:+1"]).lines
    ['Scores: 3:+1']
    """
    command = command_for(text) if commands else None
    if text == "?" and hint is not None:
        return Reply([hint(game)])
    if text == "??" and scores is not None:
        return Reply(scores(game))
    if command == HELP:
        return Reply([HELP_TEXT])
    if command == UNDO:
        count = moves_to_undo(game, start, humans)
        if not count:
            return Reply(["Nothing to undo."])
        taken = [game.pop() for _ in range(count)]
        undone = ", ".join(f"{MARKERS[move.player]} in column {move.column}" for move in taken)
        return Reply([f"Undone: {undone}."], turn_over=True)
    if command == QUIT:
        player = game.to_move or 0
        game.quit(player)
        return Reply([f"{MARKERS[player]} quits."], turn_over=True, quitter=player)
    return None
