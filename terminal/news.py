"""A prompt cut short by news: the network game's prompt ends when the friend's news comes first.

For an :class:`~connect_four.terminal.steps.Ask` that carries news (the
network game's watch on the friend's moves), connect.py shows the prompt
with its own ``print`` and then, before it reads, waits with a
:class:`PromptWatch` for whichever comes first:

- a line on standard input: connect.py then calls ``input()``, which finds
  the line there and returns it without waiting;
- the news: a thread runs the news's ``wait()`` and, when it says there is
  news, writes a byte to a wake-up pipe; connect.py ends the prompt without
  reading.

The wait is one ``select`` on standard input and the wake-up pipe. During
the wait the pipe is also Python's signal wake-up file
(:func:`signal.set_wakeup_fd`), so that Ctrl-C ends the wait whichever
thread the system gives the signal to, and raises KeyboardInterrupt as at
any prompt.

When standard input "has a line" depends on what it is:

- a terminal, as usual in canonical mode: the system makes it readable only
  once Enter is pressed, and its own line editing (echo, erase) works while
  the game waits;
- a terminal where GNU readline reads ``input()`` (an interactive Python
  loaded it): readline would show the line a second time, so the wait turns
  the terminal's echo and line mode off and ends at the first key, which
  readline then reads and shows with the rest of the line. News that comes
  after that key waits for the line (the move is then refused, and the
  game reads why);
- a pipe or a file: Python's buffer of ``sys.stdin`` could hold lines read
  ahead, which ``select`` does not see. A network game's standard input is
  therefore read through :class:`LineByLine` (see :func:`read_line_by_line`),
  which takes from the pipe only the line asked for.

Where standard input cannot be waited on like this (Windows, a harness's
``input``, a thread other than the main one), :func:`watch_prompt` returns
None and the prompt is asked as any other: the news then shows once the
player's next line is sent. Only a network game loads this module: the
assignment's game never imports ``select``, ``signal`` or ``threading``.
"""

from __future__ import annotations

import builtins
import contextlib
import os
import select
import signal
import sys
import threading

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from types import TracebackType
    from typing import TextIO

    from .steps import News

__all__ = ["LineByLine", "PromptWatch", "read_line_by_line", "watch_prompt"]

STOP_SECONDS = 5.0
"""How long ending a watch waits for its thread (the news's ``stop()`` makes it quick)."""


class PromptWatch:
    """Waits before a prompt's read for a line on standard input or for news, whichever comes first.

    Used by the main thread, the prompt shown in between::

        with watch.first_key_mode(), watch:
            print(prompt, end="", flush=True)
            line_waiting = watch.wait()
        typed = input() if line_waiting else None

    Entering starts the thread that waits for the news; leaving stops it
    (the news's ``stop()``), joins it and puts the signal wake-up file back.
    """

    def __init__(self, news: News, stdin: int, *, first_key: bool = False) -> None:
        self.news = news
        self.stdin = stdin
        self.first_key = first_key
        self._came = threading.Event()  # the news came: set by the thread before it wakes the wait
        self._lock = threading.Lock()  # the thread writes to the pipe only while it is open
        self._open = False
        self._wake_read = self._wake_write = -1
        self._previous_wakeup = -1
        self._thread = threading.Thread(target=self._watch, name="news watcher", daemon=True)

    def __enter__(self) -> PromptWatch:
        """Open the wake-up pipe, make it the signal wake-up file, and start watching the news."""
        self._wake_read, self._wake_write = os.pipe()
        for end in (self._wake_read, self._wake_write):
            os.set_blocking(end, False)  # set_wakeup_fd requires it; the drain relies on it
        self._open = True
        self._previous_wakeup = signal.set_wakeup_fd(self._wake_write, warn_on_full_buffer=False)
        self._thread.start()
        return self

    def wait(self) -> bool:
        """Block until standard input can be read without waiting (True) or the news came (False).

        News that came with a line (both at once) wins: the prompt ends.
        A wake-up byte from a signal whose handler raised nothing (no
        Ctrl-C) waits again.
        """
        while not self._came.is_set():
            readable, _, _ = select.select([self.stdin, self._wake_read], [], [])
            self._drain()
            if self._came.is_set():
                break
            if self.stdin in readable:
                return True
        return False

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Stop the thread and its news, put the old signal wake-up file back, close the pipe."""
        try:
            self.news.stop()
            if self._thread.ident is not None:
                self._thread.join(STOP_SECONDS)
        finally:
            signal.set_wakeup_fd(self._previous_wakeup)
            with self._lock:
                self._open = False
                os.close(self._wake_read)
                os.close(self._wake_write)

    @contextlib.contextmanager
    def first_key_mode(self) -> Iterator[None]:
        """With ``first_key``: the terminal hands over each key unechoed, until the block ends.

        The block holds the wait and the watch's end (its thread stopping,
        which may take a while): a key typed after the first must neither
        show nor be edited by the terminal's line mode before readline reads
        it, or the terminal's echo would print an arrow key as ``^[[D``
        before readline's prompt. The terminal's own mode comes back at the
        block's end, just before readline reads: readline shows the keys
        only where the terminal echoes them.
        """
        if not self.first_key:
            yield
            return
        import termios

        saved = termios.tcgetattr(self.stdin)
        keys = list(saved)
        keys[3] = saved[3] & ~(termios.ICANON | termios.ECHO)  # the local modes
        keys[6] = list(saved[6])
        keys[6][termios.VMIN], keys[6][termios.VTIME] = 1, 0  # a read returns each key
        termios.tcsetattr(self.stdin, termios.TCSANOW, keys)
        try:
            yield
        finally:
            # TCSANOW: the key typed stays, for readline to read.
            termios.tcsetattr(self.stdin, termios.TCSANOW, saved)

    def _drain(self) -> None:
        """Empty the wake-up pipe, so that the next ``select`` waits again."""
        try:
            while os.read(self._wake_read, 512):
                pass
        except BlockingIOError:
            pass

    def _watch(self) -> None:
        """The thread: wait for the news; if it came, say so and wake the main thread's wait."""
        try:
            came = self.news.wait()
        except Exception:  # Nothing is printed: the game meets any failure itself.
            return
        if not came:
            return
        self._came.set()
        with self._lock:
            if self._open:
                with contextlib.suppress(BlockingIOError):  # full: the wait wakes anyway
                    os.write(self._wake_write, b"!")


def watch_prompt(news: News, reader: Callable[[str], str]) -> PromptWatch | None:
    """A :class:`PromptWatch` for a prompt read with ``reader``, or None where none can work.

    None unless ``reader`` is the built-in ``input`` (a harness's does not
    block, and reads no standard input), this is the main thread (only it
    can set the signal wake-up file), the system can wait on standard input
    with ``select`` (not Windows), and standard input has a file number.
    """
    if (
        reader is not builtins.input
        or sys.platform == "win32"
        or threading.current_thread() is not threading.main_thread()
    ):
        return None
    try:
        stdin = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):
        return None
    return PromptWatch(news, stdin, first_key=_readline_reads(stdin))


def _readline_reads(stdin: int) -> bool:
    """Whether ``input()`` reads through GNU readline: loaded, and both ends a terminal.

    That is when ``input()`` hands the read to the readline module.
    """
    if "readline" not in sys.modules:
        return False
    try:
        return os.isatty(stdin) and os.isatty(sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):
        return False


class LineByLine:
    """Standard input read one byte at a time: nothing past the line asked for leaves the pipe.

    What is not read stays in the pipe, where ``select`` sees it: so
    :meth:`PromptWatch.wait` returns at once for a second line piped in
    with the first. Decoding follows the stream it replaces (its encoding
    and error handler); only ``\\n`` ends a line, as connect.py sets it.
    It has what ``input()`` and the game ask of ``sys.stdin``, nothing more.
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.encoding = stream.encoding
        self.errors = stream.errors
        self._fd = stream.fileno()

    def fileno(self) -> int:
        """The file number read: the replaced stream's."""
        return self._fd

    def isatty(self) -> bool:
        """Whether the file read is a terminal."""
        return os.isatty(self._fd)

    def readable(self) -> bool:
        """Always: a stream to read."""
        return True

    def readline(self, size: int | None = -1) -> str:
        """The next line, its ``\\n`` included; ``""`` at the end of the input."""
        line = bytearray()
        while not line.endswith(b"\n") and (size is None or size < 0 or len(line) < size):
            byte = os.read(self._fd, 1)
            if not byte:
                break
            line += byte
        return line.decode(self.encoding, self.errors or "strict")


def read_line_by_line(reader: Callable[[str], str]) -> TextIO | None:
    """Make ``sys.stdin`` a :class:`LineByLine` where a watched prompt needs it; the stream replaced.

    Only where :func:`watch_prompt` would watch ``reader``'s prompts and
    standard input is no terminal (a terminal hands over one line per read
    already), and before anything is read: the replaced stream's buffer is
    left behind. None when nothing was replaced.
    """
    if reader is not builtins.input or sys.platform == "win32" or sys.stdin is None:
        return None
    try:
        if os.isatty(sys.stdin.fileno()):
            return None
    except (AttributeError, OSError, ValueError):
        return None
    replaced = sys.stdin
    # No full TextIO: input() asks sys.stdin only for fileno() and readline().
    sys.stdin = LineByLine(replaced)
    return replaced
