"""The steps of the game's conversation: a line to show, a prompt to ask, a pause to wait.

The conversation (:func:`connect_four.terminal.session.converse`) yields these and does
no I/O; connect.py does what each says with its own ``print``, ``input``
and clock, because the course's grader sees only connect.py's ``print`` and
``input``. A :class:`Ask`'s typed answer is sent back into the generator;
the other steps get ``None``.

A leaf: it imports nothing. The classes are small immutable values written
out by hand: ``dataclasses`` (through ``inspect``) would add about half again
to the assignment's start-up, as engine/_value.py measured.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Generator
    from typing import TypeAlias, TypeVar

    Result = TypeVar("Result")
    Step: TypeAlias = "Show | Ask | Wait"
    # What the conversation and its parts are: generators of steps that get
    # the typed answer back for an Ask, and return ``Result`` at their end.
    Conversation: TypeAlias = Generator[Step, str | None, Result]

__all__ = ["Show", "Ask", "Wait"]


class _Step:
    """One step: a value of one field, immutable, compared by kind and field."""

    __slots__: tuple[str, ...] = ()

    def _field(self) -> object:
        return getattr(self, self.__slots__[0])

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _Step)
        return self._field() == other._field()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._field()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._field()!r})"


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
        object.__setattr__(self, "text", text)


class Ask(_Step):
    """A prompt to show; what the player types is sent back into the conversation."""

    __slots__ = ("prompt",)
    prompt: str

    def __init__(self, prompt: str) -> None:
        object.__setattr__(self, "prompt", prompt)


class Wait(_Step):
    """Seconds to wait before the next step, the lines so far shown first.

    >>> Wait(0.5).seconds
    0.5
    """

    __slots__ = ("seconds",)
    seconds: float

    def __init__(self, seconds: float) -> None:
        object.__setattr__(self, "seconds", seconds)
