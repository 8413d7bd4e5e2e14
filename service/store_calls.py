"""Run a store call from a request: on the event loop when it cannot wait, else in a thread.

Handing a call to a worker thread and back costs more than a short SQLite
call itself (two thread switches, a future, the pool's queue: some 0.3 ms
of a 0.9 ms move request, measured by ``bench/service_load.py``). A quick
store (:attr:`~connect_four.service.repository.GameStore.quick`: SQLite, in
this process) is therefore tried on the loop first, without waiting for any
lock: if one is held (another request of this process mid-write, another
process holding the database), the call changes nothing, raises
:class:`~connect_four.service.repository.WouldWaitError`, and is made again
in a worker thread, where it may wait. So the loop never sleeps on a lock,
and a slow or busy database costs the waiting request, not every request.
A store whose every call is a round trip to a server (PostgreSQL) makes
its commonest calls on the loop as coroutines, one statement each
(:meth:`~connect_four.service.repository.GameStore.call_on_loop`), and
the others, or any it cannot finish there, in a worker thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

from starlette.concurrency import run_in_threadpool

from .repository import GameStore, WouldWaitError

__all__ = ["call_store"]

P = ParamSpec("P")
T = TypeVar("T")


async def call_store(
    store: GameStore, call: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs
) -> T:
    """``call(*args, **kwargs)``, a call of ``store``: on the loop if it can be, else in a thread."""
    if store.quick:
        with store.without_waiting():
            try:
                return call(*args, **kwargs)
            except WouldWaitError:
                pass  # A lock is held: wait for it in a worker thread instead.
    else:
        try:
            return await store.call_on_loop(call, *args, **kwargs)
        except WouldWaitError:
            pass  # Not a call for the loop, or it needs the full call.
    return await run_in_threadpool(call, *args, **kwargs)
