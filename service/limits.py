"""Every limit the service enforces, in one place, so the code, the OpenAPI
schema and the README state the same numbers.

Each bounds what one request can cost the server, however it is crafted.
Those an operator may change are the defaults of
:class:`connect_four.service.settings.Settings` (a flag and an environment
variable each).
"""

from __future__ import annotations

__all__ = [
    "CLAIM_AFTER",
    "MAX_CLOCK_DAYS",
    "MAX_CLOCK_MINUTES",
    "MAX_INCREMENT",
    "MAX_SIZE",
    "MAX_PLAYERS",
    "MAX_NAME_LENGTH",
    "MAX_WINNER_SIZE",
    "MAX_PAGE",
    "MAX_MOVES_PAGE",
    "MAX_STORED_INTEGER",
    "MAX_KEY_LENGTH",
    "MAX_BODY_BYTES",
    "BODY_TIMEOUT",
    "HEADER_TIMEOUT",
    "KEEP_ALIVE_TIMEOUT",
    "MAX_HEADER_BYTES",
    "MAX_CONNECTIONS",
    "MAX_CLIENT_CONNECTIONS",
    "MAX_CLIENT_WAITS",
    "PRESSED_TIMEOUT",
    "REFUSAL_GRACE",
    "REFUSAL_RETRY_AFTER",
    "WINNER_WORKERS",
    "WINNER_WAITING",
    "WINNER_REFUSAL_PAUSE",
    "MAX_ANALYSIS_SIZE",
    "ANALYSIS_SECONDS",
    "ANALYSIS_TIME_LIMIT",
    "ANALYSIS_WORKERS",
    "ANALYSIS_WAITING",
    "REVIEW_SECONDS",
    "REVIEW_TIME_LIMIT",
    "REVIEW_WORKERS",
    "REVIEW_WAITING",
    "MIN_COMPUTER_SIZE",
    "MAX_COMPUTER_SIZE",
    "COMPUTER_THINK_SECONDS",
    "COMPUTER_WORKERS",
    "COMPUTER_WAITING",
    "MAX_WAIT",
    "RATE_GAMES",
    "RATE_MOVES",
    "RATE_ANALYSIS",
    "RATE_COMPUTER",
    "RATE_REPLAYS",
    "RATE_READS",
]

MAX_SIZE = 100
"""The most rows, and the most columns, a drop-token board may have."""

MAX_PLAYERS = 100
"""The most players one drop-token game may have."""

MAX_NAME_LENGTH = 100
"""The longest player name, in characters."""

MAX_WINNER_SIZE = 16
"""The most rows, and the most columns, of a board given to the winner check.

Random games on 16 x 16 are verified well within the move-order search's
budget (see connect_four.engine.board_check.SEARCH_LIMIT)."""

MAX_PAGE = 1000
"""The most game ids one answer of ``GET /drop_token`` holds (``limit`` or not): some 35 KB."""

MAX_MOVES_PAGE = 500
"""The most moves one answer of ``GET /drop_token/{gameId}/moves`` holds, whatever
``start`` and ``until`` ask: the terminal game's page. Under 24 KB with short names,
at most some 220 KB with 100 names of 100 four-byte characters; a game holds up to
``MAX_SIZE * MAX_SIZE + MAX_PLAYERS`` (10,100) moves."""

MAX_STORED_INTEGER = 2**63 - 1
"""The largest move number or game list position a request may name.

Both databases store 64-bit signed integers; a larger number is refused
(400 malformed_request) before it reaches one. No game comes near it: a
game has at most ``MAX_SIZE * MAX_SIZE + MAX_PLAYERS`` moves."""

MAX_KEY_LENGTH = 100
"""The longest ``Idempotency-Key``, in characters."""

MAX_BODY_BYTES = 64 * 1024
"""The largest request body: a game of 100 players named with 100 characters
each takes about 11 KB of JSON."""

BODY_TIMEOUT = 10.0
"""Seconds a request may take to send its whole body once its headers are in."""

HEADER_TIMEOUT = 10.0
"""Seconds a connection may take to send a request's headers."""

KEEP_ALIVE_TIMEOUT = 5
"""Seconds an idle keep-alive connection stays open."""

MAX_HEADER_BYTES = 16 * 1024
"""The largest request line and headers together."""

MAX_CONNECTIONS = 1000
"""Connections and requests in progress at once; more are answered 503."""

MAX_CLIENT_CONNECTIONS = 100
"""Connections one client address may hold open at once; one more is answered 429.

A trusted proxy's own address is not capped (it carries many clients'
connections). A tenth of :data:`MAX_CONNECTIONS`: one client can never
take the slots the others need, while a hundred players behind one
address (a school's, a household's) each keep a long poll open."""

MAX_CLIENT_WAITS = 100
"""Long polls (``GET .../moves?wait=``) one client address may have waiting at once;
one more is answered 429. Counted by the address a trusted proxy passes on,
so it bounds a proxied client as :data:`MAX_CLIENT_CONNECTIONS` bounds a direct one."""

PRESSED_TIMEOUT = 2.0
"""Seconds a request's line and headers, or its body, may take while the server is
pressed: half its connections taken, or the client holding half of its own.

A person's browser or terminal sends a request in milliseconds; the slow
ones are what fills a server, so they are cut first."""

REFUSAL_GRACE = 1.0
"""Seconds a refused connection has to send its request's head, to read the refusal."""

REFUSAL_RETRY_AFTER = 1
"""The ``Retry-After`` (seconds) of a connection or wait refused for want of room."""

WINNER_WORKERS = 1
"""Worker processes that run winner checks: one core of two for them at most,
so that move posting keeps the other."""

WINNER_REFUSAL_PAUSE = 0.5
"""Seconds a refused winner check waits before its 503 is sent.

Waiting costs the server nothing, and it keeps a client looping on the
check from turning refusals into a flood of their own: with 64 such
clients and no pause, refusals (23,000 in a run) cut the move rate to
0.08 of its quiet value (bench/service_load.py --flood 64)."""

WINNER_WAITING = 32
"""Winner checks that may wait for a worker; more at once are answered 503.

A waiting check costs the server no CPU, so a flood of checks is paced by
the worker instead of spinning on quick refusals: measured with 8 clients
flooding (bench/service_load.py --flood 8), a queue of 2 let the refusals
alone take two thirds of the move rate."""

MAX_ANALYSIS_SIZE = 10
"""The most rows, and the most columns, of a board given to ``POST /analysis``
(its move list holds at most rows x columns moves): every such board fits
the compiled search's 128-bit bitboards."""

ANALYSIS_SECONDS = 1.0
"""One analysis's search budget, in seconds of search on a quiet machine
(``connect_four.engine.column_scores``'s ``time_budget``, the terminal hint's default)."""

ANALYSIS_TIME_LIMIT = 3.0
"""The hard limit, in seconds of wall-clock time, on one analysis's search:
columns it leaves unsettled are answered as estimates."""

ANALYSIS_WORKERS = 1
"""Worker processes that run analyses, apart from the winner check's: with
both pools busy the two cores are theirs at a lower priority than the
server's (see connect_four.service.winner_pool.WORKER_NICENESS)."""

ANALYSIS_WAITING = 4
"""Analyses that may wait for a worker; more at once are answered 503. Each
costs up to a second of a core, so a longer queue would only answer late."""

REVIEW_SECONDS = 4.0
"""One game review's search budget (``POST /review``), in seconds of search on a quiet
machine, shared among the game's positions (at most 1 s each): half the terminal's
``--review`` default, in one pass. A 6 x 7 game gets every verdict in well under it
(the 12-stone database); early positions of a larger board may stay unsettled."""

REVIEW_TIME_LIMIT = 0.5
"""The hard limit, in seconds of wall-clock time, on each position's search in a review:
a 100-move game ends within 50 s however busy the machine, and far sooner on a quiet one."""

REVIEW_WORKERS = 1
"""Worker processes that run game reviews, apart from the analyses' and winner checks'."""

REVIEW_WAITING = 2
"""Reviews that may wait for a worker; more at once are answered 503 (``review_busy``).
A review costs seconds of a core: a longer queue would only answer late."""
MAX_WAIT = 300.0
"""The most seconds ``GET /drop_token/{gameId}/moves?wait=`` may wait for a move.

A waiting request costs the server a timer and a future, no CPU, but each
wait that runs out is renewed by a request: 10,000 waiters renewing 60 s
waits took 11 to 23 % of a core. Five minutes makes renewals 5 times
rarer; a client behind a proxy whose idle timeout is shorter (nginx's
``proxy_read_timeout``: 60 s) asks for less, or the proxy's is raised."""


MIN_COMPUTER_SIZE = 4
"""The fewest rows, and columns, of a board the computer plays on: four in a row must fit."""

MAX_COMPUTER_SIZE = 16
"""The most rows, and columns, of a board the computer plays on (the winner check's limit)."""

COMPUTER_THINK_SECONDS = 0.5
"""Each computer move's search budget, in seconds of search on a quiet machine, spent
as a node count (see connect_four.engine.budget): the same position and level get the same move
however busy the machine is; a clock stops a runaway search after 5 s."""

COMPUTER_WORKERS = 1
"""Worker processes searching the computer's moves at once (apart from the winner checks')."""

COMPUTER_WAITING = 8
"""Computer moves that may wait for a worker; one more is refused (503 computer_busy)."""


RATE_GAMES = "1000/minute"
"""How many games one client address may create (``POST /drop_token``), in the
notation of the ``limits`` package (``--rate-games``).

A game is a row of the database (some 150 bytes; 11 KB with 100 players of
100 characters), so one client fills at most some 10 MB a minute (the test
that fills a 24-page database creates 535 games at once)."""

RATE_MOVES = "3000/minute"
"""How many moves and quits one client address may post (``--rate-moves``):
50 a second on average, some 2.5 % of a core at 0.5 ms each; a person
moves once in seconds."""

RATE_ANALYSIS = "300/minute"
"""How many ``POST /analysis`` one client address may ask (``--rate-analysis``):
the analysis board asks one per position, stepping through a game included."""

RATE_COMPUTER = "300/minute"
"""How many ``POST /computer_move`` one client address may ask (``--rate-computer``)."""

RATE_REPLAYS = "200000/minute"
"""How many stored moves one client address may make the server replay (``--rate-replays``):
games that had left the cache, replayed by the requests that need them again (some 4 us a
move, so under 1 s of CPU a minute). A player whose game of 10,000 moves left the cache
replays it once; a client cycling through more long games than the cache holds is stopped."""

RATE_READS = "100000/minute"
"""How many moves and game ids one client address may read (``--rate-reads``),
counted by what the answers hold: 200 full pages of moves a minute (under
1 ms of CPU each), or 100 full pages of game ids. A player or
spectator following a game reads the few moves since the last answer; a
review of a 10,000-move game reads 20 pages."""

MAX_CLOCK_MINUTES = 600
"""The longest clock of a game between friends, in minutes for each player."""

MAX_INCREMENT = 600
"""The largest increment a move, in seconds."""

MAX_CLOCK_DAYS = 60
"""The longest time a move of a correspondence game, in days."""

CLAIM_AFTER = 60.0
"""Seconds an opponent must have been away, on their turn, before the win or a draw is claimed
(``--claim-after``)."""
