"""``--max-db-pages`` bounds the files on disk, the write-ahead log included (issue 33, finding 5).

Before, a cap of 40 pages stopped the database file at 159,744 bytes while
its log grew to 12.7 MB (116 MB under 50 writers): the log was checkpointed
every 200 commits and never shrunk. Now the log is emptied (a TRUNCATE
checkpoint) whenever it passes half the cap, and a write that could take it
past the cap waits until it is emptied.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from connect_four.service.errors import StorageError
from connect_four.service.sqlite_store import SqliteGameStore, disk_bound
from server_support import REPOSITORY

CAP = 40
WRITERS = 50
MOVES = 60
PLAYERS = [f"p{n}" for n in range(7)]


def on_disk(db: Path) -> int:
    """Bytes of the database's files now: the file, its log and the log's index."""
    total = 0
    for suffix in ("", "-wal", "-shm"):
        try:
            total += os.stat(f"{db}{suffix}").st_size
        except FileNotFoundError:
            pass
    return total


@pytest.mark.slow  # 3,000 writes from 50 threads: a second of CPU
def test_the_cap_bounds_the_file_its_log_and_index_under_50_writers(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    store = SqliteGameStore(db, max_pages=CAP)
    games = [
        store.create_game(players=PLAYERS, rows=100, columns=100).game_id for _ in range(WRITERS)
    ]
    largest = [on_disk(db)]
    stored = [0]
    refused = [0]
    lock = threading.Lock()

    def write(game_id: str) -> None:
        turn = 0
        for _ in range(MOVES):
            try:
                store.play(game_id=game_id, player_id=PLAYERS[turn % 7], column=turn // 100)
                turn += 1
                with lock:
                    stored[0] += 1
            except StorageError:
                with lock:
                    refused[0] += 1
            size = on_disk(db)
            with lock:
                largest.append(size)

    threads = [threading.Thread(target=write, args=(game,)) for game in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    store.close()
    assert stored[0] > 100 and refused[0] > 0  # The cap was reached, and writes went on before.
    assert max(largest) <= disk_bound(CAP), (max(largest), disk_bound(CAP))


def test_the_readme_states_the_bound() -> None:
    readme = " ".join((REPOSITORY / "service" / "README.md").read_text().split())
    assert f"{disk_bound(CAP):,} bytes for N = {CAP}" in readme
