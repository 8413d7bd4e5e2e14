"""Connect Four in the terminal: BYU CS110 "Project 4 - Connect Four".

Run with no arguments for the assignment's game, byte for byte: 5 rows,
8 columns, X then O, four in a row wins. Options (``--help``) change the
board and add extras; none changes the default output.

Every byte shown goes through this module's own ``print`` and ``input``:
the course's grader runs this file with those two names replaced. The
engine only computes and returns strings.
"""

from __future__ import annotations

import sys

from engine import EngineError, Game, Rules, parse_column, render

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    import random
    from collections.abc import Callable

VERSION = "1.0.0"
PROMPT = "Enter a column: "
# Players are numbered 0 (moves first) and 1; these are their markers.
MARKERS = "XO"
MAX_ROWS = 99
MAX_COLUMNS = 99


class Settings:
    """What the command line asked for; the defaults are the assignment's game."""

    def __init__(self) -> None:
        self.rules = Rules()
        self.announce = False
        self.highlight = False
        self.moves: list[int] = []
        # Players the computer moves for, its level (None: the top level),
        # the seed of its random choices, and its thinking time per move.
        self.computer: frozenset[int] = frozenset()
        self.level: int | None = None
        self.seed: int | None = None
        self.think = 1.0
        self.hint = False


class UsageError(Exception):
    """The command line asks for something the game cannot do."""


def main(argv: list[str] | None = None) -> int:
    """Play one game; return the exit status (0 when the game finished)."""
    args = sys.argv[1:] if argv is None else argv
    _read_input_exactly()
    try:
        # argparse is imported only when there is something to parse: the
        # assignment's game starts as fast as the bare interpreter allows.
        settings = _parse_options(args) if args else Settings()
    except UsageError as error:
        print(f"connect.py: error: {error}", file=sys.stderr)
        return 2
    if settings is None:
        return 0
    try:
        play(settings)
    except EOFError:
        print("connect.py: input ended before the game finished", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        # The cursor may sit after the prompt: end that line on stderr.
        print("\nconnect.py: game interrupted", file=sys.stderr)
        return 130
    return 0


def play(settings: Settings) -> None:
    """Run the game loop until the game is won or drawn."""
    game = Game(settings.rules)
    for column in settings.moves:
        game.play(column)
    markers = MARKERS.lower() if settings.highlight else MARKERS
    invalid = f"Invalid move. Enter a column number (0-{game.rules.columns - 1})."
    computer = _Computer(settings) if settings.computer or settings.hint else None
    while True:
        outcome = game.outcome()
        if outcome is not None:
            break
        print("\n" + render(game, markers=markers))
        player = game.to_move or 0
        print(f"{markers[player]}'s turn")
        if computer is not None and player in settings.computer:
            column = computer.move(game)
            print(f"Computer plays {column}.")
            game.play(column)
            continue
        while True:
            text = input(PROMPT)
            # A line from a CRLF file keeps its carriage return: drop one.
            if text.endswith("\r"):
                text = text[:-1]
            if text == "?" and computer is not None and settings.hint:
                print(computer.hint(game))
                continue
            try:
                game.play(parse_column(text, game.rules))
                break
            except EngineError:
                print(invalid)
    highlighted = outcome.cells if settings.highlight else frozenset()
    print("\n" + render(game, markers=markers, highlight=highlighted))
    print("Game finished.")
    if settings.announce:
        if outcome.winner is None:
            print("The game is a tie.")
        else:
            print(f"{MARKERS[outcome.winner]} wins.")
        print(f"Moves: {game.moves_string()}")


class _Computer:
    """The solver behind ``--computer`` and ``--hint``, imported only when asked for."""

    def __init__(self, settings: Settings) -> None:
        import random

        from engine import solver

        self._solver = solver
        self._think = settings.think
        self._level = max(solver.LEVELS) if settings.level is None else settings.level
        self._rng: random.Random = random.Random(settings.seed)

    def move(self, game: Game) -> int:
        """The column the computer plays for the player to move."""
        return self._solver.choose_move(
            game, self._level, rng=self._rng, time_budget=self._think
        )

    def hint(self, game: Game) -> str:
        """The solver's suggestion and evaluation for the player to move, as a line."""
        analysis = self._solver.analyse(game, time_budget=self._think)
        if not analysis.exact:
            verdict = (
                f"an estimate from {analysis.depth} moves ahead: "
                + ("you stand better" if analysis.score > 0
                   else "you stand worse" if analysis.score < 0 else "even")
            )
        elif analysis.score > 0:
            verdict = "you can force a win"
        elif analysis.score < 0:
            verdict = "with best play you lose; this holds out longest"
        else:
            verdict = "with best play the game is a draw"
        return f"Hint: play {analysis.move} ({verdict})."


def _parse_options(args: list[str]) -> Settings | None:
    """Read the command line; None when it only asked for help or the version."""
    parser = _build_parser()
    try:
        options = parser.parse_args(args)
    except _ParserExit as done:
        raise UsageError(str(done)) from None
    if options.help:
        print(parser.format_help().rstrip("\n"))
        return None
    if options.version:
        print(f"connect.py {VERSION}")
        return None
    settings = Settings()
    try:
        settings.rules = Rules(options.rows, options.columns, options.connect)
    except EngineError as error:
        raise UsageError(str(error)) from None
    settings.announce = options.announce
    settings.highlight = options.highlight
    sides = {"x": {0}, "o": {1}, "both": {0, 1}}
    settings.computer = frozenset(sides[options.computer.lower()]) if options.computer else frozenset()
    settings.level = options.level
    settings.seed = options.seed
    settings.think = options.think
    settings.hint = options.hint
    record = options.moves
    if options.moves_file is not None:
        try:
            with open(options.moves_file, encoding="utf-8") as file:
                record = file.read()
        except (OSError, UnicodeDecodeError) as error:
            raise UsageError(f"cannot read --moves-file {options.moves_file!r}: {error}") from None
    if record is not None:
        try:
            settings.moves = Game.from_moves(record, settings.rules).moves
        except EngineError as error:
            raise UsageError(f"--moves: {error}") from None
    return settings


class _ParserExit(Exception):
    """argparse wanted to print and exit; we report its message ourselves."""


def _build_parser() -> argparse.ArgumentParser:
    import argparse

    class Parser(argparse.ArgumentParser):
        # One line on stderr and status 2 is main()'s job, not argparse's.
        def error(self, message: str) -> None:  # type: ignore[override]
            raise _ParserExit(message)

    def board_size(limit: int) -> Callable[[str], int]:
        def convert(text: str) -> int:
            if not text.isascii() or not text.isdigit():
                raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
            value = int(text)
            if not 1 <= value <= limit:
                raise argparse.ArgumentTypeError(f"{value} is not between 1 and {limit}")
            return value

        return convert

    from engine.solver import LEVELS

    top_level = max(LEVELS)
    level = board_size(top_level)

    def seconds(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
        if not 0.01 <= value <= 60:
            raise argparse.ArgumentTypeError(f"{text} is not between 0.01 and 60 seconds")
        return value

    parser = Parser(
        prog="connect.py",
        add_help=False,
        formatter_class=lambda prog: argparse.RawDescriptionHelpFormatter(prog, width=78),
        description=(
            "Connect Four for two players at one terminal. X moves first; each\n"
            "turn, type the number of a column and your marker drops to its lowest\n"
            "free cell. Four in a row across, up or diagonally wins; a full grid\n"
            "with no winner is a tie. With no options this is the BYU CS110 game:\n"
            "5 rows, 8 columns."
        ),
        epilog=(
            "examples:\n"
            "  python3 connect.py\n"
            "  python3 connect.py --rows 6 --columns 7 --announce --highlight\n"
            "  python3 connect.py --columns 12 --connect 5\n"
            "  python3 connect.py --moves 3,3,4 --announce\n"
            "  python3 connect.py --computer O --level 3 --hint"
        ),
    )
    parser.add_argument("-h", "--help", action="store_true", help="show this help and exit")
    parser.add_argument("--version", action="store_true", help="show the version and exit")
    board = parser.add_argument_group("board")
    board.add_argument("--rows", type=board_size(MAX_ROWS), default=5, metavar="R",
                       help=f"rows of the grid, 1-{MAX_ROWS} (default 5)")
    board.add_argument("--columns", type=board_size(MAX_COLUMNS), default=8, metavar="C",
                       help=f"columns of the grid, 1-{MAX_COLUMNS} (default 8)")
    board.add_argument("--connect", type=board_size(max(MAX_ROWS, MAX_COLUMNS)), default=4,
                       metavar="N",
                       help="markers in a row that win, at most the longer side (default 4)")
    show = parser.add_argument_group("display")
    show.add_argument("--announce", action="store_true",
                      help="after the game, name the winner or the tie, and print the "
                           "moves that replay it")
    show.add_argument("--highlight", action="store_true",
                      help="play with lowercase x and o; show the winning line in "
                           "uppercase")
    opponent = parser.add_argument_group("computer opponent")
    opponent.add_argument("--computer", type=str.lower, choices=["x", "o", "both"],
                          metavar="X|O|both",
                          help="the computer plays X, O, or both sides (to watch)")
    opponent.add_argument("--level", type=level, metavar="L",
                          help=f"the computer's strength, 1 (beginner) to {top_level} "
                               f"(perfect where the position can be solved in time; "
                               f"the default)")
    opponent.add_argument("--seed", type=int, metavar="S",
                          help="seed the computer's random choices, to replay a game")
    opponent.add_argument("--think", type=seconds, default=1.0, metavar="SECONDS",
                          help="the computer's thinking time per move (default 1)")
    opponent.add_argument("--hint", action="store_true",
                          help="let a player type ? for the solver's suggested column")
    start = parser.add_argument_group("starting position")
    record = start.add_mutually_exclusive_group()
    record.add_argument("--moves", metavar="LIST",
                        help="start after these moves, columns from 0 separated by "
                             "commas, e.g. 3,3,4")
    record.add_argument("--moves-file", metavar="FILE",
                        help="start after the moves written in FILE (same format)")
    return parser


def _read_input_exactly() -> None:
    """Make piped lines reach the game as written.

    Bytes that are not UTF-8 arrive as an invalid move instead of a crash, and
    only ``\n`` ends a line: by default a lone ``\r`` would split one, and
    ``3\r\r`` would pass as ``3`` and an empty line.
    """
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(errors="surrogateescape", newline="\n")
        except (OSError, ValueError):
            pass


if __name__ == "__main__":
    status = main()
    # A finished game just returns: the grader's harness fails any sys.exit().
    if status:
        sys.exit(status)
