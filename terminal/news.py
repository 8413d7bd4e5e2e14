"""A prompt cut short by news: the player's ``input()`` ends when the news comes first.

For an :class:`~connect_four.terminal.steps.Ask` that carries news (the
network game's watch on the friend's moves), connect.py wraps its own
``input()`` in a :class:`PromptWatch`: a thread runs the news's ``wait()``
and, when news comes, sends SIGUSR1 to the main thread. The blocked read
then fails with EINTR, Python runs the handler installed for the prompt,
and the handler raises :class:`NewsArrived` out of ``input()``. This is how
Ctrl-C ends a prompt too (GNU readline included), and it needs nothing
outside the standard library; a thread cannot cancel the main thread's
read any other way, and reading stdin with ``select`` would move the
prompt out of ``input()``, where the course's harness must see it.

The news is what counts, not the signal: the handler raises only when the
watcher sent it, so a SIGUSR1 from elsewhere leaves the prompt alone. Where
the signal cannot be sent (Windows, a thread other than the main one) or
``input`` is not the built-in one (a harness's, which does not block),
:func:`watch_prompt` returns None and the prompt stays as it always was.

Only a network game loads this module: the assignment's game never
imports ``signal`` or ``threading``.
"""

from __future__ import annotations

import builtins
import signal
import sys
import threading
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import FrameType

    from .steps import News

__all__ = ["NewsArrived", "PromptWatch", "watch_prompt"]

STOP_SECONDS = 5.0
"""How long ending a watch waits for its thread (the news's ``stop()`` makes it quick)."""

# A signal that found the main thread outside ``input()`` is sent again
# after this long, so many times at most (then the prompt stands, as it
# would without a watch).
_RESEND_SECONDS = 0.05
_SENDS = 100

# The signal that interrupts the read; SIGINT is the player's own Ctrl-C.
_SIGNAL_NAME = "SIGUSR1"


class NewsArrived(Exception):
    """Raised out of the player's ``input()`` when the watched news came first."""


class PromptWatch:
    """Watches ``news`` in a thread while the main thread's ``input()`` waits for the player.

    Used in this order, by the main thread, around one ``input()``::

        try:
            try:
                watch.start()
                typed = input(prompt)
            finally:
                watch.disarm()
        except NewsArrived:
            typed = None
        finally:
            cut_short = watch.stop()

    :class:`NewsArrived` is raised at most once, and only in the frame that
    called :meth:`start`, in practice from within ``input()``: a signal that
    lands elsewhere (while the thread starts) is sent again, so the prompt
    is shown before it is cut short. Wherever it lands (even just after
    ``input()`` returned) the news is what the prompt ends with: :meth:`stop`
    says so, and a typed line is then dropped.
    """

    def __init__(self, news: News, signal_number: int) -> None:
        self.news = news
        self._signal = signal_number
        self._main = threading.get_ident()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._watch, name="news watcher", daemon=True)
        self._previous: Callable[[int, FrameType | None], object] | int | None = None
        self._asker: FrameType | None = None
        # Written by the watcher thread, under the lock.
        self._pending = True  # the prompt has not ended: news may still cut it short
        self._sent = False  # the watcher has sent the signal
        # Written by the main thread (the handler runs there too).
        self._armed = False
        self._ended = threading.Event()  # set by stop(): no signal is sent again

    def start(self) -> None:
        """Install the handler and start watching; the caller's next call is ``input()``."""
        self._asker = sys._getframe(1)
        self._previous = signal.signal(self._signal, self._handle)
        self._armed = True
        # The thread is born with every signal blocked, so that the kernel
        # hands a signal for the whole program (Ctrl-C's SIGINT) to this
        # thread, whose read it interrupts; one that came to the watcher
        # would wait for the player's Enter. Meanwhile they wait here.
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
        try:
            self._thread.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)

    def disarm(self) -> None:
        """From now on the signal raises nothing: the prompt is over."""
        self._armed = False

    def stop(self) -> bool:
        """End the watch: stop its thread, put the old handler back; whether news came first."""
        with self._lock:
            self._pending = False  # from here on the thread sends nothing
            sent = self._sent
        self._ended.set()
        try:
            self.news.stop()
            if self._thread.ident is not None:
                self._thread.join(STOP_SECONDS)
        finally:
            self._asker = None
            if self._previous is not None and self._drained():
                signal.signal(self._signal, self._previous)
        return sent

    def _drained(self) -> bool:
        """Whether no signal the watcher sent is still on its way to the handler.

        Until then the handler stays: the default one would end the program.
        A signal no longer pending has reached this thread, whose handler
        runs at the next call.
        """
        if self._thread.is_alive():
            return False
        deadline = time.monotonic() + STOP_SECONDS
        while self._signal in signal.sigpending():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.001)
        return True

    def _watch(self) -> None:
        """The thread: wait for the news, then interrupt the prompt while it stands."""
        try:
            news = self.news.wait()
        except Exception:  # Nothing is printed: the game meets any failure itself.
            return
        if not news:
            return
        for _ in range(_SENDS):
            with self._lock:
                if not self._pending:
                    return
                self._sent = True
                signal.pthread_kill(self._main, self._signal)
            if self._ended.wait(_RESEND_SECONDS):
                return

    def _handle(self, signal_number: int, frame: FrameType | None) -> None:
        """The handler, run in the main thread: raise once, in the prompt's frame, if sent."""
        if self._sent and self._armed and frame is not None and frame is self._asker:
            self._armed = False
            raise NewsArrived
        # Someone else's signal, or the thread still starting: the prompt goes on.


def watch_prompt(news: News, reader: Callable[[str], str]) -> PromptWatch | None:
    """A :class:`PromptWatch` for a prompt read with ``reader``, or None where none can work.

    None unless ``reader`` is the built-in ``input`` (a harness's returns at
    once, and a signal must not land in its code), this is the main thread
    (only it can have signal handlers), and the platform can send a signal
    to one thread and keep signals from one (not Windows).
    """
    number = getattr(signal, _SIGNAL_NAME, None)
    if (
        reader is not builtins.input
        or number is None
        or not hasattr(signal, "pthread_kill")
        or not hasattr(signal, "pthread_sigmask")
        or threading.current_thread() is not threading.main_thread()
    ):
        return None
    return PromptWatch(news, number)
