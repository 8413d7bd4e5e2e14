"""What presence shared through the database costs, and how long a stopped process vouches.

Two :class:`Friends` on two stores of one database (an SQLite file, then a
PostgreSQL database) stand for two service processes; the test calls what
the routes and the upkeep task call, with the clock in its hands. Rows are
written when a player arrives, every heartbeat while they wait and once
when they leave: never once per poll.
"""

from __future__ import annotations

from typing import Any

import pytest
from friend_support import FakeClock

from connect_four.service.friends import (
    FORGET_AFTER,
    HEARTBEAT,
    LEASE,
    PRESENCE_GRACE,
    Friends,
)
from connect_four.service.repository import GameStore


class Writes:
    """Counts a store's presence writes while passing them on."""

    def __init__(self, store: GameStore) -> None:
        self.count = 0
        mark = store.mark_presence

        def counted(*args: Any) -> None:
            self.count += 1
            mark(*args)

        store.mark_presence = counted  # type: ignore[method-assign]


def test_a_waiting_player_costs_a_write_a_heartbeat_not_one_a_poll(
    stores: tuple[GameStore, GameStore],
) -> None:
    clock = FakeClock()
    friends = Friends(stores[0], clock=clock)
    writes = Writes(stores[0])
    friends.waiting("g", 0, 1)
    friends.share("g", 0)  # She arrives: written.
    assert writes.count == 1
    for _ in range(20):  # 20 polls in 4 s: each wait answered, the next begun at once.
        friends.waiting("g", 0, -1)
        friends.waiting("g", 0, 1)
        friends.share("g", 0)
        friends.upkeep()
        clock.advance(0.2)
    assert writes.count == 1
    clock.advance(HEARTBEAT - 4 + 0.01)
    friends.upkeep()  # Her heartbeat.
    assert writes.count == 2
    friends.waiting("g", 0, -1)  # She polls no more...
    friends.upkeep()
    assert writes.count == 2  # ...but may be back within the grace.
    clock.advance(PRESENCE_GRACE + 0.01)
    assert friends.upkeep() == ["g"]  # Gone: written once, and her game's waiters told.
    assert friends.upkeep() == []
    assert writes.count == 3
    clock.advance(3600)
    assert friends.upkeep() == []
    assert writes.count == 3


def test_a_stopped_process_vouches_for_its_waiting_player_until_the_lease_ends(
    stores: tuple[GameStore, GameStore],
) -> None:
    clock = FakeClock()
    first, second = (Friends(store, clock=clock) for store in stores)
    game = stores[0].create_game(players=["ann", "bob"], rows=4, columns=4).game_id
    first.waiting(game, 0, 1)
    first.share(game, 0)
    # The first process stops (no upkeep, no departure): the second trusts its row a while.
    clock.advance(LEASE - 0.01)
    assert second.view(game).players[0].present is True
    clock.advance(0.02)
    ann = second.view(game).players[0]
    assert ann.present is False
    assert ann.away_for == pytest.approx(LEASE + 0.01)


def test_rows_that_vouch_for_nobody_for_a_day_are_deleted(
    stores: tuple[GameStore, GameStore],
) -> None:
    clock = FakeClock()
    friends = Friends(stores[0], clock=clock)
    friends.seen("old", 0)
    friends.share("old", 0)
    clock.advance(FORGET_AFTER / 2)
    friends.seen("new", 1)
    friends.share("new", 1)
    clock.advance(FORGET_AFTER / 2 + 3600)  # An hour past the old row's day.
    friends.upkeep()
    assert stores[1].presence_rows("old") == []
    assert [row.player for row in stores[1].presence_rows("new")] == [1]
