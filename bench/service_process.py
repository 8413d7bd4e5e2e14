"""A service process for a benchmark: its socket bound here and handed over, started once it answers."""

from __future__ import annotations

import http.client
import socket
import subprocess
import sys
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]

START_POLLS = 600
"""Tries, 50 ms apart, for the service to answer before the bench gives up (30 s)."""


def start_service(db: str | Path, *options: str) -> tuple[subprocess.Popen[bytes], int]:
    """``python -m connect_four.service`` on a free port of 127.0.0.1 with ``options``; it and its port.

    The listening socket is bound here and inherited (``--fd``), so no
    client can find the port closed while the service starts. Returns once
    ``GET /drop_token`` is answered; a service that exits or stays silent
    ends the bench (SystemExit).
    """
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.bind(("127.0.0.1", 0))
    listener.listen(4096)
    port: int = listener.getsockname()[1]
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "connect_four.service",
            "--fd",
            str(listener.fileno()),
            "--db",
            str(db),
            "--no-access-log",
            *options,
        ],
        cwd=REPOSITORY,
        pass_fds=(listener.fileno(),),
    )
    listener.close()
    for _ in range(START_POLLS):
        if process.poll() is not None:
            raise SystemExit(f"the server exited with {process.returncode}")
        if _answers(port):
            return process, port
        time.sleep(0.05)  # polling a starting process, not settling a test
    process.kill()
    raise SystemExit("the server did not start")


def _answers(port: int) -> bool:
    """Whether the service on ``port`` answers ``GET /drop_token`` with 200 yet."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("GET", "/drop_token")
        return connection.getresponse().status == 200
    except OSError:
        return False
    finally:
        connection.close()
