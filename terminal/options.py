"""The command line of connect.py, read into the settings of one game or match.

Nothing here prints: help and version texts come back as strings for
connect.py to print, because the course's grader sees only connect.py's own
``print``. connect.py imports this module only when there is a command
line to read, so argparse and the solver's levels cost the assignment's
game nothing; the network client is loaded only for a network game. The
settings themselves live in :mod:`connect_four.terminal.settings`, which every module
reads.
"""

from __future__ import annotations

import argparse
import os

from connect_four.engine import EngineError, Game, Rules, __version__, parse_moves
from connect_four.engine.bitboard import layout
from connect_four.engine.exact import MAX_THREADS
from connect_four.engine.solver import LEVELS
from connect_four.engine.table import table_size_for_megabytes

from .errors import UsageError
from .program import program_name, program_words
from .settings import TOKEN_ENVIRONMENT, Settings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "VERSION",
    "MAX_ROWS",
    "MAX_COLUMNS",
    "MAX_GAMES",
    "MAX_MOVES_FILE_BYTES",
    "MAX_TABLE_MEGABYTES",
    "parse_options",
    "read_moves_file",
]

VERSION = __version__
MAX_ROWS = 99
MAX_COLUMNS = 99
MAX_GAMES = 99
# The longest record, 99 x 99 moves of 2 digits and a separator, is 29,403
# bytes: a file far bigger is no record, and is not read into memory whole.
MAX_MOVES_FILE_BYTES = 1 << 20
# --table-mb's most: 16 GiB, a table every board's keys can number (the
# compiled table numbers at most 2**32 - 1 slots of 8 or 16 bytes).
MAX_TABLE_MEGABYTES = 16384


def parse_options(args: list[str]) -> Settings:
    """Read the command line into settings; ``message`` is set for --help and --version.

    Raises:
        UsageError: the command line is not one the game can serve.
    """
    parser = _build_parser()
    try:
        options = parser.parse_args(args)
    except _ParserExit as done:
        raise UsageError(str(done)) from None
    settings = Settings()
    if options.help:
        settings.message = parser.format_help().rstrip("\n")
        return settings
    if options.version:
        settings.message = f"{program_name()} {VERSION}"
        return settings
    default = Rules()
    settings.board_named = options.rows is not None or options.columns is not None
    settings.chain_named = options.connect is not None
    try:
        settings.rules = Rules(
            default.rows if options.rows is None else options.rows,
            default.columns if options.columns is None else options.columns,
            default.connect if options.connect is None else options.connect,
        )
    except EngineError as error:
        raise UsageError(str(error)) from None
    settings.announce = options.announce
    settings.highlight = options.highlight
    settings.color = options.color and not os.environ.get("NO_COLOR")
    # --computer arrives lowercased by its argparse type.
    sides = {"x": frozenset({0}), "o": frozenset({1}), "both": frozenset({0, 1})}
    settings.computer = sides[options.computer] if options.computer else frozenset()
    _refuse_ignored_options(options)
    _read_network_options(options, settings)
    settings.level = options.level
    settings.seed = options.seed
    if options.think is not None:
        settings.think = options.think
    settings.time_limit = options.time_limit
    settings.commands = options.commands
    settings.games = options.games
    settings.hint = options.hint or options.commands
    settings.review = options.review
    settings.thorough = options.thorough
    settings.pause = options.pause
    if options.threads is not None:
        settings.threads = options.threads
    if options.table_mb is not None:
        # The compiled table's slots: 8 bytes, 16 for keys past 64 bits.
        bits = layout(settings.rules).bits
        settings.table_size = table_size_for_megabytes(options.table_mb, key_bits=bits)
    if options.moves_file is not None:
        record: list[int] | str | None = read_moves_file(options.moves_file, settings.rules)
        source = "--moves-file"
    else:
        record, source = options.moves, "--moves"
    if record is not None:
        try:
            settings.moves = Game.from_moves(record, settings.rules).moves
        except EngineError as error:
            raise UsageError(f"{source}: {error}") from None
    return settings


def read_moves_file(path: str, rules: Rules) -> list[int]:
    """The columns recorded in a file: one record per line, or one move per line.

    Lines are read like ``--moves`` and joined, so ``3,3,4``, ``334`` and
    what one pipes into the game (``3``, ``3``, ``4`` on lines of their own)
    all give ``[3, 3, 4]``. Blank lines, line ends (LF or CRLF) and a UTF-8
    byte-order mark are skipped. Whether the moves can be played in turn is
    the caller's check.

    Raises:
        UsageError: the file cannot be read, is too big for a record, or a
            line is not a record; the message names the file and line.
    """
    try:
        with open(path, encoding="utf-8-sig") as file:
            text = file.read(MAX_MOVES_FILE_BYTES + 1)
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read --moves-file {path!r}: {error}") from None
    if len(text) > MAX_MOVES_FILE_BYTES:
        raise UsageError(f"--moves-file {path!r} is too long for a game record")
    moves: list[int] = []
    for number, line in enumerate(text.split("\n"), start=1):
        try:
            moves.extend(parse_moves(line, rules))
        except EngineError as error:
            raise UsageError(f"--moves-file {path!r}, line {number}: {error}") from None
    return moves


def _refuse_ignored_options(options: argparse.Namespace) -> None:
    """Refuse an option that nothing in the asked-for game would use.

    Raises:
        UsageError: e.g. --level without --computer, which would be ignored.
    """
    computer = options.computer is not None
    hint = options.hint or options.commands
    # (option, whether it was given, whether the game uses it, what it needs)
    checks = [
        ("--level", options.level is not None, computer, "--computer"),
        ("--seed", options.seed is not None, computer, "--computer"),
        # The top level (the default) plays no random move.
        (
            "--seed",
            options.seed is not None,
            options.level not in (None, max(LEVELS)),
            f"--level below {max(LEVELS)} (level {max(LEVELS)}, the default, makes no random move)",
        ),
        ("--think", options.think is not None, computer or hint, "--computer or --hint"),
        ("--time-limit", options.time_limit is not None, computer or hint, "--computer or --hint"),
        ("--pause", options.pause is not None, computer, "--computer"),
    ]
    # The exact searches: the top level's moves, the hints and the review.
    perfect = computer and options.level in (None, max(LEVELS))
    searched = perfect or hint or options.review
    needed = f"--computer at level {max(LEVELS)}, --hint, --commands or --review"
    checks += [
        ("--threads", options.threads is not None, searched, needed),
        ("--table-mb", options.table_mb is not None, searched, needed),
    ]
    # With --computer both nobody types: no ? and no commands.
    human = options.computer != "both"
    checks += [
        ("--hint", options.hint, human, "a human player"),
        ("--commands", options.commands, human, "a human player"),
        ("--name", options.name is not None, options.server is not None, "--server"),
        ("--friend", options.friend is not None, options.server is not None, "--server"),
        ("--lobby", options.lobby, options.server is not None, "--server"),
        ("--show-key", options.show_key, options.lobby, "--lobby"),
        ("--casual", options.casual, options.lobby, "--lobby"),
        ("--seek-colour", options.seek_colour is not None, options.lobby, "--lobby"),
        ("--token", options.token is not None, options.join is not None, "--join"),
        ("--clock", options.clock is not None, options.server is not None, "--server"),
    ]
    checks += _review_checks(options)
    for option, given, used, needed in checks:
        if given and not used:
            raise UsageError(f"{option} does nothing without {needed}")


def _review_checks(options: argparse.Namespace) -> list[tuple[str, bool, bool, str]]:
    """The refusal table's rows for --review and --thorough (see _refuse_ignored_options).

    Without --commands, --review reviews the recorded moves and plays no
    game, so the options of a game in play would be ignored.
    """
    recorded = options.moves is not None or options.moves_file is not None
    playing = not options.review or options.commands
    rows = [
        (
            "--review",
            options.review,
            recorded or options.commands,
            "--moves, --moves-file or --commands",
        ),
        (
            "--thorough",
            options.thorough,
            options.hint or options.commands or options.review,
            "--hint, --commands or --review",
        ),
    ]
    for option, given in [
        ("--computer", options.computer is not None),
        ("--hint", options.hint),
        ("--games", options.games != 1),
        ("--announce", options.announce),
        ("--highlight", options.highlight),
        ("--color", options.color),
    ]:
        rows.append(
            (option, given, playing, "--commands when --review is given (no game is played)")
        )
    return rows


def _read_network_options(options: argparse.Namespace, settings: Settings) -> None:
    """Fill in the network game --server or --join asks for; refuse what it cannot use.

    Raises:
        UsageError: a malformed URL or name, or an option a network game
            would ignore (the computer, --games, a starting position...).
    """
    creating, joining = options.server is not None, options.join is not None
    watching = options.watch is not None
    if creating and joining:
        raise UsageError("--server and --join cannot be used together")
    if watching and (creating or joining):
        raise UsageError("--watch follows a game without playing: not with --server or --join")
    if not (creating or joining or watching):
        return
    for option, given in [
        ("--computer", options.computer is not None),
        ("--hint", options.hint),
        # In a game it plays, --commands asks for a rematch at the end (network_game).
        ("--commands", options.commands and watching),
        # The review of a game played to its end is a local game's (--moves).
        ("--review", options.review),
        ("--games", options.games != 1),
        ("--moves", options.moves is not None),
        ("--moves-file", options.moves_file is not None),
    ]:
        if given:
            raise UsageError(f"{option} cannot be used in a network game")
    # Deferred for start-up speed: the client loads urllib, and only a
    # network game needs it.
    from .network import is_shown_safely, parse_join_url, parse_server_url, parse_watch_url

    try:
        if watching:
            settings.network, game_id = parse_watch_url(options.watch)
            settings.watching = game_id
            return
        if joining:
            address = parse_join_url(options.join)
            settings.network = address.base
            settings.joining = (address.game_id, address.player)
            settings.token = options.token or os.environ.get(TOKEN_ENVIRONMENT) or None
            return
        settings.network = parse_server_url(options.server)
    except ValueError as error:
        option = "--watch" if watching else "--join" if joining else "--server"
        raise UsageError(f"{option}: {error}") from None
    if options.clock is not None:
        settings.clock = parse_clock(options.clock)
    if options.lobby and options.friend is not None:
        raise UsageError("--friend cannot be used with --lobby: the lobby finds the other player")
    settings.lobby = options.lobby
    settings.show_key = options.show_key
    settings.rated = not options.casual
    settings.seek_colour = options.seek_colour or "random"
    settings.name_given = options.name is not None
    players = (options.name or "player1", options.friend or "player2")
    for option, name in zip(("--name", "--friend"), players, strict=True):
        if not 1 <= len(name) <= 100 or "/" in name or not is_shown_safely(name):
            raise UsageError(f"{option}: a name is 1 to 100 printable characters, no '/'")
    if players[0] == players[1]:
        raise UsageError("--name and --friend must differ")
    settings.players = players


def parse_clock(text: str) -> dict[str, float]:
    """The time control of ``--clock``: ``M+I`` (minutes, seconds a move) or ``Nd`` (days a move).

    >>> parse_clock("5+3"), parse_clock("10"), parse_clock("2d")
    ({'minutes': 5.0, 'increment': 3.0}, {'minutes': 10.0, 'increment': 0.0}, {'days': 2})

    Raises:
        UsageError: anything else, or numbers out of the service's range.
    """
    problem = UsageError(
        f"--clock {text!r}: give minutes and an increment in seconds (5+3, 1 to 600 each; "
        "the increment 0 to 600) or days a move (2d, 1 to 60)"
    )
    if text.endswith("d"):
        days = text[:-1]
        if not (days.isascii() and days.isdigit() and 1 <= int(days) <= 60):
            raise problem
        return {"days": int(days)}
    minutes, _, increment = text.partition("+")
    try:
        clock = {"minutes": float(minutes), "increment": float(increment or "0")}
    except ValueError:
        raise problem from None
    if not (0 < clock["minutes"] <= 600 and 0 <= clock["increment"] <= 600):
        raise problem
    return clock


class _ParserExit(Exception):
    """argparse wanted to print and exit; we report its message ourselves."""


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors raised: one line on stderr and status 2 is main()'s job."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _ParserExit(message)


def whole_number_between(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number in ASCII digits from ``low`` to ``high``."""

    def convert(text: str) -> int:
        if not text.isascii() or not text.isdigit():
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not between {low} and {high}")
        return value

    return convert


def seconds_between(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a number of seconds from ``low`` to ``high``."""

    def convert(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} is not between {low:g} and {high:g} seconds")
        return value

    return convert


def _build_parser() -> argparse.ArgumentParser:
    """The whole command line: the help's text, then each group of options."""
    parser = _Parser(
        prog=program_name(),
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
            "  {run}\n"
            "  {run} --rows 6 --columns 7 --announce --highlight\n"
            "  {run} --columns 12 --connect 5\n"
            "  {run} --moves 3,3,4 --announce\n"
            "  {run} --computer O --level 3 --hint\n"
            "  {run} --computer both --pause 0.5\n"
            "  {run} --color --computer O\n"
            "  {run} --computer O --commands\n"
            "  {run} --games 3 --announce\n"
            "  {run} --moves-file saved_game.txt\n"
            "  {run} --rows 6 --columns 7 --moves 3,3,4,2 --review\n"
            "  {run} --server http://192.168.1.20:8080 --name ann --friend bob\n"
            "  {run} --join http://192.168.1.20:8080/drop_token/GAME_ID/bob "
            "--token TOKEN\n"
            "  {run} --watch http://192.168.1.20:8080/drop_token/GAME_ID"
        ).format(run=" ".join(program_words())),
    )
    parser.add_argument("-h", "--help", action="store_true", help="show this help and exit")
    parser.add_argument("--version", action="store_true", help="show the version and exit")
    for add_group in (
        _add_board_options,
        _add_display_options,
        _add_computer_options,
        _add_search_options,
        _add_review_and_match_options,
        _add_start_options,
        _add_network_options,
    ):
        add_group(parser)
    return parser


def _add_board_options(parser: argparse.ArgumentParser) -> None:
    """--rows, --columns, --connect; each left out is the assignment's (the engine's default)."""
    default = Rules()
    board = parser.add_argument_group("board")
    board.add_argument(
        "--rows",
        type=whole_number_between(1, MAX_ROWS),
        metavar="R",
        help=f"rows of the grid, 1-{MAX_ROWS} (default {default.rows})",
    )
    board.add_argument(
        "--columns",
        type=whole_number_between(1, MAX_COLUMNS),
        metavar="C",
        help=f"columns of the grid, 1-{MAX_COLUMNS} (default {default.columns})",
    )
    board.add_argument(
        "--connect",
        type=whole_number_between(1, max(MAX_ROWS, MAX_COLUMNS)),
        metavar="N",
        help=f"markers in a row that win, at most the longer side (default {default.connect})",
    )


def _add_display_options(parser: argparse.ArgumentParser) -> None:
    """--announce, --highlight, --color."""
    show = parser.add_argument_group("display")
    show.add_argument(
        "--announce",
        action="store_true",
        help="after the game, name the winner or the tie, and print the moves that replay it",
    )
    show.add_argument(
        "--highlight",
        action="store_true",
        help="play with lowercase x and o; show the winning line in uppercase",
    )
    show.add_argument(
        "--color",
        "--colour",
        action="store_true",
        help="draw X's discs red and O's yellow, the winning line in "
        "reverse video (ANSI colours; none while NO_COLOR is set)",
    )


def _add_computer_options(parser: argparse.ArgumentParser) -> None:
    """The computer opponent, hints and in-game commands."""
    opponent = parser.add_argument_group("computer opponent")
    opponent.add_argument(
        "--computer",
        type=str.lower,
        choices=["x", "o", "both"],
        metavar="X|O|both",
        help="the computer plays X, O, or both sides (to watch)",
    )
    opponent.add_argument(
        "--level",
        type=whole_number_between(1, max(LEVELS)),
        metavar="L",
        help=f"the computer's strength, 1 (beginner) to {max(LEVELS)} "
        f"(perfect where the position can be solved in time; "
        f"the default)",
    )
    opponent.add_argument(
        "--seed", type=int, metavar="S", help="seed the computer's random choices, to replay a game"
    )
    opponent.add_argument(
        "--think",
        type=seconds_between(0.01, 60),
        metavar="SECONDS",
        help="the computer's work per move, as seconds of search on "
        "a quiet machine (default 1); the same position always "
        "gets the same move, however busy the machine",
    )
    opponent.add_argument(
        "--time-limit",
        type=seconds_between(0.01, 60),
        metavar="SECONDS",
        help="a hard limit on the computer's time per move; its "
        "moves then depend on how busy the machine is",
    )
    opponent.add_argument(
        "--hint",
        action="store_true",
        help="let a player type ? for the solver's suggested column, ?? for "
        "the score of every column",
    )
    opponent.add_argument(
        "--commands",
        action="store_true",
        help="let a player type u to undo (against the computer, back "
        "to their previous turn), q to quit, ? for a hint, ?? for "
        "every column's score, h to list these (in a network game: "
        "offer or accept a rematch at the end)",
    )
    opponent.add_argument(
        "--pause",
        type=seconds_between(0, 60),
        metavar="SECONDS",
        help="show each computer move at least SECONDS after the move "
        "before it (default: 1 when the computer plays both sides "
        "and the output is a terminal, else 0)",
    )
    opponent.add_argument(
        "--thorough",
        action="store_true",
        help="let ?, ?? and --review take their time: ten times the search "
        "of a plain hint a position, to settle every column exactly where they can",
    )


def _add_search_options(parser: argparse.ArgumentParser) -> None:
    """--threads and --table-mb, for the exact search."""
    search = parser.add_argument_group(
        "exact search",
        "For the computer's moves at the top level, ?, ?? and --review.",
    )
    search.add_argument(
        "--threads",
        type=whole_number_between(1, MAX_THREADS),
        metavar="N",
        help=f"search with N threads on one table, 1-{MAX_THREADS} (default "
        f"1); the scores stay exact, but a move or score settled "
        f"near its budget may vary from run to run past 1",
    )
    search.add_argument(
        "--table-mb",
        type=whole_number_between(1, MAX_TABLE_MEGABYTES),
        metavar="M",
        help=f"the table of positions searched, in MiB, 1-"
        f"{MAX_TABLE_MEGABYTES}, at 8 bytes a slot (16 on boards "
        f"over 64 bits, 9 in pure Python); default 64 MiB of 8-byte "
        f"slots; the most a search takes, less for a short one; each "
        f"thread adds 2 MiB for the positions near the leaves",
    )


def _add_review_and_match_options(parser: argparse.ArgumentParser) -> None:
    """--review and --games."""
    review = parser.add_argument_group("review")
    review.add_argument(
        "--review",
        action="store_true",
        help="review the game of --moves or --moves-file (or, with "
        "--commands, the game played): each move's score, the best "
        "available, and a verdict, then a summary per player",
    )
    series = parser.add_argument_group("match")
    series.add_argument(
        "--games",
        type=whole_number_between(1, MAX_GAMES),
        default=1,
        metavar="N",
        help=f"play N games in a row (1-{MAX_GAMES}), the sides swapping X "
        f"and O each game, with the score after each",
    )


def _add_start_options(parser: argparse.ArgumentParser) -> None:
    """--moves or --moves-file: the starting position."""
    start = parser.add_argument_group("starting position")
    record = start.add_mutually_exclusive_group()
    record.add_argument(
        "--moves",
        metavar="LIST",
        help="start after these moves, columns from 0 separated by commas, e.g. 3,3,4",
    )
    record.add_argument(
        "--moves-file",
        metavar="FILE",
        help="start after the moves written in FILE: the same format, "
        "or one column a line as typed in a game",
    )


def _add_network_options(parser: argparse.ArgumentParser) -> None:
    """A game on the drop-token service: --server, --join, --watch and their names and token."""
    network = parser.add_argument_group(
        "network game",
        "Play a friend on another machine through the drop-token service\n"
        "(python -m connect_four.service). --server creates the game, you play X, and prints\n"
        "the one command your friend runs to join it; moves survive a restart\n"
        "of the service. Ctrl-C quits the game on the server too.",
    )
    network.add_argument(
        "--server",
        metavar="URL",
        help="create a game on the service at URL and print the command that joins it",
    )
    network.add_argument(
        "--name",
        metavar="NAME",
        help="your name in the game --server creates (default player1), or with --lobby "
        "the name to register when this computer keeps no key for the service",
    )
    network.add_argument(
        "--friend", metavar="NAME", help="your friend's name in that game (default player2)"
    )
    network.add_argument(
        "--join",
        metavar="URL",
        help="play the game and player named by URL, as --server printed "
        "it: SERVER/drop_token/GAME_ID/PLAYER",
    )
    network.add_argument(
        "--watch",
        metavar="URL",
        help="follow a game live without playing: each move and grid as it "
        "comes, then who won (URL: SERVER/drop_token/GAME_ID)",
    )
    network.add_argument(
        "--clock",
        metavar="M+I",
        help="with --server: a clock the service keeps, M minutes each plus I seconds a "
        "move (5+3), or Nd for N days a move; a player out of time loses",
    )
    network.add_argument(
        "--lobby",
        action="store_true",
        help="with --server: the service's lobby instead of a new game: accept an open "
        "challenge, open one, or play someone now (your key is kept in "
        "$XDG_CONFIG_HOME/connect-four/players.json; $CONNECT_FOUR_KEY overrides it)",
    )
    network.add_argument(
        "--casual",
        action="store_true",
        help="with --lobby: your challenges and pairings are unrated (rated by default)",
    )
    network.add_argument(
        "--seek-colour",
        choices=("X", "O", "random"),
        help="with --lobby: the colour your challenges ask for (X moves first; default random)",
    )
    network.add_argument(
        "--show-key",
        action="store_true",
        help="with --lobby: show your secret key for the service, to use it on another device",
    )
    network.add_argument(
        "--token",
        metavar="TOKEN",
        help=f"the joining player's secret, as --server printed it (default: ${TOKEN_ENVIRONMENT})",
    )
