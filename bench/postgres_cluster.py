"""A throw-away PostgreSQL server for the load benchmark and the service's tests.

``initdb`` makes a cluster in a new temporary folder; ``pg_ctl start -w``
starts it listening only on a unix socket in that folder (no TCP port, so
no race for one), and :meth:`Cluster.remove` stops it and deletes the
folder. PostgreSQL refuses to run as root: as root, the server runs as the
``postgres`` user (made by the Debian package) through ``runuser``.

Where no server is installed, :func:`start_cluster` raises
:class:`ClusterUnavailable` saying why (the tests' fixture skips then,
except on CI, where it fails).
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
from typing import Any
from urllib.parse import quote

__all__ = ["Cluster", "ClusterUnavailable", "find_server_program", "start_cluster"]

SERVER_USER = "postgres"
"""Who runs the server when the tests run as root."""


def find_server_program(name: str) -> str | None:
    """The path of ``initdb`` or ``pg_ctl``: on PATH, or where Debian installs them."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)
    return candidates[0] if candidates else None


class ClusterUnavailable(Exception):
    """No PostgreSQL server can be run here; the message says why."""


class Cluster:
    """A running throw-away server; databases made with :meth:`create_database`."""

    def __init__(self, folder: Path, pg_ctl: str, run_as: list[str], durable: bool) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.pg_ctl = pg_ctl
        self.run_as = run_as
        self.durable = durable
        self._numbers = itertools.count()
        self._made: set[str] = set()
        self._schema_makers: dict[str, Any] = {}
        """A kept connection to each database :meth:`new_schema` makes schemas in."""

    def description(self) -> dict[str, object]:
        """What another process needs to use this running cluster (see :meth:`described`)."""
        return {
            "folder": str(self.folder),
            "pg_ctl": self.pg_ctl,
            "run_as": self.run_as,
            "durable": self.durable,
        }

    @classmethod
    def described(cls, description: dict[str, object]) -> Cluster:
        """The running cluster another process described with :meth:`description`."""
        run_as = description["run_as"]
        assert isinstance(run_as, list)
        return cls(
            Path(str(description["folder"])),
            str(description["pg_ctl"]),
            [str(word) for word in run_as],
            bool(description["durable"]),
        )

    def url(self, database: str) -> str:
        """The URL of ``database``, reached through the cluster's socket folder."""
        return f"postgresql://{SERVER_USER}@/{database}?host={self.folder}"

    def _pg_ctl(self, *arguments: str) -> None:
        subprocess.run(
            [*self.run_as, self.pg_ctl, "-D", str(self.data), *arguments],
            check=True,
            capture_output=True,
            timeout=300,
        )

    def start(self) -> None:
        """Start the server and wait until it takes connections."""
        settings = [
            "-c listen_addresses=''",
            f"-c unix_socket_directories='{self.folder}'",
            "-c max_connections=1000",  # tests of several processes may share one cluster
            "-c shared_buffers=32MB",
        ]
        if not self.durable:
            # Tests kill service processes, never the server: its own
            # flushes to disk only cost time there.
            settings += ["-c fsync=off", "-c full_page_writes=off"]
        self._pg_ctl(
            "start",
            "-w",
            "-t",
            "120",
            "-l",
            str(self.folder / "server.log"),
            "-o",
            " ".join(settings),
        )

    def stop(self) -> None:
        """Stop the server at once (its clients' connections break)."""
        self._pg_ctl("stop", "-w", "-m", "fast")

    def execute(self, *statements: str, database: str = "postgres") -> None:
        """Run statements in ``database``, each committed at once."""
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as connection:
            for statement in statements:
                connection.execute(statement)

    def create_database(self) -> str:
        """A new, empty database; its URL (some 8 MB and 0.1 to 0.3 s each)."""
        name = f"test_{os.getpid()}_{next(self._numbers)}"
        self.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def empty_database(self, name: str = "games") -> str:
        """The URL of the cluster's database ``name``, emptied: cheaper than a new one.

        Connections left from the previous user are ended first, so none
        holds a lock on what is dropped. Processes that share the cluster
        each use a name of their own.
        """
        if name not in self._made:
            self.execute(f'DROP DATABASE IF EXISTS "{name}"', f'CREATE DATABASE "{name}"')
            self._made.add(name)
        self.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()",
            "DROP SCHEMA public CASCADE",
            "CREATE SCHEMA public",
            database=name,
        )
        return self.url(name)

    def new_schema(self, database: str = "games") -> str:
        """The URL of a new, empty schema in ``database``: the one schema its connections see.

        Cheaper for a test than :meth:`empty_database` (9 ms of CPU less,
        most of it the server's): no connection is ended and nothing is
        dropped. Each call makes a schema no earlier call made (and
        ``database``, on its first call), and the URL's ``search_path``
        names that schema alone, so whatever a client makes through the URL
        lands there and it finds nothing of another's. The schemas stay
        until the cluster is removed. Processes that share the cluster each
        use a database of their own.
        """
        import psycopg

        maker = self._schema_makers.get(database)
        if maker is None:
            self.execute(f'DROP DATABASE IF EXISTS "{database}"', f'CREATE DATABASE "{database}"')
            maker = psycopg.connect(self.url(database), autocommit=True)
            self._schema_makers[database] = maker
        schema = f"test_{os.getpid()}_{next(self._numbers)}"
        maker.execute(f'CREATE SCHEMA "{schema}"')
        return f"{self.url(database)}&options={quote(f'-csearch_path={schema}', safe='')}"

    def disconnect(self) -> None:
        """Close the connections :meth:`new_schema` keeps (before the server stops)."""
        for maker in self._schema_makers.values():
            maker.close()
        self._schema_makers.clear()

    def remove(self) -> None:
        """Stop the server and delete its folder."""
        self.disconnect()
        try:
            self._pg_ctl("stop", "-w", "-m", "immediate")
        except subprocess.CalledProcessError:
            pass  # Already stopped.
        shutil.rmtree(self.folder, ignore_errors=True)


def start_cluster(*, durable: bool = False) -> Cluster:
    """Make and start a cluster in a new temporary folder.

    ``durable`` keeps the server's flushes to disk (for benchmarks); tests
    leave them off.
    """
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise ClusterUnavailable(
            "the driver psycopg is not installed (pip install -r requirements.txt)"
        ) from None
    initdb, pg_ctl = find_server_program("initdb"), find_server_program("pg_ctl")
    if initdb is None or pg_ctl is None:
        raise ClusterUnavailable("no PostgreSQL server here (initdb and pg_ctl not found)")
    folder = Path(tempfile.mkdtemp(prefix="c4-postgres-"))
    run_as: list[str] = []
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam(SERVER_USER)
        except KeyError:
            shutil.rmtree(folder)
            raise ClusterUnavailable(
                f"running as root and no {SERVER_USER!r} user to run the server"
            ) from None
        os.chown(folder, user.pw_uid, user.pw_gid)
        run_as = ["runuser", "-u", SERVER_USER, "--"]
    folder.chmod(0o700)
    made = subprocess.run(
        [
            *run_as,
            initdb,
            "-D",
            str(folder / "data"),
            "-U",
            SERVER_USER,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-sync",
            "--locale=C",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,  # the status is read below
    )
    if made.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"initdb failed: {made.stderr}")
    cluster = Cluster(folder, pg_ctl, run_as, durable)
    try:
        cluster.start()
    except subprocess.CalledProcessError as error:
        log = (folder / "server.log").read_text(errors="replace")[-2000:]
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(
            f"the PostgreSQL server did not start: {error.stderr!r}\n{log}"
        ) from None
    return cluster
