"""The steps of the game's conversation: a line to show, a prompt to ask, a pause to wait.

The conversation (:func:`connect_four.terminal.session.converse`) yields these and does
no I/O; connect.py does what each says with its own ``print``, ``input``
and clock, because the course's grader sees only connect.py's ``print`` and
``input``. A :class:`Ask`'s typed answer is sent back into the generator;
the other steps get ``None``.

An :class:`Ask` may carry :class:`News`: something that can arrive while
the player thinks (the network friend's quit). connect.py then watches for
it during the prompt and, when it comes first, cuts the prompt short and
sends back None instead of a typed line.

A leaf among the terminal's modules: it imports only the engine's base of small
immutable values (engine/_value.py, loaded with the engine's game before this
module), not ``dataclasses``, which would add about half again to the
assignment's start-up.
"""

from __future__ import annotations

from connect_four.engine._value import Value

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Generator
    from typing import Protocol, TypeAlias, TypeVar

    Result = TypeVar("Result")
    Step: TypeAlias = "Show | Ask | Wait"
    # What the conversation and its parts are: generators of steps that get
    # the typed answer back for an Ask, and return ``Result`` at their end.
    Conversation: TypeAlias = Generator[Step, str | None, Result]

    class News(Protocol):
        """What may cut a prompt short; connect.py runs :meth:`wait` in a thread of its own."""

        def wait(self) -> bool:
            """Block until there is news (True), or until :meth:`stop` (False)."""

        def stop(self) -> None:
            """Make a :meth:`wait` under way return soon; called from another thread."""


__all__ = ["Show", "Ask", "Wait"]


class _Step(Value):
    """One step: the engine's immutable value of its fields, shown by position."""

    __slots__: tuple[str, ...] = ()

    def __repr__(self) -> str:
        fields = list(self._fields())
        while len(fields) > 1 and fields[-1] is None:  # an optional field left out
            fields.pop()
        return f"{type(self).__name__}({', '.join(repr(field) for field in fields)})"


class Show(_Step):
    """A line to print (without its newline).

    >>> Show("X's turn")
    Show("X's turn")
    >>> Show("a") == Show("a") != Ask("a")
    True
    """

    __slots__ = ("text",)
    text: str

    def __init__(self, text: str) -> None:
        self._set("text", text)


class Ask(_Step):
    """A prompt to show; what the player types is sent back into the conversation.

    With ``news``, the prompt may be cut short by it: the answer sent back
    is then None, and the news is the conversation's to read. Where a
    prompt cannot be cut short (another platform, a harness's ``input``)
    the player's line comes back as for any prompt.

    >>> Ask("Enter a column: ")
    Ask('Enter a column: ')
    """

    __slots__ = ("prompt", "news")
    prompt: str
    news: News | None

    def __init__(self, prompt: str, news: News | None = None) -> None:
        self._set("prompt", prompt)
        self._set("news", news)


class Wait(_Step):
    """Seconds to wait before the next step, the lines so far shown first.

    >>> Wait(0.5).seconds
    0.5
    """

    __slots__ = ("seconds",)
    seconds: float

    def __init__(self, seconds: float) -> None:
        self._set("seconds", seconds)
