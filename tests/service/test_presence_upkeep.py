"""The presence task asks ``Friends.upkeep_due`` every tick on the loop: it walks no table, and
never holds back a write that calling ``Friends.upkeep`` every tick would have made.

Two :class:`Friends` live the same random life (players seen, waits begun
and ended, arrivals shared, the clock moved in ticks, the database failing
for a while): the task's way, upkeep only when due, and upkeep at every
tick. They must write the same presence rows, in the same order, and tell
the same games' waiters.
"""

from __future__ import annotations

from typing import Any
from unittest import mock

from hypothesis import example, given, settings
from hypothesis import strategies as st

from connect_four.service import friends as friends_module
from connect_four.service.errors import StorageBusyError
from connect_four.service.friends import HEARTBEAT, LEASE, PRESENCE_GRACE, Friends
from connect_four.service.routers.friend import TICK
from fake_clock import FakeClock


class PresenceLog:
    """A store's presence writes, in order; it fails them while ``failing`` (a busy database)."""

    def __init__(self) -> None:
        self.writes: list[tuple[Any, ...]] = []
        self.failing = False

    def mark_presence(
        self, game_id: str, player: int, process: str, seen: float, until: float
    ) -> None:
        if self.failing:
            raise StorageBusyError("the database is busy")
        self.writes.append((game_id, player, seen, until))

    def forget_presence(self, before: float) -> None:
        if self.failing:
            raise StorageBusyError("the database is busy")
        self.writes.append(("forget", before))


KEYS = st.tuples(st.sampled_from(["g1", "g2"]), st.integers(0, 1)) | st.just(("g1", 0))
STEPS = st.one_of(
    st.tuples(st.just("seen"), KEYS),
    st.tuples(st.just("wait"), KEYS),
    st.tuples(st.just("unwait"), KEYS),
    st.tuples(st.just("share"), KEYS),
    st.tuples(st.just("fail"), st.booleans()),
    st.tuples(
        st.just("ticks"),
        st.sampled_from([1, 2, 4, round(PRESENCE_GRACE / TICK) + 1, round(HEARTBEAT / TICK)]),
    ),
    st.tuples(st.just("idle"), st.sampled_from([LEASE, 3600.0, 86_400.0])),
)


FORGOTTEN_SOONER = [
    ("wait", ("g1", 0)),
    ("share", ("g1", 0)),  # a row for the lease
    ("unwait", ("g1", 0)),
    ("ticks", 2),
    ("seen", ("g1", 0)),
    ("ticks", 2),
    ("seen", ("g2", 1)),  # g1's player forgotten: their row's own "seen" is due sooner
    ("ticks", 1),
]
"""A life in which forgetting a player brings their departure forward (found by hand)."""


@settings(max_examples=300, deadline=None)
@example(FORGOTTEN_SOONER)
@given(st.lists(STEPS, max_size=40))
def test_upkeep_only_when_due_writes_what_upkeep_at_every_tick_writes(
    steps: list[tuple[str, Any]],
) -> None:
    clock = FakeClock()
    logs = [PresenceLog(), PresenceLog()]
    # One player remembered, so that forgetting one (its row's own "seen" counts then) happens.
    with mock.patch.object(friends_module, "REMEMBERED", 1):
        lazy, eager = (Friends(log, clock=clock) for log in logs)  # type: ignore[arg-type]
        told: list[list[str]] = [[], []]
        open_waits: dict[tuple[str, int], int] = {}

        def tick() -> None:
            clock.advance(TICK)
            if lazy.upkeep_due():
                told[0] += lazy.upkeep()
            told[1] += eager.upkeep()
            assert told[0] == told[1]
            assert logs[0].writes == logs[1].writes

        for kind, value in steps:
            if kind == "fail":
                for log in logs:
                    log.failing = value
            elif kind == "ticks":
                for _ in range(value):
                    tick()
            elif kind == "idle":
                clock.advance(value)
                tick()
            elif kind == "unwait" and not open_waits.get(value):
                continue  # no wait of theirs to end
            else:
                if kind in ("wait", "unwait"):
                    open_waits[value] = open_waits.get(value, 0) + (1 if kind == "wait" else -1)
                for friends in (lazy, eager):
                    if kind == "seen":
                        friends.seen(*value)
                    elif kind == "share":
                        friends.share(*value)
                    else:
                        friends.waiting(*value, 1 if kind == "wait" else -1)
        for log in logs:
            log.failing = False
        for _ in range(round((LEASE + HEARTBEAT) / TICK)):
            tick()
