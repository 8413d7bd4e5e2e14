"""The example bot: a lobby player that is a program, with the engine or any ConnectX agent.

Run ``python -m connect_four.terminal.bot --server URL`` (installed:
``connect-four-bot``). It makes itself a player with ``bot: true`` on first
use and keeps the key in the key file (:mod:`connect_four.terminal.player_keys`),
then finds games as a person does, through the same API: it accepts open
challenges (the default), opens its own (``--seek``) or asks to play someone
now (``--pair``). It plays each game through the drop-token routes with the
game's token, waiting for the other's moves with the service's long poll,
which also keeps it counted present. Its moves come from the project's
engine at a level (``--level``, as ``connect.py --computer``) or from a
Kaggle ConnectX agent (``--agent FILE.py``, any file defining
``agent(observation, configuration) -> int``).

It answers the other player's offers (:meth:`Bot.answer_offer`): a
takeback is always declined; a draw is accepted unless the engine, searching
as the bot's level does (:func:`accepts_draw`), finds the bot better off. When
a game ends it waits ``--rematch-wait`` seconds (15 by default; 0: never) for
the other player's rematch offer and accepts it. In a game with a clock it
thinks at most :func:`move_budget` seconds a move, less than ``--think`` once
its time runs short.

Unlike connect.py it is a program of its own, not the course's game: it
prints its progress (never its key) with ``print``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import random
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

from connect_four.engine import EngineError, Game, Rules
from connect_four.engine.analysis import analyse, deepen, position_of
from connect_four.engine.budget import deadline_for, now
from connect_four.engine.outlook import LIKELY_WIN_MARGIN
from connect_four.engine.solver import LEVELS, choose_move

from .errors import NetworkError, ServerUnreachable, ServiceRefused, UsageError
from .lobby import LOBBY_WAIT, LobbyClient, Ticket
from .network import FriendStatus, GameAddress, RemoteMove, parse_server_url
from .options import parse_clock
from .player_keys import KeyFileError, StoredPlayer, read_player, save_player

__all__ = [
    "RETRY_SECONDS",
    "REMATCH_WAIT",
    "MIN_THINK",
    "AgentError",
    "BotError",
    "EngineMover",
    "AgentMover",
    "load_agent",
    "accepts_draw",
    "move_budget",
    "Bot",
    "main",
]

RETRY_SECONDS = 60.0
"""How long a service that does not answer is retried before the bot gives up."""

REMATCH_WAIT = 15.0
"""Seconds the bot waits, after a game, for the other player's rematch offer (``--rematch-wait``)."""

MIN_THINK = 0.05
"""The least a move is given to think, however short the clock (the network takes its part too)."""

MOVES_LEFT = 20
"""The moves a clock's time left is shared among: a move thinks at most that share of it."""

Result = TypeVar("Result")
Arguments = ParamSpec("Arguments")

Mover = Callable[[Game, float], int]
"""What picks the bot's column in a game (the player to move is the bot), in at most the seconds given."""

_LEVEL_DEPTH = {1: 1, 2: 1, 3: 2, 4: 4}
"""How deep each level below the top looks ahead when it judges a draw offer."""


class BotError(Exception):
    """The bot cannot go on: the message is the one line it prints on stderr."""


class AgentError(BotError):
    """A ConnectX agent cannot be loaded, failed, or answered a column it cannot play."""


class EngineMover:
    """The project's engine at ``level`` (1 to 5), thinking ``think`` seconds a move at most."""

    def __init__(self, level: int, think: float, seed: int | None = None) -> None:
        self.level = level
        self.think = think
        self._rng = random.Random(seed)

    def __call__(self, game: Game, think: float | None = None) -> int:
        """The engine's column; ``think`` seconds at most (the mover's own when None)."""
        seconds = self.think if think is None else think
        return choose_move(game, self.level, rng=self._rng, time_budget=seconds, time_limit=seconds)


class _Struct(dict[str, object]):
    """Kaggle's ``Struct``: a dict whose keys read as attributes too, as agents expect."""

    def __getattr__(self, name: str) -> object:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


class AgentMover:
    """A Kaggle ConnectX agent: ``agent(observation, configuration) -> int`` asked each move.

    The observation is Kaggle's: ``board`` flat, top row first, 0 empty, 1
    and 2 the marks (1 moves first), ``mark`` the agent's; the configuration
    has ``rows``, ``columns``, ``inarow`` and ``actTimeout``.

    >>> mover = AgentMover(lambda observation, configuration: observation.mark, 1.0)
    >>> mover(Game.from_moves("0"))  # O moves: its mark is 2
    2
    """

    def __init__(self, agent: Callable[[object, object], object], think: float) -> None:
        self.agent = agent
        self.think = think

    def __call__(self, game: Game, think: float | None = None) -> int:
        """The agent's column, asked with ``think`` seconds as its ``actTimeout`` (its own when None)."""
        seconds = self.think if think is None else think
        rules = game.rules
        board = [0 if cell is None else cell + 1 for row in game.grid() for cell in row]
        mark = (game.to_move or 0) + 1
        observation = _Struct(board=board, mark=mark, step=len(game.moves),
                              remainingOverageTime=60)  # fmt: skip
        configuration = _Struct(rows=rules.rows, columns=rules.columns, inarow=rules.connect,
                                actTimeout=seconds, timeout=seconds,
                                episodeSteps=rules.rows * rules.columns + 1)  # fmt: skip
        try:
            column = self.agent(observation, configuration)
        except Exception as error:  # the agent's own failure, whatever it is
            raise AgentError(f"the agent failed: {type(error).__name__}: {error}") from None
        if isinstance(column, bool) or not isinstance(column, int) or not game.can_play(column):
            raise AgentError(f"the agent answered {column!r}, not a column it can play")
        return column


def load_agent(source: str) -> Callable[[object, object], object]:
    """The ``agent`` function of a ConnectX agent: a file (``my_agent.py``) or a module's name.

    Kaggle's rule: the file's last callable named ``agent``, or, without one,
    its last function.

    Raises:
        AgentError: no such file or module, it fails to load, or it has no function.
    """
    path = Path(source)
    try:
        if source.endswith(".py") or path.exists():
            spec = importlib.util.spec_from_file_location(f"connectx_agent_{path.stem}", path)
            if spec is None or spec.loader is None:
                raise AgentError(f"--agent {source!r} is not a Python file")
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        else:
            module = importlib.import_module(source)
    except AgentError:
        raise
    except Exception as error:  # an agent's file may fail in any way while it loads
        raise AgentError(
            f"--agent {source!r} does not load: {type(error).__name__}: {error}"
        ) from None
    agent = getattr(module, "agent", None)
    if callable(agent):
        return agent  # type: ignore[no-any-return]
    functions = [value for value in vars(module).values() if callable(value)
                 and getattr(value, "__module__", None) == module.__name__]  # fmt: skip
    if not functions:
        raise AgentError(f"--agent {source!r} defines no agent(observation, configuration)")
    return functions[-1]  # type: ignore[no-any-return]


def accepts_draw(game: Game, me: int, level: int, think: float) -> bool:
    """Whether the bot (player ``me``) accepts a draw offered in ``game``: yes unless it is better off.

    Judged as the bot's level plays: the top level (and an agent, judged as
    the top level) with the engine's analysis (opening book, exact search,
    heuristic) in ``think`` seconds; the levels below with the heuristic
    search as deep as each looks ahead. Better off: a win proven, or an
    estimate the engine calls a likely win (:data:`LIKELY_WIN_MARGIN`).

    >>> opening = Game.from_moves("3", Rules(rows=6, columns=7))  # X (0) in the centre: X wins
    >>> accepts_draw(opening, 0, 5, 0.5), accepts_draw(opening, 1, 5, 0.5)
    (False, True)
    """
    if level >= max(LEVELS):
        analysis = analyse(game, time_budget=think, time_limit=think)
    else:
        deadline = deadline_for(now(), think, think)
        analysis = deepen(position_of(game), think, deadline, 0, _LEVEL_DEPTH[level])
    score = analysis.score if game.to_move == me else -analysis.score
    better = score > 0 if analysis.exact else score >= LIKELY_WIN_MARGIN
    return not better


def move_budget(think: float, left: float | None, increment: float = 0.0) -> float:
    """Seconds the next move may think: ``think``, or less once the clock's ``left`` runs short.

    A :data:`MOVES_LEFT`-th of the time left plus most of the increment,
    never under :data:`MIN_THINK`; without a clock (``left`` None), ``think``.

    >>> move_budget(1.0, None), move_budget(1.0, 300.0), move_budget(1.0, 10.0, 0.0)
    (1.0, 1.0, 0.5)
    >>> move_budget(1.0, 0.2), move_budget(5.0, 10.0, 2.0)
    (0.05, 2.1)
    """
    if left is None:
        return think
    return max(MIN_THINK, min(think, left / MOVES_LEFT + 0.8 * increment))


class Bot:
    """One bot player on one service: it finds games and plays them with ``mover``.

    ``say`` shows a line of progress (print by default).
    """

    def __init__(
        self,
        client: LobbyClient,
        name: str,
        mover: Mover,
        options: dict[str, object],
        say: Callable[[str], None] = print,
        *,
        level: int = max(LEVELS),
        think: float = 1.0,
        rematch_wait: float = REMATCH_WAIT,
    ) -> None:
        self.client = client
        self.name = name
        self.mover = mover
        self.options = options
        self.say = say
        self.level = level  # how draw offers are judged (accepts_draw)
        self.think = think  # seconds a move at most, the clock's share permitting
        self.rematch_wait = rematch_wait
        self.played: set[str] = set()

    def run(self, mode: str, games: int) -> None:
        """Find and play games (``accept``, ``seek`` or ``pair``) until ``games`` are played (0: forever)."""
        while games == 0 or len(self.played) < games:
            ticket: Ticket | None = self._unfinished_game() or self._find_game(mode)
            while ticket is not None:
                self.play(ticket)
                if games and len(self.played) >= games:
                    return
                ticket = self.rematch(ticket)

    def play(self, ticket: Ticket) -> None:
        """Play the game of ``ticket`` to its end."""
        if ticket.token is None:
            raise BotError(f"the service gave no token for game {ticket.game_id}")
        self.played.add(ticket.game_id)
        me = ticket.players.index(ticket.you)
        other = ticket.players[1 - me]
        self.say(f"Game {ticket.game_id} against {other}: {self.name} plays {'XO'[me]}.")
        address = GameAddress(self.client.base, ticket.game_id, ticket.you)
        rules = Rules(ticket.rows, ticket.columns, ticket.connect, allow_unwinnable=True)
        game = Game(rules)
        status = patiently(self.client.read_status, address, ticket.token)
        while True:
            ended = self._catch_up(game, ticket.game_id)
            done = status is not None and status.done
            if ended is not None or game.is_over() or done:
                self.say(self._ending(game, ticket, ended))
                return
            if status is not None and status.offer is not None and status.offer[1] != ticket.you:
                think = self._budget(ticket, status)
                self.answer_offer(game, me, address, ticket.token, status.offer[0], think)
                status = patiently(self.client.read_status, address, ticket.token)
                if status is not None and status.moves < len(game.moves):
                    game = Game(rules)  # taken back after all (not by the bot): replay
                continue
            if game.to_move == me:
                if not self._move(game, address, ticket, status):
                    # Refused as over (a flag fell, a draw was claimed): the service says how.
                    status = patiently(self.client.read_status, address, ticket.token)
                    if status is None or not status.done:
                        raise BotError(f"game {ticket.game_id} refuses the bot's moves")
                continue
            if status is not None:
                since = status.version
                status = patiently(
                    self.client.read_status, address, ticket.token, since, LOBBY_WAIT
                )
                if status is not None and status.moves < len(game.moves):
                    game = Game(rules)  # a takeback: replay the move list from its start
            else:  # a service without games between friends: wait on the move list
                patiently(self.client.read_moves, ticket.game_id, len(game.moves), LOBBY_WAIT)

    def answer_offer(
        self,
        game: Game,
        me: int,
        address: GameAddress,
        token: str | None,
        kind: str,
        think: float | None = None,
    ) -> None:
        """Answer the other player's offer: a takeback declined, a draw as :func:`accepts_draw` says
        (judged in ``think`` seconds, :attr:`think` when None).

        An offer gone meanwhile (withdrawn, or the game over) is left so.
        """
        seconds = self.think if think is None else think
        accept = kind == "draw" and accepts_draw(game, me, self.level, seconds)
        if self._answer(address, token, accept) is None:
            return
        self.say(f"{'Accepted' if accept else 'Declined'} a {kind} in game {address.game_id}.")

    def rematch(self, ticket: Ticket) -> Ticket | None:
        """The rematch of the finished game of ``ticket``, if its other player offers one in time.

        Waits :attr:`rematch_wait` seconds for the offer (pushed, the status's
        long poll) and accepts it; the new game has the colours swapped, the
        same board, clock and token.
        """
        if self.rematch_wait <= 0 or ticket.token is None:
            return None
        address = GameAddress(self.client.base, ticket.game_id, ticket.you)
        deadline = time.monotonic() + self.rematch_wait
        status = patiently(self.client.read_status, address, ticket.token)
        while status is not None:
            if status.offer is not None and status.offer[0] == "rematch":
                if status.offer[1] != ticket.you:
                    return self._accept_rematch(ticket, address)
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            status = patiently(self.client.read_status, address, ticket.token, status.version, left)
        return None

    def _answer(
        self, address: GameAddress, token: str | None, accept: bool
    ) -> dict[str, object] | None:
        """Answer the other player's offer; the service's answer, None if the offer is gone
        meanwhile (withdrawn, or the game over: 409)."""
        try:
            answer = patiently(
                self.client.friend_request, address, token, "answer", {"accept": accept}
            )
        except ServiceRefused as refusal:
            if refusal.status != 409:
                raise
            return None
        return answer

    def _accept_rematch(self, ticket: Ticket, address: GameAddress) -> Ticket | None:
        made = self._answer(address, ticket.token, True)
        if made is None:
            return None  # withdrawn meanwhile
        game_id = made.get("rematch")
        if not isinstance(game_id, str):
            raise BotError(f"the service made no rematch of game {ticket.game_id}")
        self.say(f"Accepted a rematch of game {ticket.game_id}: game {game_id}.")
        return Ticket(
            {
                "gameId": game_id,
                "players": ticket.players[::-1],
                "you": ticket.you,
                "token": ticket.token,
                "pool": ticket.pool,
                "rated": ticket.rated,
                "rows": ticket.rows,
                "columns": ticket.columns,
                "connect": ticket.connect,
                "clock": ticket.clock,
            }
        )

    def _move(
        self, game: Game, address: GameAddress, ticket: Ticket, status: FriendStatus | None
    ) -> bool:
        """Play the mover's column; False if the service says the game is over meanwhile."""
        token = ticket.token
        try:
            column = self.mover(game, self._budget(ticket, status))
        except AgentError as error:
            self.say(f"{error}: the bot quits game {address.game_id}")
            patiently(self.client.quit, address, token, secrets.token_hex(16))
            raise
        key = secrets.token_hex(16)  # the same key on a retry: the move is played once
        try:
            patiently(self.client.post_move, address, column, token, key)
        except ServiceRefused as refusal:
            if refusal.code in ("game_done", "game_over"):
                return False
            raise
        game.play(column)
        return True

    def _budget(self, ticket: Ticket, status: FriendStatus | None) -> float:
        """Seconds the bot may think now: :attr:`think`, less as its clock runs short."""
        left = None if status is None else status.clocks.get(ticket.you)
        increment = float((ticket.clock or {}).get("increment", 0.0))
        return move_budget(self.think, left, increment)

    def _catch_up(self, game: Game, game_id: str) -> RemoteMove | None:
        """Play the moves the service has and the game not yet; the move that ended it, if a quit."""
        while True:
            moves = patiently(self.client.read_moves, game_id, len(game.moves))
            if not moves:
                return None
            for move in moves:
                if move.column is None:
                    return move
                game.play(move.column)

    def _ending(self, game: Game, ticket: Ticket, ended: RemoteMove | None) -> str:
        if ended is not None:
            how = {"TIMEOUT": "ran out of time", "ABANDONED": "left and lost"}
            return (
                f"Game {ticket.game_id} over: {ended.player} {how.get(ended.reason or '', 'quit')}."
            )
        outcome = game.outcome()
        if outcome is None:
            return f"Game {ticket.game_id} over (agreed or claimed on the service)."
        if outcome.winner is None:
            return f"Game {ticket.game_id} over: a draw."
        return f"Game {ticket.game_id} over: {ticket.players[outcome.winner]} won."

    def _unfinished_game(self) -> Ticket | None:
        """A running game of the bot's it has not played yet (a restart, a seek accepted meanwhile)."""
        return self.client.new_game(patiently(self.client.my_lobby), self._unplayed)

    def _unplayed(self, ticket: Ticket) -> bool:
        """Whether ``ticket`` is a game the bot can play and has not played yet."""
        return bool(ticket.token) and ticket.game_id not in self.played

    def _find_game(self, mode: str) -> Ticket:
        if mode == "accept":
            return self._accept_a_seek()
        if mode == "seek":
            seek = patiently(self.client.create_seek, self.options)
            self.say(f"Seeking a game: {seek.describe()}")
        else:
            ticket = patiently(self.client.pair, self.options)
            if ticket is not None:
                return ticket
            self.say("Waiting to be paired...")
        return self._wait_for_game()

    def _wait_for_game(self) -> Ticket:
        """The next game of the bot's that the service tells (``GET /lobby/me``, pushed)."""
        return self.client.next_game(self._unplayed, patiently)

    def _accept_a_seek(self) -> Ticket:
        """Accept the first open challenge of someone else's, waiting for one (pushed)."""
        self.say("Waiting for a challenge to accept...")
        lobby = patiently(self.client.lobby)
        while True:
            for seek in self.client.seeks(lobby):
                if seek.by.casefold() == self.name.casefold():
                    continue
                try:
                    ticket = patiently(self.client.accept, seek.seek_id)
                except ServiceRefused as refusal:
                    if refusal.code in ("seek_gone", "own_seek") or refusal.status == 404:
                        continue  # someone else was first
                    raise
                self.say(f"Accepted {seek.describe()}")
                return ticket
            version = int(str(lobby["version"]))
            lobby = patiently(self.client.lobby, version, LOBBY_WAIT)


def patiently(
    call: Callable[Arguments, Result], *args: Arguments.args, **kwargs: Arguments.kwargs
) -> Result:
    """``call(*args, **kwargs)``, retried with growing pauses for :data:`RETRY_SECONDS`
    while the service does not answer.

    Raises:
        BotError: still no answer after :data:`RETRY_SECONDS`.
    """
    deadline = time.monotonic() + RETRY_SECONDS
    pause = 0.25
    while True:
        try:
            return call(*args, **kwargs)
        except ServerUnreachable as failure:
            if time.monotonic() + pause > deadline:
                raise BotError(f"the service does not answer: {failure}") from None
        time.sleep(pause)
        pause = min(pause * 2, 4.0)


def main(argv: list[str] | None = None) -> int:
    """Run the bot as the command line asks; the exit status (0 after ``--games``, 1 on failure)."""
    options = _parser().parse_args(argv)
    try:
        server = parse_server_url(options.server)
    except ValueError as error:
        print(f"connect-four-bot: error: --server: {error}", file=sys.stderr)
        return 2
    try:
        mover: Mover = (
            AgentMover(load_agent(options.agent), options.think)
            if options.agent is not None
            else EngineMover(options.level, options.think, options.seed)
        )
        client = LobbyClient(server)
        name = _sign_in(client, server, options.name)
        bot = Bot(
            client,
            name,
            mover,
            _game_options(options),
            level=max(LEVELS) if options.agent is not None else options.level,
            think=options.think,
            rematch_wait=options.rematch_wait,
        )
        bot.run("seek" if options.seek else "pair" if options.pair else "accept", options.games)
    except (BotError, KeyFileError, NetworkError, EngineError) as error:
        print(f"connect-four-bot: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("connect-four-bot: stopped", file=sys.stderr)
        return 130
    return 0


def _sign_in(client: LobbyClient, server: str, name: str | None) -> str:
    """The bot's name on ``server``: its kept key's, else a new bot player's (the key kept)."""
    entry = f"{server} bot" + (f" {name}" if name else "")
    stored = read_player(entry)
    if stored is not None:
        client.key = stored.key
        known = patiently(client.me)
        print(f"Playing on {server} as {known['name']} (bot).", flush=True)
        return str(known["name"])
    chosen = name or f"bot-{secrets.token_hex(3)}"
    try:
        key = patiently(client.register, chosen, bot=True)
    except ServiceRefused as refusal:
        if refusal.code == "name_taken":
            raise BotError(
                f"the name {chosen!r} is taken on {server}: choose another with --name"
            ) from None
        raise
    path = save_player(entry, StoredPlayer(chosen, key))
    print(f"Registered on {server} as {chosen} (bot); its key is kept in {path}.", flush=True)
    return chosen


def _game_options(options: argparse.Namespace) -> dict[str, object]:
    """The body of the bot's seeks and pairings: board, clock, rated."""
    body: dict[str, object] = {
        "rows": options.rows,
        "columns": options.columns,
        "connect": options.connect,
        "clock": options.clock,
        "rated": not options.casual,
    }
    return body


def clock_option(text: str) -> dict[str, float]:
    """``--clock``: ``M+I`` (minutes, seconds a move) or ``Nd`` (days a move), as connect.py's
    ``--clock`` reads it (:func:`~connect_four.terminal.options.parse_clock`).

    >>> clock_option("5+3"), clock_option("0.5+0"), clock_option("2d")
    ({'minutes': 5.0, 'increment': 3.0}, {'minutes': 0.5, 'increment': 0.0}, {'days': 2})

    Raises:
        argparse.ArgumentTypeError: anything else (argparse says so, status 2).
    """
    try:
        return parse_clock(text)
    except UsageError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="connect-four-bot",
        description="A bot player for the Connect Four service's lobby: it accepts open "
        "challenges (or seeks, or pairs) and plays them with the engine or a ConnectX agent.",
    )
    parser.add_argument("--server", required=True, metavar="URL", help="the service's URL")
    parser.add_argument("--name", help="the bot's name when it registers (default bot-XXXXXX)")
    moves = parser.add_mutually_exclusive_group()
    moves.add_argument("--level", type=int, choices=sorted(LEVELS), default=3,
                       help="the engine's level, 1 (beginner) to 5 (perfect); default 3")  # fmt: skip
    moves.add_argument("--agent", metavar="FILE.py",
                       help="a Kaggle ConnectX agent file (or module) whose agent() plays")  # fmt: skip
    parser.add_argument("--think", type=float, default=1.0, help="seconds a move at most (1)")
    parser.add_argument("--seed", type=int, help="seed of the engine's random choices")
    finding = parser.add_mutually_exclusive_group()
    finding.add_argument("--seek", action="store_true", help="open a challenge and wait")
    finding.add_argument("--pair", action="store_true", help="ask to play someone now")
    parser.add_argument("--rows", type=int, default=6, help="with --seek or --pair (6)")
    parser.add_argument("--columns", type=int, default=7, help="with --seek or --pair (7)")
    parser.add_argument("--connect", type=int, default=4, help="with --seek or --pair (4)")
    parser.add_argument(
        "--clock", metavar="M+I", type=clock_option, help="with --seek or --pair: 5+3, or 2d"
    )
    parser.add_argument("--casual", action="store_true", help="unrated games (--seek, --pair)")
    parser.add_argument("--games", type=int, default=0, help="stop after N games (0: never)")
    parser.add_argument(
        "--rematch-wait",
        type=float,
        default=REMATCH_WAIT,
        metavar="S",
        help=f"after a game, wait S seconds for a rematch offer and accept it "
        f"({REMATCH_WAIT:g}; 0: never)",
    )
    return parser


if __name__ == "__main__":
    sys.exit(main())
