"""A real drop-token service in a child process on 127.0.0.1 (or another loopback address), for tests.

Shared by the service's own tests (tests/service/conftest.py), the
network game's (connect.py --server / --join) and the browser page's.
"""

from __future__ import annotations

import os
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from server_zygote import ZYGOTE, ForkedProcess

REPOSITORY = Path(__file__).resolve().parents[1]

_TLS = ssl.create_default_context()
"""The one TLS context of every client below. httpx builds a context for
each client, even for the plain HTTP of the services under test, and
building one loads the system's certificates: 20 ms of CPU a client."""


def http_client(**options: Any) -> httpx.Client:
    """An ``httpx.Client`` for the services under test (``options`` as httpx takes them)."""
    return httpx.Client(verify=_TLS, **options)


HTTP = http_client(limits=httpx.Limits(max_keepalive_connections=0))
"""For one-off requests, in place of ``httpx.get`` and its kin, which build a
client each; it keeps no connection open, as they did not."""

Database = str | Path
"""An SQLite file's path or a PostgreSQL URL, as ``--db`` takes them."""

Test = TypeVar("Test", bound=Callable[..., None])

SHARED_APP = pytest.mark.shared_app
"""The mark that gives a test's ``client`` the session's one app (tests/service/conftest.py)."""


def answered_before_storage(test: Test) -> Test:
    """For a test of answers the service gives before it reads or writes a game.

    Malformed requests and the OpenAPI document are the same on every
    database and on every app: such a test runs once, on SQLite, through
    the session's shared app (a new app cost 10 ms, its OpenAPI document
    30 ms more), not twice on new ones.
    """
    on_sqlite = pytest.mark.parametrize("database", ["sqlite"], indirect=True)
    return on_sqlite(SHARED_APP(test))


LOOPBACK = "127.0.0.1"
"""The address the tests' servers listen on unless told another of 127.0.0.0/8."""


def listening_socket(host: str = LOOPBACK) -> socket.socket:
    """A socket listening on a free port of ``host`` (a loopback address), for a server to inherit.

    Binding here and handing the socket over (``--fd``) leaves no moment in
    which another program could take the port, as picking a free port and
    letting the server bind it later would.
    """
    # TCP by name: asyncio turns Nagle's algorithm off only on connections
    # whose listener says IPPROTO_TCP (socket.socket() says 0).
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.bind((host, 0))
    listener.listen(128)
    listener.set_inheritable(True)
    return listener


class Server:
    """``python -m connect_four.service`` in a child process on ``host``, ``options`` on its command line.

    With ``keep_listening`` the test keeps its own copy of the listening
    socket: the server can be stopped and started again on the same port,
    and while it is down, connections wait unanswered in the socket's
    backlog instead of being refused. :meth:`close` then releases it.

    With ``capture_output`` the server leads a process group of its own (as
    a command typed in a terminal does, so :meth:`interrupt` is a Ctrl-C),
    and everything it and its children print is kept for :meth:`output`.

    The server is forked from this process's zygote (tests/server_zygote.py),
    which has imported the service once; ``forked=False`` starts the command
    itself, a new interpreter (0.4 s of CPU more).
    """

    def __init__(
        self,
        db: Database,
        options: tuple[str, ...] = (),
        keep_listening: bool = False,
        capture_output: bool = False,
        forked: bool = True,
        host: str = LOOPBACK,
    ) -> None:
        self.db = db
        self.forked = forked
        self.options = options
        self.keep_listening = keep_listening
        self.capture_output = capture_output
        self.listener = listening_socket(host)
        self.port: int = self.listener.getsockname()[1]
        self.url = f"http://{host}:{self.port}"
        self.process: subprocess.Popen[bytes] | ForkedProcess | None = None

    def command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "connect_four.service",
            "--fd",
            str(self.listener.fileno()),
            "--db",
            str(self.db),
            "--no-access-log",
            *self.options,
        ]

    def start(self) -> None:
        fd = self.listener.fileno()
        captured = self.capture_output
        launch = ZYGOTE.popen if self.forked else subprocess.Popen
        self.process = launch(
            self.command(),
            cwd=REPOSITORY,
            stdout=subprocess.PIPE if captured else subprocess.DEVNULL,
            stderr=subprocess.STDOUT if captured else subprocess.DEVNULL,
            pass_fds=(fd,),
            start_new_session=captured,
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
                if HTTP.get(self.url + "/drop_token", timeout=10).status_code == 200:
                    return
            except httpx.TransportError:
                continue
        raise RuntimeError("the server did not answer")

    def interrupt(self) -> None:
        """SIGINT to the server's whole process group, as Ctrl-C in its terminal sends it."""
        assert self.process is not None and self.capture_output
        os.killpg(self.process.pid, signal.SIGINT)

    def output(self, timeout: float = 60) -> str:
        """All the server and its children printed, once every one of them has ended.

        The pipe reaches its end only when the last process holding it (the
        server, a winner-check worker, multiprocessing's resource tracker)
        has exited, so the answer also says that none is left behind.
        """
        assert self.process is not None and self.capture_output
        printed, _ = self.process.communicate(timeout=timeout)
        return (printed or b"").decode(errors="replace")

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, nothing is flushed."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def begin_stop(self) -> None:
        """SIGTERM, without waiting for the server to end (:meth:`stop` waits)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()

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


_stopping: list[Server] = []
"""Servers told to stop whose end :func:`wait_for_stopped_servers` awaits (tests' teardowns)."""


def stop_later(server: Server) -> None:
    """Tell ``server`` to stop; its end is waited for at the session's end, not now.

    uvicorn's shutdown takes 0.15 to 0.2 s, nearly all of it waiting (its
    0.1 s tick): a server nothing will reach again (its address never used
    again, its database its own) ends while the next test runs. Servers that
    ended already are forgotten here.
    """
    server.begin_stop()
    _stopping.append(server)
    _stopping[:] = [
        other for other in _stopping if other.process is not None and other.process.poll() is None
    ]


def wait_for_stopped_servers() -> None:
    """Wait for every server :func:`stop_later` stopped to end (killed after 10 s)."""
    while _stopping:
        _stopping.pop().stop()


class FirstReads:
    """The lines the test's servers append once a waiting request's first read found no news
    (``FIRST_READS`` in tests/server_zygote.py)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def wait_for(self, server: Server, game_id: str, start: int | str) -> None:
        """Return once ``server`` holds a request for ``game_id``'s moves from ``start`` on."""
        assert server.process is not None
        line = f"{server.process.pid} {game_id} {start}"
        deadline = time.monotonic() + 30
        while line not in self.path.read_text(encoding="utf-8").splitlines():
            assert time.monotonic() < deadline, f"{server.url} never waited: {line}"
            time.sleep(0.001)
