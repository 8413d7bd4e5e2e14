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

# This file must parse on older Pythons up to here, so they can say why
# they stop; the engine needs 3.11.
if sys.version_info < (3, 11):  # noqa: UP036 (pyproject says 3.11; older ones get told)
    print(
        "connect.py: error: Python 3.11 or newer is needed, this is Python "
        + sys.version.split()[0],
        file=sys.stderr,
    )
    sys.exit(1)

from engine import EngineError, Game, Outcome, parse_column, render
from terminal.discs import MARKERS, Discs
from terminal.options import Settings, UsageError, parse_options

TYPE_CHECKING = False
if TYPE_CHECKING:
    from terminal.computer import Computer
    from terminal.pacing import Pacer

PROMPT = "Enter a column: "


def main(argv: list[str] | None = None) -> int:
    """Play one game; return the exit status (0 when the game finished)."""
    args = sys.argv[1:] if argv is None else argv
    _read_input_exactly()
    try:
        # argparse is loaded only when there are options: the assignment's
        # game starts as fast as the bare interpreter allows.
        settings = parse_options(args) if args else Settings()
    except UsageError as error:
        print(f"connect.py: error: {error}", file=sys.stderr)
        return 2
    try:
        if settings.message is not None:
            print(settings.message)
        else:
            play(settings)
        # Written out here, a closed pipe is still ours to report.
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`connect.py | head`): stop quietly, with the
        # status a shell shows for a program stopped by SIGPIPE.
        from terminal.streams import discard_output

        discard_output()
        return 141
    except EOFError:
        # Ctrl-D at a terminal leaves the cursor after the prompt.
        from terminal.streams import prompt_on_screen

        start = "\n" if prompt_on_screen() else ""
        print(start + "connect.py: input ended before the game finished", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        # A second Ctrl-C while we shut down must not end in a traceback.
        from terminal.streams import ignore_interrupts

        ignore_interrupts()
        # The cursor may sit after the prompt: end that line on stderr.
        print("\nconnect.py: game interrupted", file=sys.stderr)
        return 130
    return 0


def play(settings: Settings) -> None:
    """Play the game the settings ask for, or the match of --games."""
    computer = _computer(settings) if settings.computer or settings.hint else None
    pacer = _pacer(settings) if settings.computer else None
    if settings.commands:
        from terminal.commands import INTRODUCTION

        print(INTRODUCTION)
    if settings.games == 1:
        play_game(settings, settings.computer, computer, pacer)
        return
    from terminal.match import Match

    match = Match(settings.games, settings.computer)
    for number in range(1, settings.games + 1):
        print(("" if number == 1 else "\n") + match.introduction(number))
        outcome, quitter = play_game(settings, match.computer_markers(number), computer, pacer)
        match.record(outcome.winner, number)
        print(match.score_line())
        if quitter is not None:
            break
    print(match.result_line())


def play_game(
    settings: Settings,
    computer_sides: frozenset[int],
    computer: Computer | None,
    pacer: Pacer | None,
) -> tuple[Outcome, int | None]:
    """Run one game until it is won, drawn or quit; return how it ended and who quit."""
    game = Game(settings.rules)
    for column in settings.moves:
        game.play(column)
    discs = Discs(highlight=settings.highlight, color=settings.color)
    markers = discs.playing
    humans = frozenset({0, 1}) - computer_sides
    quitter = None
    while quitter is None:
        outcome = game.outcome()
        if outcome is not None:
            break
        print("\n" + render(game, markers=markers))
        player = game.to_move or 0
        print(f"{markers[player]}'s turn")
        if computer is not None and player in computer_sides:
            column = computer.move(game)
            if pacer is not None:
                pacer.wait()
            print(f"Computer plays {column}.")
            game.play(column)
        else:
            quitter = _human_turn(game, settings, computer, humans)
        if pacer is not None:
            pacer.mark()
    outcome = game.outcome()
    assert outcome is not None
    if quitter is None:
        highlighted = outcome.cells if discs.marks_winner else frozenset()
        print("\n" + render(game, markers=markers, highlight=highlighted,
                            highlight_markers=discs.winning))
    print("Game finished.")
    if settings.announce:
        if outcome.winner is None:
            print("The game is a tie.")
        else:
            print(f"{MARKERS[outcome.winner]} wins.")
        print(f"Moves: {game.moves_string()}")
    return outcome, quitter


def _human_turn(
    game: Game, settings: Settings, computer: Computer | None, humans: frozenset[int]
) -> int | None:
    """Read lines until one plays a move, undoes moves or quits; return who quit, if anyone."""
    invalid = f"Invalid move. Enter a column number (0-{game.rules.columns - 1})."
    hint = computer.hint if computer is not None and settings.hint else None
    while True:
        text = input(PROMPT)
        # A line from a CRLF file keeps its carriage return: drop one.
        if text.endswith("\r"):
            text = text[:-1]
        if settings.commands or hint is not None:
            from terminal.commands import answer

            reply = answer(text, game, commands=settings.commands, hint=hint,
                           start=len(settings.moves), humans=humans)
            if reply is not None:
                for line in reply.lines:
                    print(line)
                if reply.turn_over:
                    return reply.quitter
                continue
        try:
            game.play(parse_column(text, game.rules))
            return None
        except EngineError:
            print(invalid)


def _computer(settings: Settings) -> Computer:
    """The solver, imported only when a game asks for it."""
    from terminal.computer import Computer

    return Computer(settings)


def _pacer(settings: Settings) -> Pacer:
    """The pause before each computer move, imported only when the computer plays."""
    from terminal.pacing import Pacer
    from terminal.streams import is_terminal

    return Pacer(settings.pause_seconds(at_terminal=is_terminal(sys.stdout)))


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
