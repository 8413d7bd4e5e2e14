"""The terminal game as a conversation: lines to show, prompts to answer, pauses to wait.

:func:`converse` plays a game (or a match of ``--games``) and yields each
step as a :class:`~connect_four.terminal.steps.Show` (a line), an
:class:`~connect_four.terminal.steps.Ask` (a prompt, whose typed answer is sent back
in) or a :class:`~connect_four.terminal.steps.Wait` (a pause). It does no I/O: it
neither prints, reads nor sleeps. connect.py drives it with its own
``print`` and ``input``, because the course's grader sees only those two;
and the logic lives here, in a module, because a script run as ``__main__``
is compiled again on every start.
"""

from __future__ import annotations

from connect_four.engine import EngineError, Game, Outcome, parse_column, render

from .dialog import PROMPT, ending, invalid_move, typed_line
from .discs import Discs
from .settings import Settings
from .steps import Ask, Show, Wait

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .computer import Computer
    from .pacing import Pacer
    from .steps import Conversation

__all__ = ["converse"]


def converse(settings: Settings, *, at_terminal: bool = False) -> Conversation[None]:
    """Play what the settings ask for: one game, or a match of --games.

    ``at_terminal`` tells whether someone watches standard output: the
    computer playing both sides then pauses between its moves
    (:meth:`Settings.pause_seconds`); in the lobby, that someone types at a
    terminal too, and may leave its wait for a game with a line.

    >>> steps = converse(Settings())
    >>> next(steps).text.splitlines()[:2]
    ['', '01234567']
    >>> next(steps), next(steps)
    (Show("X's turn"), Ask('Enter a column: '))
    >>> steps.send("9")
    Show('Invalid move. Enter a column number (0-7).')
    """
    if settings.network is not None and settings.lobby:
        from .lobby_game import converse_in_lobby  # deferred: it loads the HTTP client

        yield from converse_in_lobby(settings, at_terminal=at_terminal)
        return
    if settings.network is not None:
        # Deferred for start-up speed: the network game loads the HTTP client.
        from .network_game import converse_over_network

        yield from converse_over_network(settings)
        return
    if settings.review and not settings.commands:
        from .review import review_settings  # deferred for start-up speed

        yield from review_settings(Game.from_moves(settings.moves, settings.rules), settings)
        return
    computer = _computer(settings) if settings.computer or settings.hint else None
    pacer = _pacer(settings, at_terminal) if settings.computer else None
    if settings.commands:
        # Deferred for start-up speed, as every extra below.
        from .commands import INTRODUCTION

        yield Show(INTRODUCTION)
    if settings.games == 1:
        yield from _game(settings, settings.computer, computer, pacer)
        return
    from .match import Match  # deferred for start-up speed

    match = Match(settings.games, settings.computer)
    for number in range(1, settings.games + 1):
        yield Show(("" if number == 1 else "\n") + match.introduction(number))
        outcome, quitter = yield from _game(
            settings, match.computer_markers(number), computer, pacer
        )
        match.record(outcome.winner, number)
        yield Show(match.score_line())
        if quitter is not None:
            break
    yield Show(match.result_line())


def _game(
    settings: Settings,
    computer_sides: frozenset[int],
    computer: Computer | None,
    pacer: Pacer | None,
) -> Conversation[tuple[Outcome, int | None]]:
    """One game until it is won, drawn or quit; returns how it ended and who quit."""
    game = Game(settings.rules)
    for column in settings.moves:
        game.play(column)
    discs = Discs.of(settings)
    markers = discs.playing
    humans = frozenset({0, 1}) - computer_sides
    quitter = None
    while game.outcome() is None and quitter is None:
        yield Show("\n" + render(game, markers=markers))
        player = game.to_move or 0
        yield Show(f"{markers[player]}'s turn")
        if computer is not None and player in computer_sides:
            column = computer.move(game)
            pause = pacer.remaining() if pacer is not None else 0.0
            if pause > 0:
                yield Wait(pause)
            yield Show(f"Computer plays {column}.")
            game.play(column)
        else:
            quitter = yield from _human_turn(game, settings, computer, humans)
        if pacer is not None:
            pacer.mark()
    outcome = game.outcome()
    assert outcome is not None
    final_grid = discs.final_grid(game) if quitter is None else None
    for line in ending(game, final_grid=final_grid, announce=settings.announce):
        yield Show(line)
    if settings.review:
        from .review import review_settings  # deferred for start-up speed

        yield from review_settings(game, settings)
    return outcome, quitter


def _human_turn(
    game: Game, settings: Settings, computer: Computer | None, humans: frozenset[int]
) -> Conversation[int | None]:
    """Prompt until a line plays a move, undoes moves or quits; returns who quit, if anyone."""
    hint = computer.hint if computer is not None and settings.hint else None
    scores = computer.column_scores if computer is not None and settings.hint else None
    while True:
        text = typed_line((yield Ask(PROMPT)))
        if settings.commands or hint is not None:
            from .commands import answer  # deferred for start-up speed

            reply = answer(
                text,
                game,
                commands=settings.commands,
                hint=hint,
                scores=scores,
                start=len(settings.moves),
                humans=humans,
            )
            if reply is not None:
                for line in reply.lines:
                    yield Show(line)
                if reply.turn_over:
                    return reply.quitter
                continue
        try:
            game.play(parse_column(text, game.rules))
            return None
        except EngineError:
            yield Show(invalid_move(game))


def _computer(settings: Settings) -> Computer:
    """The solver, imported only when a game asks for it (start-up speed)."""
    from .computer import Computer

    return Computer(settings)


def _pacer(settings: Settings, at_terminal: bool) -> Pacer:
    """The pause before each computer move, imported only when the computer plays (start-up speed)."""
    from .pacing import Pacer

    return Pacer(settings.pause_seconds(at_terminal=at_terminal))
