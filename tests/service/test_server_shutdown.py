"""Stopping a real server after winner checks and analyses: the workers end quietly with it.

A winner check starts a worker process. Ctrl-C in the server's terminal
reaches the worker too, and SIGTERM ends the server without running its
last lines; before, either printed a worker's KeyboardInterrupt traceback
or multiprocessing's "leaked semaphore objects" warning.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from server_support import Server, http_client

# Starts real server processes: outside the fast subset (CI runs it).
pytestmark = pytest.mark.slow

BOARD = "X" * 35 + "AAAABBB"


@pytest.mark.parametrize("stop", ["ctrl_c", "sigterm"])
def test_stopping_the_server_after_winner_checks_and_analyses_prints_no_worker_trouble(
    tmp_path: Path, stop: str
) -> None:
    # The command itself, not a fork of the zygote: how the whole program stops.
    server = Server(tmp_path / "games.db", capture_output=True, forked=False)
    server.start()
    try:
        with http_client(base_url=server.url, timeout=60) as client:
            assert client.get(f"/winner/{BOARD}").text == "A"
            assert client.post("/winner", json={"board": BOARD}).json()["winner"] == "A"
            analysis = client.post("/analysis", json={"rows": 4, "columns": 4, "moves": [0]})
            assert analysis.status_code == 200, analysis.text
        assert server.process is not None
        if stop == "ctrl_c":
            server.interrupt()
        else:
            server.process.send_signal(signal.SIGTERM)
        output = server.output()
    finally:
        server.close()
    assert "Application shutdown complete." in output
    assert "Traceback" not in output, output
    assert "leaked" not in output, output
    assert "Warning" not in output, output
