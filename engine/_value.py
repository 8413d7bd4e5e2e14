"""A base for small immutable value types, without importing dataclasses.

The terminal game starts in about 10 ms on a bare interpreter; ``dataclasses``
(through ``inspect``) and ``enum`` would each add half as much again, so the
engine's value types use ``__slots__`` and this base instead.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Value:
    """Immutable, hashable, compared field by field; ``__slots__`` are the fields.

    Subclasses set their fields once in ``__init__`` with ``_set``.
    """

    __slots__: tuple[str, ...] = ()

    def _set(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)

    def _fields(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Value)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._fields()))

    def __repr__(self) -> str:
        fields = ", ".join(
            f"{name}={value!r}" for name, value in zip(self.__slots__, self._fields(), strict=True)
        )
        return f"{type(self).__name__}({fields})"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return type(self), self._fields()

    def __copy__(self) -> Value:
        return self

    def __deepcopy__(self, memo: object) -> Value:
        return self
