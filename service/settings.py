"""The service's settings: one typed object, fed by the command line and the environment.

Each setting is one field of :class:`Settings`; its flag (``--max-db-pages``),
its environment variable (``CONNECT_FOUR_MAX_DB_PAGES``), its ``--help`` line
and its row in service/README.md's table are all made from that field, so
they cannot say different things. A flag wins over its variable, and the
variable over the default; an empty variable counts as unset.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from .client_limits import TrustedProxies
from .limits import (
    BODY_TIMEOUT,
    CLAIM_AFTER,
    HEADER_TIMEOUT,
    MAX_CLIENT_CONNECTIONS,
    MAX_CLIENT_WAITS,
    MAX_CONNECTIONS,
    RATE_ANALYSIS,
    RATE_COMPUTER,
    RATE_GAMES,
    RATE_MOVES,
    RATE_READS,
    RATE_REPLAYS,
    WINNER_WAITING,
)
from .rate_limits import OFF, Rates, parse_rate
from .storage import DEFAULT_DB, is_postgres_url

__all__ = [
    "ENVIRONMENT_PREFIX",
    "RATE_STORES",
    "Setting",
    "Settings",
    "SettingsError",
    "readme_table",
]

ENVIRONMENT_PREFIX = "CONNECT_FOUR_"
"""What every setting's environment variable starts with."""

PROGRAM = "python -m connect_four.service"
"""The program's name in ``--help`` and in its errors."""


class SettingsError(ValueError):
    """A flag or environment variable whose value the service cannot use."""


def _rate(text: str) -> str:
    """A rate's value, checked: the ``limits`` notation or ``off``."""
    try:
        parse_rate(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is no rate: write N/second, N/minute, N/hour (';' between several) or {OFF}"
        ) from None
    return text


def _claim_seconds(text: str) -> float:
    """``--claim-after``'s value: seconds, above 0 and at most a day."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= 86400:
        raise argparse.ArgumentTypeError(f"{text!r}: give seconds above 0, at most 86400")
    return seconds


RATE_STORES = ("memory", "database")
"""Where the rate counters may be kept: each process's memory, or the database."""


def _rate_store(text: str) -> str:
    """Where the rate counters live: ``memory`` or ``database``."""
    value = text.strip().lower()
    if value not in RATE_STORES:
        raise argparse.ArgumentTypeError(f"{text!r} is neither {' nor '.join(RATE_STORES)}")
    return value


def _switch(text: str) -> bool:
    """An on/off setting's environment value (a flag alone turns it on)."""
    value = text.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise argparse.ArgumentTypeError(
        f"{text!r} is neither on (1, true, yes) nor off (0, false, no)"
    )


@dataclass(frozen=True)
class Setting:
    """How one field of :class:`Settings` is given, shown and read."""

    name: str
    parse: Callable[[str], Any]
    help: str
    metavar: str | None
    environment_name: str | None
    default: Any

    @property
    def flag(self) -> str:
        """The command line's name: ``--max-db-pages`` for ``max_db_pages``."""
        return "--" + self.name.replace("_", "-")

    @property
    def environment(self) -> str:
        """The environment variable: ``CONNECT_FOUR_MAX_DB_PAGES`` unless named otherwise."""
        return self.environment_name or ENVIRONMENT_PREFIX + self.name.upper()

    @property
    def shown_default(self) -> str:
        """The default as ``--help`` and the README write it."""
        if self.default is None or self.default == "":
            return "none"
        if isinstance(self.default, bool):
            return "on" if self.default else "off"
        if isinstance(self.default, float) and self.default.is_integer():
            return str(int(self.default))
        return str(self.default)

    @property
    def switch(self) -> bool:
        """Whether this setting is on/off, its flag taking no value."""
        return self.parse is _switch


def _setting(
    default: Any,
    parse: Callable[[str], Any],
    help: str,
    *,
    metavar: str | None = None,
    environment: str | None = None,
) -> Any:
    """A field of :class:`Settings` with what its flag, variable and help need."""
    return field(
        default=default,
        metadata={"parse": parse, "help": help, "metavar": metavar, "environment": environment},
    )


@dataclass(frozen=True)
class Settings:
    """Everything an operator may set about the service, each with its default."""

    host: str = _setting(
        "127.0.0.1",
        str,
        "address to listen on (keep 127.0.0.1 behind a proxy on the same machine)",
    )
    port: int = _setting(8080, int, "port to listen on")
    fd: int | None = _setting(
        None,
        int,
        "serve on the listening socket inherited as file descriptor N instead "
        "(socket activation; host and port are then the socket's)",
        metavar="N",
    )
    db: str = _setting(
        DEFAULT_DB,
        str,
        "SQLite database file, or postgresql://user@host:port/dbname to share games "
        "between processes and machines (a password in it is never shown)",
        metavar="FILE_OR_URL",
    )
    max_db_pages: int | None = _setting(
        None,
        int,
        "cap an SQLite database at N pages of 4 KiB; beyond, writes answer 503 storage_full",
        metavar="N",
    )
    read_only: bool = _setting(
        False,
        _switch,
        "serve the games but refuse every change with 503 storage_read_only (backups)",
    )
    body_timeout: float = _setting(
        BODY_TIMEOUT, float, "seconds a request may take to send its body", metavar="SECONDS"
    )
    header_timeout: float = _setting(
        HEADER_TIMEOUT,
        float,
        "seconds a connection may take to send a request's headers",
        metavar="SECONDS",
    )
    winner_queue: int = _setting(
        WINNER_WAITING,
        int,
        "winner checks that may wait for the worker; more are 503",
        metavar="N",
    )
    no_access_log: bool = _setting(False, _switch, "do not log each request")
    max_connections: int = _setting(
        MAX_CONNECTIONS,
        int,
        "connections and requests at once, waiting ones included; more are 503 "
        "(the open-files limit is raised to fit when it can be)",
        metavar="N",
    )
    rate_games: str = _setting(
        RATE_GAMES, _rate, "games one client address may create; more are 429", metavar="RATE"
    )
    rate_moves: str = _setting(
        RATE_MOVES,
        _rate,
        "moves and quits one client address may post; more are 429",
        metavar="RATE",
    )
    rate_analysis: str = _setting(
        RATE_ANALYSIS,
        _rate,
        "POST /analysis and /review one client address may ask; more are 429",
        metavar="RATE",
    )
    rate_computer: str = _setting(
        RATE_COMPUTER,
        _rate,
        "POST /computer_move one client address may ask; more are 429",
        metavar="RATE",
    )
    rate_replays: str = _setting(
        RATE_REPLAYS,
        _rate,
        "stored moves one client address may make the server replay "
        "(games that had left its cache); more are 429",
        metavar="RATE",
    )
    rate_reads: str = _setting(
        RATE_READS,
        _rate,
        "moves and game ids one client address may read (the lists' answers); more are 429",
        metavar="RATE",
    )
    max_client_connections: int = _setting(
        MAX_CLIENT_CONNECTIONS,
        int,
        "connections one client address may hold at once, a trusted proxy's excepted; more are 429",
        metavar="N",
    )
    max_client_waits: int = _setting(
        MAX_CLIENT_WAITS,
        int,
        "long polls (?wait=) one client address may have waiting at once; more are 429",
        metavar="N",
    )
    trusted_proxy: str = _setting(
        "",
        str,
        "proxies (addresses or networks) whose X-Forwarded-For names the client; "
        "none by default: the header is ignored",
        metavar="ADDR[,ADDR...]",
        environment="CONNECT_FOUR_TRUSTED_PROXIES",
    )
    rate_store: str = _setting(
        "memory",
        _rate_store,
        "where the --rate-* counters live: memory (each process counts its own clients) "
        "or database (every process on the same --db counts the same; for several processes)",
        metavar="memory|database",
    )
    claim_after: float = _setting(
        CLAIM_AFTER,
        _claim_seconds,
        "in a game between friends, how long a player must be away on their turn before "
        "the other may claim the win or a draw",
        metavar="SECONDS",
    )

    def __post_init__(self) -> None:
        """Refuse settings that contradict each other or cannot be read."""
        if self.max_db_pages is not None and is_postgres_url(self.db):
            raise SettingsError("--max-db-pages applies to SQLite files only")
        try:
            self.trusted_proxies()
        except ValueError as error:
            raise SettingsError(f"--trusted-proxy: {error}") from None

    def rates(self) -> Rates:
        """Each kind's rate per client address (the ``--rate-KIND`` settings)."""
        return Rates(**{kind.name: getattr(self, f"rate_{kind.name}") for kind in fields(Rates)})

    def with_rates(self, rates: Rates) -> Settings:
        """These settings with ``rates`` as their ``--rate-KIND`` settings (:meth:`rates`'s inverse)."""
        return replace(
            self, **{f"rate_{kind.name}": getattr(rates, kind.name) for kind in fields(rates)}
        )

    def trusted_proxies(self) -> TrustedProxies:
        """The proxies whose X-Forwarded-For is believed (``--trusted-proxy``)."""
        return TrustedProxies.parse(self.trusted_proxy)

    @classmethod
    def definitions(cls) -> list[Setting]:
        """Every setting, in the order ``--help`` and the README list them."""
        return [
            Setting(
                name=item.name,
                parse=item.metadata["parse"],
                help=item.metadata["help"],
                metavar=item.metadata["metavar"],
                environment_name=item.metadata["environment"],
                default=item.default,
            )
            for item in fields(cls)
        ]

    @classmethod
    def parser(cls) -> argparse.ArgumentParser:
        """The command line, each flag's help naming its variable and default."""
        parser = argparse.ArgumentParser(
            prog=PROGRAM,
            description="Serve the drop-token game API and the board winner check.",
        )
        for setting in cls.definitions():
            text = f"{setting.help} (${setting.environment}; default {setting.shown_default})"
            text = text.replace("%", "%%")
            if setting.switch:
                parser.add_argument(
                    setting.flag, action="store_true", default=argparse.SUPPRESS, help=text
                )
            else:
                parser.add_argument(
                    setting.flag,
                    type=setting.parse,
                    default=argparse.SUPPRESS,
                    metavar=setting.metavar,
                    help=text,
                )
        return parser

    @classmethod
    def from_command_line(
        cls, argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None
    ) -> Settings:
        """The settings the flags in ``argv`` and the variables of ``environ`` give.

        A bad value ends the program as argparse does: a line on stderr, status 2.
        """
        parser = cls.parser()
        given = vars(parser.parse_args(argv))
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for setting in cls.definitions():
            if setting.name in given:
                values[setting.name] = given[setting.name]
            elif environ.get(setting.environment):
                try:
                    values[setting.name] = setting.parse(environ[setting.environment])
                except (ValueError, argparse.ArgumentTypeError) as error:
                    parser.error(f"${setting.environment}: {error}")
        try:
            return cls(**values)
        except SettingsError as error:
            parser.error(str(error))


def readme_table() -> str:
    """service/README.md's table of the settings, made from :class:`Settings`."""
    rows = [
        "| flag | environment variable | default | what it sets |",
        "|---|---|---|---|",
    ]
    for setting in Settings.definitions():
        rows.append(
            f"| `{setting.flag}` | `{setting.environment}` | {setting.shown_default} "
            f"| {setting.help} |"
        )
    return "\n".join(rows) + "\n"
