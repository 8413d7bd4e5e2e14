"""How soon a friend's quit ends a network game's prompt: from the quit to the player's line.

Starts ``python -m connect_four.service`` (SQLite, access log off) on a free
port of 127.0.0.1. Each round creates a game, plays ann's first move over
HTTP, and starts ``connect.py --join`` for bob reading a pipe nobody writes
to; once bob's prompt shows, ann quits over HTTP, and the round measures
the delay from sending the quit until bob's ``ann (X) quits.`` line is read
(the service's long poll, the prompt's wait in terminal/news.py, the lines
printed). It prints the median, p90 and worst over ``--rounds``, with the
machine's load. The server and every game end with the bench.

    python -m bench.prompt_news
    python -m bench.prompt_news --rounds 50
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

from bench.push_waiters import REPOSITORY, percentile, request, start_server

PROMPT = b"Enter a column: "
QUIT_LINE = b"ann (X) quits.\n"


def one_round(port: int) -> float:
    """Seconds from sending ann's quit until bob's game prints that she quit."""
    game = {"players": ["ann", "bob"], "rows": 5, "columns": 8}
    game_id = request("POST", port, "/drop_token", game)["gameId"]
    request("POST", port, f"/drop_token/{game_id}/ann", {"column": 3})
    url = f"http://127.0.0.1:{port}/drop_token/{game_id}/bob"
    bob = subprocess.Popen(
        [sys.executable, "connect.py", "--join", url],
        cwd=REPOSITORY,
        stdin=subprocess.PIPE,  # held open, never written: only the news ends the prompt
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert bob.stdout is not None and bob.stdin is not None
    shown = read_until(bob.stdout.fileno(), b"", PROMPT)
    sent = time.monotonic()
    request("DELETE", port, f"/drop_token/{game_id}/ann")
    read_until(bob.stdout.fileno(), shown, QUIT_LINE)
    delay = time.monotonic() - sent
    bob.stdin.close()
    bob.wait(timeout=60)
    bob.stdout.close()
    return delay


def read_until(fd: int, shown: bytes, text: bytes) -> bytes:
    """Read ``fd`` until what it showed (``shown`` first) holds ``text`` after ``shown``; all of it."""
    start = len(shown)
    while text not in shown[start:]:
        chunk = os.read(fd, 4096)
        if not chunk:
            raise SystemExit(f"the game ended before {text!r}: {shown!r}")
        shown += chunk
    return shown


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20, help="games played (20)")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {load()}")
    with tempfile.TemporaryDirectory() as folder:
        server, port = start_server(os.path.join(folder, "games.db"), 100)
        try:
            delays = [one_round(port) * 1000 for _ in range(args.rounds)]
        finally:
            server.terminate()
            server.wait(timeout=30)
            sys.stdout.flush()
    print(f"machine: {os.cpu_count()} cores, load average {load()}")
    print(
        f"quit to the player's line over {args.rounds} rounds: median "
        f"{statistics.median(delays):.1f} ms, p90 {percentile(delays, 0.9):.1f} ms, "
        f"worst {max(delays):.1f} ms"
    )


if __name__ == "__main__":
    main()
