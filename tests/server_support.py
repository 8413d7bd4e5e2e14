"""A real drop-token service in a child process on 127.0.0.1, for tests.

Shared by the service's own tests (tests/service/conftest.py) and the
network game's (connect.py --server / --join).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import httpx

REPOSITORY = Path(__file__).resolve().parents[1]

Database = str | Path
"""An SQLite file's path or a PostgreSQL URL, as ``--db`` takes them."""


def listening_socket() -> socket.socket:
    """A socket listening on a free port of 127.0.0.1, for a server to inherit.

    Binding here and handing the socket over (``--fd``) leaves no moment in
    which another program could take the port, as picking a free port and
    letting the server bind it later would.
    """
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    listener.set_inheritable(True)
    return listener


class Server:
    """``python -m service`` in a child process on 127.0.0.1, ``options`` on its command line.

    With ``keep_listening`` the test keeps its own copy of the listening
    socket: the server can be stopped and started again on the same port,
    and while it is down, connections wait unanswered in the socket's
    backlog instead of being refused. :meth:`close` then releases it.
    """

    def __init__(
        self, db: Database, options: tuple[str, ...] = (), keep_listening: bool = False
    ) -> None:
        self.db = db
        self.options = options
        self.keep_listening = keep_listening
        self.listener = listening_socket()
        self.port: int = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def command(self) -> list[str]:
        return [sys.executable, "-m", "service", "--fd", str(self.listener.fileno()),
                "--db", str(self.db), "--no-access-log", *self.options]

    def start(self) -> None:
        fd = self.listener.fileno()
        self.process = subprocess.Popen(
            self.command(),
            cwd=REPOSITORY,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(fd,),
        )
        if not self.keep_listening:
            # The socket now lives in the server: once it dies, connecting fails.
            self.listener.close()
        # Connections wait in the socket's backlog until the server accepts
        # them, so each try waits for the server itself; give up (and fail)
        # only if it dies.
        for _ in range(600):
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}")
            try:
                if httpx.get(self.url + "/drop_token", timeout=10).status_code == 200:
                    return
            except httpx.TransportError:
                continue
        raise RuntimeError("the server did not answer")

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, nothing is flushed."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def close(self) -> None:
        """Stop the server and release the listening socket."""
        self.stop()
        self.listener.close()
