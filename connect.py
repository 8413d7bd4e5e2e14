"""Connect Four in the terminal: BYU CS110 "Project 4 - Connect Four".

Run with no arguments for the assignment's game, byte for byte: 5 rows,
8 columns, X then O, four in a row wins. Options (``--help``) change the
board and add extras; none changes the default output.

Every byte shown goes through this module's own ``print`` and ``input``:
the course's grader runs this file with those two names replaced. The game
itself is ``connect_four.terminal.session``, which yields the steps of a conversation
(lines to show, prompts to answer, pauses to wait) and does no I/O; this
file only drives it, with every print, read, flush and sleep (and, for a
network game's prompt, the wait for a line that news of the friend's quit
cuts short), and the engine only computes.
"""

from __future__ import annotations

import sys
import time

# This file must parse on older Pythons up to here, so they can say why
# they stop; the engine needs 3.11.
if sys.version_info < (3, 11):  # noqa: UP036 (pyproject says 3.11; older ones get told)
    print(
        "connect.py: error: Python 3.11 or newer is needed, this is Python "
        + sys.version.split()[0],
        file=sys.stderr,
    )
    sys.exit(1)

from connect_four.terminal.errors import LeftWaiting, PlayAborted, UsageError
from connect_four.terminal.program import program_name
from connect_four.terminal.session import converse
from connect_four.terminal.settings import Settings
from connect_four.terminal.steps import Ask, Show

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO

    from connect_four.terminal.typeahead import TypeAhead


def main(argv: list[str] | None = None) -> int:
    """Play what the command line asks for; return the exit status.

    0 when the games finished or a player quit (``q``, or a network friend);
    1 when input ended first or a network game lost its service, 2 for a
    refused command line, 130 for Ctrl-C (also while the lobby waits for a
    game: what was open there is taken back, as at the end of input there),
    141 when the reader of the output went away.
    """
    args = sys.argv[1:] if argv is None else argv
    _read_input_exactly()
    try:
        if args:
            # Deferred for start-up speed: the parser (argparse, the solver's
            # levels) is loaded only when there are options, so the
            # assignment's game starts as fast as the bare interpreter allows.
            from connect_four.terminal.options import parse_options

            settings = parse_options(args)
        else:
            settings = Settings()
    except UsageError as error:
        print(f"{program_name()}: error: {error}", file=sys.stderr)
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
        from connect_four.terminal.streams import discard_output  # deferred: start-up speed

        discard_output()
        return 141
    except EOFError:
        # Ctrl-D at a terminal leaves the cursor after the prompt.
        from connect_four.terminal.streams import prompt_on_screen  # deferred: start-up speed

        start = "\n" if prompt_on_screen() else ""
        print(f"{start}{program_name()}: input ended before the game finished", file=sys.stderr)
        return 1
    except PlayAborted as error:
        print(f"{program_name()}: {error}", file=sys.stderr)
        return 1
    except UsageError as error:
        # An option only the service's answer shows to be wrong (--join's --rows).
        print(f"connect.py: error: {error}", file=sys.stderr)
        return 2
    except LeftWaiting as left:
        from connect_four.terminal.streams import ignore_interrupts  # deferred: start-up speed

        ignore_interrupts()
        # The cursor may sit after the lobby's wait's prompt, or ^C on its line.
        print(f"\n{program_name()}: {left}", file=sys.stderr)
        return left.status
    except KeyboardInterrupt:
        # A second Ctrl-C while we shut down must not end in a traceback.
        from connect_four.terminal.streams import ignore_interrupts  # deferred: start-up speed

        ignore_interrupts()
        # The cursor may sit after the prompt: end that line on stderr.
        print(f"\n{program_name()}: game interrupted", file=sys.stderr)
        return 130
    return 0


def play(settings: Settings) -> None:
    """Do what the game's conversation says: show its lines, answer its prompts, wait its pauses."""
    steps = converse(settings, at_terminal=_watched(settings))
    keys = _type_ahead(settings)
    replaced_stdin = _read_line_by_line(settings)
    typed = None
    try:
        while True:
            try:
                step = steps.send(typed)
            except StopIteration:
                return
            typed = None
            if isinstance(step, Show):
                print(step.text)
            elif isinstance(step, Ask):
                if keys is not None:
                    keys.listen()  # what was typed while waiting is no answer
                typed = input(step.prompt) if step.news is None else _ask_unless_news(step)
                if keys is not None:
                    if typed is None:
                        keys.listen()  # a line begun when the news came is no answer either
                    keys.hush()
            else:
                _wait(step.seconds)
    except (KeyboardInterrupt, EOFError) as leaving:
        # Ctrl-C or the end of input, whenever it comes, reaches the conversation
        # where it stands: the lobby's wait takes back what was open and says
        # so (LeftWaiting). A conversation that has ended raises it again.
        steps.throw(leaving)
        raise
    finally:
        if keys is not None:
            keys.restore()
        if replaced_stdin is not None:
            sys.stdin = replaced_stdin
        # A game left early (Ctrl-C, end of input) tidies up: a network
        # game is quit on the service.
        steps.close()


def _ask_unless_news(step: Ask) -> str | None:
    """The player's answer to ``step``, or None when its news came first and cut the prompt short.

    The prompt shows, then the game waits for a line or the news; ``input()``
    reads only a line already there, so it returns at once. Where that wait
    cannot work, the prompt is asked as any other (see
    ``connect_four.terminal.news``).
    """
    assert step.news is not None
    # Deferred: only a network game's prompt carries news; the assignment's
    # game never loads select, signal or threading.
    from connect_four.terminal.news import watch_prompt

    watch = watch_prompt(step.news, input)
    if watch is None:
        return input(step.prompt)
    # The watch ends (its thread stopped) before the terminal's own mode is back.
    with watch.first_key_mode(), watch:
        print(step.prompt, end="", flush=True)
        line_waiting = watch.wait()
    if line_waiting and watch.first_key:
        # GNU readline reads the line begun with a key: it must know the
        # prompt to edit the line, so the prompt is shown again over itself.
        print("\r", end="")
        return input(step.prompt)
    if line_waiting:
        return input()
    from connect_four.terminal.streams import is_terminal

    if is_terminal(sys.stdout):
        print("")  # The cursor stands after the prompt: what follows starts a line.
    return None


def _read_line_by_line(settings: Settings) -> TextIO | None:
    """For a network game reading a pipe: lines leave it one at a time; the stream replaced.

    A prompt that news may cut short waits for a line with ``select``, which
    cannot see lines Python's buffer read ahead (``connect_four.terminal.news``).
    """
    if settings.network is None:
        return None
    # Deferred: only a network game needs it.
    from connect_four.terminal.news import read_line_by_line

    return read_line_by_line(input)


def _type_ahead(settings: Settings) -> TypeAhead | None:
    """For a network game at a terminal: keys typed while it waits are not echoed, then dropped."""
    if settings.network is None:
        return None
    # Deferred for start-up speed: only a network game needs it.
    from connect_four.terminal.typeahead import type_ahead_of_stdin

    keys = type_ahead_of_stdin()
    if keys is not None:
        keys.hush()
    return keys


def _watched(settings: Settings) -> bool:
    """Whether someone is at a terminal: standard output for the computer's pause, and
    standard input too for the lobby's wait (a line there, or its end, leaves it)."""
    if not (settings.computer or settings.lobby):
        return False
    # Deferred for start-up speed: only a game with the computer, or the lobby, needs it.
    from connect_four.terminal.streams import is_terminal

    return is_terminal(sys.stdout) and (not settings.lobby or is_terminal(sys.stdin))


def _wait(seconds: float) -> None:
    """Show the lines printed so far, then sleep ``seconds``.

    On a pipe the lines would sit in the buffer while the game waits (for
    the computer's pause, or a network friend). The flush only writes out
    what this module printed; a closed or broken stream is left for the
    next ``print`` to report.
    """
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    time.sleep(seconds)


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
