"""The terminal game as a conversation: lines to show and prompts to answer, without I/O.

:func:`converse` plays a game (or a match of ``--games``) and yields each
step as ``(False, line)``, a line to show, or ``(True, prompt)``, a prompt
whose typed answer is sent back in. connect.py drives it with its own
``print`` and ``input``, because the course's grader sees only those two;
and the logic lives here, in a module, because a script run as ``__main__``
is compiled again on every start.
"""

from __future__ import annotations

from engine import EngineError, Game, Outcome, parse_column, render

from .discs import MARKERS, Discs
from .options import Settings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Generator

    from .computer import Computer
    from .pacing import Pacer

    # Yields (is it a prompt?, text); a prompt's answer is sent back in.
    Steps = Generator[tuple[bool, str], str | None, None]

__all__ = ["PROMPT", "PlayAborted", "converse", "ending", "invalid_move", "typed_line"]

PROMPT = "Enter a column: "


class PlayAborted(Exception):
    """The game cannot go on (a network game lost its service); the message is one line.

    connect.py shows it on stderr and exits with status 1. It lives here,
    with the game, so that connect.py can catch it without loading the
    network client on the assignment's path.
    """


def converse(settings: Settings) -> Steps:
    """Play what the settings ask for: one game, or a match of --games.

    >>> steps = converse(Settings())
    >>> next(steps)[1].splitlines()[:2]
    ['', '01234567']
    >>> next(steps), next(steps)
    ((False, "X's turn"), (True, 'Enter a column: '))
    >>> steps.send("9")
    (False, 'Invalid move. Enter a column number (0-7).')
    """
    if settings.network is not None:
        from .network_game import converse_over_network

        yield from converse_over_network(settings)
        return
    computer = _computer(settings) if settings.computer or settings.hint else None
    pacer = _pacer(settings) if settings.computer else None
    if settings.commands:
        from .commands import INTRODUCTION

        yield False, INTRODUCTION
    if settings.games == 1:
        yield from _game(settings, settings.computer, computer, pacer)
        return
    from .match import Match

    match = Match(settings.games, settings.computer)
    for number in range(1, settings.games + 1):
        yield False, ("" if number == 1 else "\n") + match.introduction(number)
        outcome, quitter = yield from _game(
            settings, match.computer_markers(number), computer, pacer
        )
        match.record(outcome.winner, number)
        yield False, match.score_line()
        if quitter is not None:
            break
    yield False, match.result_line()


def _game(
    settings: Settings,
    computer_sides: frozenset[int],
    computer: Computer | None,
    pacer: Pacer | None,
) -> Generator[tuple[bool, str], str | None, tuple[Outcome, int | None]]:
    """One game until it is won, drawn or quit; returns how it ended and who quit."""
    game = Game(settings.rules)
    for column in settings.moves:
        game.play(column)
    discs = Discs(highlight=settings.highlight, color=settings.color)
    markers = discs.playing
    humans = frozenset({0, 1}) - computer_sides
    quitter = None
    while game.outcome() is None and quitter is None:
        yield False, "\n" + render(game, markers=markers)
        player = game.to_move or 0
        yield False, f"{markers[player]}'s turn"
        if computer is not None and player in computer_sides:
            column = computer.move(game)
            if pacer is not None:
                pacer.wait()
            yield False, f"Computer plays {column}."
            game.play(column)
        else:
            quitter = yield from _human_turn(game, settings, computer, humans)
        if pacer is not None:
            pacer.mark()
    outcome = game.outcome()
    assert outcome is not None
    yield from ending(game, settings, discs, shows_grid=quitter is None)
    return outcome, quitter


def ending(game: Game, settings: Settings, discs: Discs, *, shows_grid: bool) -> Steps:
    """The lines after a game ends: the final grid (not after a quit), and --announce's.

    The network game ends with the same lines.
    """
    outcome = game.outcome()
    assert outcome is not None
    if shows_grid:
        highlighted = outcome.cells if discs.marks_winner else frozenset()
        yield False, "\n" + render(
            game, markers=discs.playing, highlight=highlighted, highlight_markers=discs.winning
        )
    yield False, "Game finished."
    if settings.announce:
        if outcome.winner is None:
            yield False, "The game is a tie."
        else:
            yield False, f"{MARKERS[outcome.winner]} wins."
        yield False, f"Moves: {game.moves_string()}"


def _human_turn(
    game: Game, settings: Settings, computer: Computer | None, humans: frozenset[int]
) -> Generator[tuple[bool, str], str | None, int | None]:
    """Prompt until a line plays a move, undoes moves or quits; returns who quit, if anyone."""
    hint = computer.hint if computer is not None and settings.hint else None
    scores = computer.column_scores if computer is not None and settings.hint else None
    while True:
        text = typed_line((yield True, PROMPT))
        if settings.commands or hint is not None:
            from .commands import answer

            reply = answer(text, game, commands=settings.commands, hint=hint, scores=scores,
                           start=len(settings.moves), humans=humans)
            if reply is not None:
                for line in reply.lines:
                    yield False, line
                if reply.turn_over:
                    return reply.quitter
                continue
        try:
            game.play(parse_column(text, game.rules))
            return None
        except EngineError:
            yield False, invalid_move(game)


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


def _computer(settings: Settings) -> Computer:
    """The solver, imported only when a game asks for it."""
    from .computer import Computer

    return Computer(settings)


def _pacer(settings: Settings) -> Pacer:
    """The pause before each computer move, imported only when the computer plays."""
    import sys

    from .pacing import Pacer
    from .streams import is_terminal

    return Pacer(settings.pause_seconds(at_terminal=is_terminal(sys.stdout)))
