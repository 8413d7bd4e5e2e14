"""How the players' discs look on the terminal: letters, case and ANSI colour.

connect_four.engine.render draws any marker strings it is given; the terminal's choices
(lowercase while playing for --highlight, colour for --color, the winning
line picked out or not) live here.
"""

from __future__ import annotations

from connect_four.engine import render

from .dialog import MARKERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from connect_four.engine import Game

    from .settings import Settings

__all__ = ["RESET", "DISC_COLOURS", "WINNING", "Discs"]

RESET = "\x1b[0m"
# Bold red and bold yellow, the two colours of the boxed game's discs; both
# read on dark and light backgrounds.
DISC_COLOURS = ("\x1b[1;31m", "\x1b[1;33m")
# The winning line in reverse video: a block of the player's colour.
WINNING = "\x1b[7m"


class Discs:
    """The markers to draw for each player, during play and in the winning line.

    >>> Discs(highlight=True, color=False).playing
    ['x', 'o']
    >>> Discs(highlight=False, color=True).winning[0] == "\\x1b[1;31m\\x1b[7mX\\x1b[0m"
    True
    """

    def __init__(self, *, highlight: bool, color: bool) -> None:
        letters = MARKERS.lower() if highlight else MARKERS
        winners = MARKERS
        if color:
            self.playing = [f"{DISC_COLOURS[p]}{letter}{RESET}" for p, letter in enumerate(letters)]
            self.winning = [
                f"{DISC_COLOURS[p]}{WINNING}{letter}{RESET}" for p, letter in enumerate(winners)
            ]
        else:
            self.playing = list(letters)
            self.winning = list(winners)
        # Whether the final grid picks out the winning cells at all: without
        # colour or --highlight they look like every other disc.
        self.marks_winner = highlight or color

    @classmethod
    def of(cls, settings: Settings) -> Discs:
        """The discs a game's settings ask for (``--highlight``, ``--color``)."""
        return cls(highlight=settings.highlight, color=settings.color)

    def final_grid(self, game: Game) -> str:
        """The grid of a game that ended, its winning cells picked out when asked for."""
        outcome = game.outcome()
        highlighted = outcome.cells if outcome is not None and self.marks_winner else frozenset()
        return render(
            game, markers=self.playing, highlight=highlighted, highlight_markers=self.winning
        )
