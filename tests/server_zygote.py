"""Servers forked from one process that has imported the service already, for tests.

A server process (``python -m connect_four.service``) spends 0.4 s of CPU
importing FastAPI, pydantic and uvicorn before it serves; the suite starts
dozens, on a machine whose two cores the suite keeps busy. Each xdist
worker starts one *zygote* instead: a Python that imports the service's
command line once and then, on request, forks a child that runs
``python -m connect_four.service`` exactly as the interpreter would (the
module run as ``__main__`` with the given arguments, working folder,
environment, standard streams and inherited sockets, in a session of its
own if asked), so a fork costs milliseconds. :meth:`Zygote.popen` hands back a
:class:`ForkedProcess`, the part of :class:`subprocess.Popen` the tests
use (or :meth:`Zygote.run`, for ``subprocess.run``); the child's exit status comes back through a pipe of its own, which
the zygote writes when it reaps the child.

What a fork cannot show, the real interpreter's start-up, is tested apart:
tests/service/test_server_shutdown.py starts and stops the command itself
(``Server(forked=False)``), tests/service/test_storage_faults.py starts it
with the database named by the environment, tests/service/test_store.py
asks it for ``--help``, and tests/test_packaging.py runs the installed
``connect-four-service``.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import TypedDict

MODULE = "connect_four.service"
"""The one program the zygote runs: ``python -m`` this."""

FIRST_READS = "CONNECT_FOUR_TEST_FIRST_READS"
"""Set to a file's path in the environment, a forked server tells its waiting requests there.

Each request for a game's moves that waits (``?wait=``) appends one line,
``PID GAME START``, once its first read found no move from ``start`` on:
from then on a move can reach it only by a wake, so a test that posts one
then knows the answer comes by push (tests/service/test_push_processes.py).
"""

_STATUS = struct.Struct("<i")
"""An exit status as :attr:`subprocess.Popen.returncode` has it (negative: a signal)."""


class ForkedProcess:
    """A server forked by the zygote: what the tests use of :class:`subprocess.Popen`."""

    def __init__(
        self, args: list[str], pid: int, status: int, stdout: int | None, stderr: int | None
    ) -> None:
        self.args = args
        self.pid = pid
        self.returncode: int | None = None
        self._status: int | None = status
        self._pipes = {
            name: fd for name, fd in (("out", stdout), ("err", stderr)) if fd is not None
        }

    def poll(self) -> int | None:
        """The exit status if the process has ended, else None (without waiting)."""
        if self._status is not None and select.select([self._status], [], [], 0)[0]:
            self._read_status()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """The exit status, once the process has ended (``TimeoutExpired`` after ``timeout``)."""
        if self._status is not None:
            if not select.select([self._status], [], [], timeout)[0]:
                raise subprocess.TimeoutExpired(self.args, timeout or 0.0)
            self._read_status()
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, number: int) -> None:
        """Send a signal, unless the process has been reaped (its pid may be another's by now)."""
        if self.poll() is None:
            os.kill(self.pid, number)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def communicate(self, timeout: float | None = None) -> tuple[bytes | None, bytes | None]:
        """The captured output and errors, once all holding the pipes have closed them; then the exit."""
        deadline = None if timeout is None else time.monotonic() + timeout
        read: dict[str, list[bytes]] = {name: [] for name in self._pipes}
        open_pipes = dict(self._pipes)
        while open_pipes:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready = select.select(list(open_pipes.values()), [], [], left)[0]
            if not ready:
                raise subprocess.TimeoutExpired(self.args, timeout or 0.0)
            for name, fd in list(open_pipes.items()):
                if fd in ready:
                    chunk = os.read(fd, 65536)
                    if chunk:
                        read[name].append(chunk)
                    else:
                        os.close(fd)
                        del open_pipes[name], self._pipes[name]
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        self.wait(left)
        out, err = (b"".join(read[name]) if name in read else None for name in ("out", "err"))
        return out, err

    def _read_status(self) -> None:
        assert self._status is not None
        data = os.read(self._status, _STATUS.size)
        os.close(self._status)
        self._status = None
        if len(data) != _STATUS.size:  # the zygote died, and its end of the pipe with it
            raise RuntimeError(f"the server zygote ended before server {self.pid} did")
        (self.returncode,) = _STATUS.unpack(data)

    def __del__(self) -> None:
        for fd in [self._status, *self._pipes.values()]:
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)


class _Request(TypedDict):
    """What the zygote is asked: the server's arguments and the world it starts in."""

    argv: list[str]
    cwd: str
    environ: dict[str, str]
    new_session: bool
    pass_fds: list[int]


class Zygote:
    """The test process's end of one zygote: started on first use, ended with the process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._control: socket.socket | None = None
        self._process: subprocess.Popen[bytes] | None = None

    def popen(
        self,
        args: list[str],
        *,
        cwd: Path,
        stdout: int = subprocess.DEVNULL,
        stderr: int = subprocess.DEVNULL,
        pass_fds: tuple[int, ...] = (),
        start_new_session: bool = False,
    ) -> ForkedProcess:
        """Fork ``args`` (``python -m connect_four.service ...``) as ``subprocess.Popen`` would start it.

        The streams take what Popen's do here: ``subprocess.DEVNULL`` or
        ``subprocess.PIPE``, and for ``stderr`` also ``subprocess.STDOUT``.
        """
        if args[1:3] != ["-m", MODULE]:
            raise ValueError(f"the zygote runs python -m {MODULE} only, not {args!r}")
        status_read, status_write = os.pipe()
        ours: list[int | None] = []
        theirs: list[int] = []
        for stream in (stdout, stderr):
            if stream == subprocess.PIPE:
                read_end, write_end = os.pipe()
                ours.append(read_end)
                theirs.append(write_end)
            elif stream == subprocess.STDOUT and theirs:
                ours.append(None)
                theirs.append(os.dup(theirs[0]))
            elif stream == subprocess.DEVNULL:
                ours.append(None)
                theirs.append(os.open(os.devnull, os.O_WRONLY))
            else:
                raise ValueError(f"the zygote cannot send a stream to {stream!r}")
        request: _Request = {
            "argv": args[3:],
            "cwd": str(cwd),
            "environ": dict(os.environ),
            "new_session": start_new_session,
            "pass_fds": list(pass_fds),
        }
        try:
            with self._lock:
                control = self._started()
                fds = [status_write, *theirs, *pass_fds]
                socket.send_fds(control, [json.dumps(request).encode()], fds)
                reply = control.recv(_STATUS.size)
        finally:
            for fd in (status_write, *theirs):
                os.close(fd)
        if len(reply) != _STATUS.size:
            raise RuntimeError("the server zygote ended")
        (pid,) = _STATUS.unpack(reply)
        return ForkedProcess(args, pid, status_read, *ours)

    def run(
        self, args: list[str], *, cwd: Path, pass_fds: tuple[int, ...], timeout: float
    ) -> subprocess.CompletedProcess[str]:
        """Fork ``args`` and let it run to its end: ``subprocess.run(capture_output=True, text=True)``."""
        process = self.popen(
            args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, pass_fds=pass_fds
        )
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            raise
        return subprocess.CompletedProcess(
            args, process.wait(), (out or b"").decode(), (err or b"").decode()
        )

    def _started(self) -> socket.socket:
        if self._control is None:
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            self._process = subprocess.Popen(
                [sys.executable, __file__, str(theirs.fileno())],
                cwd=Path(__file__).resolve().parents[1],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
            )
            theirs.close()
            self._control = ours
        return self._control


ZYGOTE = Zygote()
"""This process's zygote (each xdist worker has its own)."""


# --- The zygote itself: ``python tests/server_zygote.py FD`` -------------------------


class _Fork(Exception):
    """Raised in a forked child to leave the zygote's loop and run the server at the top."""

    def __init__(self, request: _Request, fds: list[int]) -> None:
        super().__init__()
        self.request = request
        self.fds = fds


def _serve(control: socket.socket) -> None:
    """Fork a child for each request until the test process closes its end."""
    statuses: dict[int, int] = {}  # pid -> the write end of its status pipe

    def reap(_signum: int, _frame: object) -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            fd = statuses.pop(pid, None)
            if fd is not None:
                # The test may have dropped its end (a ForkedProcess collected
                # unwaited): the status then goes nowhere, and the zygote lives on.
                with contextlib.suppress(OSError):
                    os.write(fd, _STATUS.pack(os.waitstatus_to_exitcode(status)))
                os.close(fd)

    signal.signal(signal.SIGCHLD, reap)
    while True:
        message, fds, _flags, _address = socket.recv_fds(control, 1 << 20, 16)
        if not message:
            break
        request: _Request = json.loads(message)
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})
        pid = os.fork()
        if pid == 0:
            raise _Fork(request, fds)
        statuses[pid] = fds[0]
        for fd in fds[1:]:
            os.close(fd)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
        control.sendall(_STATUS.pack(pid))
    for pid in list(statuses):  # the test process is gone: so are its servers
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _become(fork: _Fork) -> None:
    """In the child: the streams, sockets, folder and environment asked for, then the server."""
    import random
    import runpy

    request, fds = fork.request, fork.fds
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
    if request["new_session"]:
        os.setsid()
    wanted = request["pass_fds"]
    # Out of the way first, so that no dup2 below overwrites one still needed.
    lowest = 3 + max([*wanted, *fds])
    output, error, *passed = (_dup_above(fd, lowest) for fd in fds[1:])
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(output, 1)
    os.dup2(error, 2)
    for target, fd in zip(wanted, passed, strict=True):
        os.dup2(fd, target)
    _close_all_but(keep={0, 1, 2, *wanted})
    os.chdir(str(request["cwd"]))
    os.environ.clear()
    os.environ.update(request["environ"])
    random.seed()
    if FIRST_READS in os.environ:
        _tell_first_reads(Path(os.environ[FIRST_READS]))
    sys.argv = [MODULE, *request["argv"]]
    runpy.run_module(MODULE, run_name="__main__", alter_sys=True)


def _tell_first_reads(told: Path) -> None:
    """Make each waiting request for moves append ``PID GAME START`` to ``told`` after its first read.

    Only once that read found no move: the request is then registered with
    the app's hub (before it read), and waits. The lobby's feeds alike
    (``PID ~lobby lobby``, ``PID ~player:NAME me``).
    """
    from collections.abc import Callable
    from typing import Any

    from connect_four.service.long_poll import Reading
    from connect_four.service.routers import drop_token, lobby

    wait_for_news = drop_token.wait_for_news

    async def telling(
        hub: Any,
        store: Any,
        game_id: str,
        key: Any,
        read: Callable[[], Reading[Any]],
        timeout: float,
        receive: Any = None,
    ) -> Any:
        first = True

        def read_and_tell() -> Reading[Any]:
            nonlocal first
            reading = read()
            if first and not reading.news:
                with told.open("a", encoding="utf-8") as lines:
                    lines.write(f"{os.getpid()} {game_id} {key[0]}\n")
            first = False
            return reading

        return await wait_for_news(hub, store, game_id, key, read_and_tell, timeout, receive)

    drop_token.wait_for_news = telling  # type: ignore[assignment]
    lobby.wait_for_news = telling  # type: ignore[assignment]


def _dup_above(fd: int, lowest: int) -> int:
    """A copy of ``fd`` numbered ``lowest`` or above; ``fd`` is closed."""
    import fcntl

    copy = fcntl.fcntl(fd, fcntl.F_DUPFD, lowest)
    os.close(fd)
    return copy


def _close_all_but(keep: set[int]) -> None:
    """Close every file descriptor not in ``keep``, as ``Popen(close_fds=True)`` does."""
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd not in keep:
            with contextlib.suppress(OSError):  # the folder's own descriptor, closed by now
                os.close(fd)
    for fd in keep - {0, 1, 2}:
        os.set_inheritable(fd, True)


def _warm_routes() -> None:
    """Build the app's routes' models once here, so that no forked server builds them again."""
    import importlib.util
    import tempfile

    from connect_four.service.main import create_app

    # By its path: the zygote's sys.path is a server's, without tests/.
    spec = importlib.util.spec_from_file_location(
        "route_memo", Path(__file__).with_name("route_memo.py")
    )
    assert spec is not None and spec.loader is not None
    route_memo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(route_memo)
    if route_memo.install():
        with tempfile.TemporaryDirectory() as folder:
            route_memo.warm(create_app(Path(folder) / "warm.db"))


if __name__ == "__main__":
    # As ``python -m`` has it: the working folder first on the path, not tests/.
    sys.path[0] = os.getcwd()
    import connect_four.service.serving  # noqa: F401  (what every server imports, once)

    _warm_routes()

    # Frozen before any fork: a child's settle_memory() then collects only what
    # the child made, not all the zygote imported (a server's CPU: 75 ms -> 53 ms).
    gc.collect()
    gc.freeze()

    try:
        _serve(socket.socket(fileno=int(sys.argv[1])))
    except _Fork as fork:
        _become(fork)
