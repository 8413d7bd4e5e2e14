"""A long poll whose client has gone ends at once, even while a clock makes it read again."""

from __future__ import annotations

from pathlib import Path

from loop_support import run_async
from starlette.types import Message

from connect_four.service.events import EventHub
from connect_four.service.long_poll import Reading, wait_for_news
from connect_four.service.routers.drop_token import FLAG_TICK
from connect_four.service.storage import open_store


def test_a_wait_whose_client_left_answers_at_once_and_reads_no_more(tmp_path: Path) -> None:
    """Before the fix, the wait read on and on, on the event loop, until its deadline: a page
    closed during a clocked game froze the whole service for the rest of its 25 s wait."""
    store = open_store(tmp_path / "games.db")
    reads = 0

    def read() -> Reading[str]:
        nonlocal reads
        reads += 1
        return Reading("no news", news=False, again=FLAG_TICK)

    async def receive() -> Message:
        return {"type": "http.disconnect"}

    async def wait() -> str:
        return await wait_for_news(EventHub(), store, "game", "moves", read, 3.0, receive)

    try:
        assert run_async(wait()) == "no news"
    finally:
        store.close()
    assert reads <= 2  # the first read, and at most one more: never a read per turn of the loop
