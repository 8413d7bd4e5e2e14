"""What the command line asked for: the settings of one game or match, read by every module.

A leaf: it imports only the engine's rules, none of its siblings, so the
parser (connect_four.terminal.options) fills these in and the session, the computer and
the network game read them without importing one another. The defaults
are the assignment's game.

Who moves for each marker is ``Settings.computer`` (the computer),
``Settings.network`` (a friend playing over the drop-token service, with
``--server`` or ``--join``; with ``--watch`` both sides are played
elsewhere) or else a person at this terminal.
"""

from __future__ import annotations

from connect_four.engine import Rules

__all__ = ["TOKEN_ENVIRONMENT", "Settings"]

# Where --join finds the player's token when --token is not given: an
# environment variable stays out of the process list.
TOKEN_ENVIRONMENT = "CONNECT_FOUR_TOKEN"  # noqa: S105 (a variable's name, no secret)


class Settings:
    """What the command line asked for; the defaults are the assignment's game.

    A plain class, not a dataclass: ``dataclasses`` (through ``inspect``)
    would add about half again to the assignment's start-up.
    """

    def __init__(self) -> None:
        self.rules = Rules()
        # Whether the command line named the board (--rows or --columns):
        # a network game whose service tells another board refuses it.
        self.board_named = False
        # Whether it named the chain (--connect): likewise.
        self.chain_named = False
        self.announce = False
        self.highlight = False
        # ANSI colours: asked for with --color, and NO_COLOR not set.
        self.color = False
        self.moves: list[int] = []
        # Players the computer moves for, its level (None: the top level),
        # the seed of its random choices, its work per move (seconds of
        # search on a quiet machine) and an optional hard limit per move.
        self.computer: frozenset[int] = frozenset()
        self.level: int | None = None
        self.seed: int | None = None
        self.think = 1.0
        self.time_limit: float | None = None
        # Whether ? asks for a hint (--hint, and --commands includes it).
        self.hint = False
        # In-game commands u, q, ?, h (--commands).
        self.commands = False
        # A review of the game's moves (--review), and hints and reviews
        # that take their time (--thorough).
        self.review = False
        self.thorough = False
        # The exact searches of the computer, the hints and the review:
        # threads on one table (--threads; more than 1 gives up identical
        # node counts, see connect_four.engine.levels.choose_move) and the table's slots
        # (--table-mb, converted; None: the engine's default).
        self.threads = 1
        self.table_size: int | None = None
        # Games in a row, sides swapping markers each game (--games).
        self.games = 1
        # Seconds between the computer's moves, or None: 1 s when it plays
        # both sides at a terminal, none otherwise (see pause_seconds).
        self.pause: float | None = None
        # A network game: the drop-token service's base URL (--server, or
        # the service of --join's game), else None. --server creates a game
        # for ``players`` (this terminal's first, playing X); --join plays
        # the game id and player name of ``joining`` with ``token``.
        self.network: str | None = None
        self.players = ("player1", "player2")
        self.joining: tuple[str, str] | None = None
        self.token: str | None = None
        # --clock on --server: the game's time control as the service takes
        # it ({"minutes": 5, "increment": 3} or {"days": 2}), else None.
        self.clock: dict[str, float] | None = None
        # --lobby on --server: find a game in the service's lobby (the key
        # file's player, or a new one named --name when given), and
        # --show-key: show that player's key instead; --casual: its challenges
        # and pairings unrated; --seek-colour: the colour its challenges ask for.
        self.lobby = False
        self.show_key = False
        self.rated = True
        self.seek_colour = "random"
        self.name_given = False
        # --watch: the id of the game followed without playing, else None.
        self.watching: str | None = None
        # Text to show instead of playing (--help, --version), or None.
        self.message: str | None = None

    def pause_seconds(self, at_terminal: bool) -> float:
        """How long each computer move waits after the previous move.

        --pause wins; without it the computer playing both sides waits a
        second when someone watches (standard output is a terminal), and no
        pipe or test is ever slowed.
        """
        if self.pause is not None:
            return self.pause
        return 1.0 if at_terminal and self.computer == {0, 1} else 0.0
