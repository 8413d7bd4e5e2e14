"""A throw-away PostgreSQL server for the tests and the load benchmark.

``initdb`` makes a cluster in a new temporary folder; ``pg_ctl start -w``
starts it listening only on a unix socket in that folder (no TCP port, so
no race for one), and :meth:`Cluster.remove` stops it and deletes the
folder. PostgreSQL refuses to run as root: as root, the server runs as the
``postgres`` user (made by the Debian package) through ``runuser``.

Where no server is installed, :func:`start_cluster` skips the calling test
and says why, except on CI (``CI=true``), where it fails: there the tests
must run.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

__all__ = ["Cluster", "find_server_program", "start_cluster"]

SERVER_USER = "postgres"
"""Who runs the server when the tests run as root."""


def find_server_program(name: str) -> str | None:
    """The path of ``initdb`` or ``pg_ctl``: on PATH, or where Debian installs them."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)
    return candidates[0] if candidates else None


def _unavailable(reason: str) -> None:
    """Skip on a developer's machine; fail on CI, where PostgreSQL must be tested."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"PostgreSQL tests cannot run on CI: {reason}", pytrace=False)
    pytest.skip(f"PostgreSQL tests skipped: {reason} (CI installs the server and runs them)")


class Cluster:
    """A running throw-away server; databases made with :meth:`create_database`."""

    def __init__(self, folder: Path, pg_ctl: str, run_as: list[str], durable: bool) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.pg_ctl = pg_ctl
        self.run_as = run_as
        self.durable = durable
        self._numbers = itertools.count()

    def url(self, database: str) -> str:
        """The URL of ``database``, reached through the cluster's socket folder."""
        return f"postgresql://{SERVER_USER}@/{database}?host={self.folder}"

    def _pg_ctl(self, *arguments: str) -> None:
        subprocess.run(
            [*self.run_as, self.pg_ctl, "-D", str(self.data), *arguments],
            check=True, capture_output=True, timeout=300,
        )

    def start(self) -> None:
        """Start the server and wait until it takes connections."""
        settings = [
            "-c listen_addresses=''",
            f"-c unix_socket_directories='{self.folder}'",
            "-c max_connections=300",
            "-c shared_buffers=32MB",
        ]
        if not self.durable:
            # Tests kill service processes, never the server: its own
            # flushes to disk only cost time there.
            settings += ["-c fsync=off", "-c full_page_writes=off"]
        self._pg_ctl("start", "-w", "-t", "120", "-l", str(self.folder / "server.log"),
                     "-o", " ".join(settings))

    def stop(self) -> None:
        """Stop the server at once (its clients' connections break)."""
        self._pg_ctl("stop", "-w", "-m", "fast")

    def execute(self, statement: str) -> None:
        """Run one statement in the ``postgres`` database (autocommit)."""
        import psycopg

        with psycopg.connect(self.url("postgres"), autocommit=True) as connection:
            connection.execute(statement)  # type: ignore[arg-type]

    def create_database(self) -> str:
        """A new, empty database; its URL."""
        name = f"test_{os.getpid()}_{next(self._numbers)}"
        self.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def remove(self) -> None:
        """Stop the server and delete its folder."""
        try:
            self._pg_ctl("stop", "-w", "-m", "immediate")
        except subprocess.CalledProcessError:
            pass  # Already stopped.
        shutil.rmtree(self.folder, ignore_errors=True)


def start_cluster(*, durable: bool = False) -> Cluster:
    """Make and start a cluster in a new temporary folder (skips or fails if impossible).

    ``durable`` keeps the server's flushes to disk (for benchmarks); tests
    leave them off.
    """
    try:
        import psycopg  # noqa: F401
    except ImportError:
        _unavailable("the driver psycopg is not installed (pip install -r requirements.txt)")
    initdb, pg_ctl = find_server_program("initdb"), find_server_program("pg_ctl")
    if initdb is None or pg_ctl is None:
        _unavailable("no PostgreSQL server here (initdb and pg_ctl not found)")
    assert initdb is not None and pg_ctl is not None
    folder = Path(tempfile.mkdtemp(prefix="c4-postgres-"))
    run_as: list[str] = []
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam(SERVER_USER)
        except KeyError:
            shutil.rmtree(folder)
            _unavailable(f"running as root and no {SERVER_USER!r} user to run the server")
        os.chown(folder, user.pw_uid, user.pw_gid)
        run_as = ["runuser", "-u", SERVER_USER, "--"]
    folder.chmod(0o700)
    made = subprocess.run(
        [*run_as, initdb, "-D", str(folder / "data"), "-U", SERVER_USER, "-A", "trust",
         "-E", "UTF8", "--no-sync", "--locale=C"],
        capture_output=True, text=True, timeout=300,
    )
    if made.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.fail(f"initdb failed: {made.stderr}", pytrace=False)
    cluster = Cluster(folder, pg_ctl, run_as, durable)
    try:
        cluster.start()
    except subprocess.CalledProcessError as error:
        log = (folder / "server.log").read_text(errors="replace")[-2000:]
        shutil.rmtree(folder, ignore_errors=True)
        pytest.fail(f"the PostgreSQL server did not start: {error.stderr!r}\n{log}", pytrace=False)
    return cluster
